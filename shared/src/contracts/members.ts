/**
 * The company's members (System → Management → Members): owners and admins invite a person by
 * e-mail (the person accepts after signing in, and only then is a member), change roles and
 * remove members. Approval limits are a control: only owners set them, nobody changes their own
 * role or limit, and every change is audited with before and after. The company always keeps an
 * owner; only owners grant or take the owner role.
 */
import { pageQuerySchema } from '../schemas/list.ts';
import { invitationCreateSchema, invitationSchema, memberSchema, memberUpdateSchema } from '../schemas/members.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listMembers = contract({
  name: 'listMembers',
  method: 'GET',
  path: '/system/members',
  summary: 'List the members',
  description: "The company's members with role and approval limit, by e-mail",
  example: examples.listMembers,
  permission: 'system.management.members',
  scope: null,
  query: pageQuerySchema,
  response: { type: 'array', items: memberSchema },
  list: true,
  errors: [],
});

export const listInvitations = contract({
  name: 'listInvitations',
  method: 'GET',
  path: '/system/invitations',
  summary: 'List the open invitations',
  description: 'Invitations not yet accepted, withdrawn or expired, by e-mail',
  example: examples.listInvitations,
  permission: 'system.management.members',
  scope: null,
  query: pageQuerySchema,
  response: { type: 'array', items: invitationSchema },
  list: true,
  errors: [],
});

export const createInvitation = contract({
  name: 'createInvitation',
  method: 'POST',
  path: '/system/invitations',
  summary: 'Invite a person to become a member',
  description:
    'E-mails an invitation with a role and an approval limit; the same answer whether or not the address has an ' +
    'account; the person becomes a member only by accepting it; only owners invite owners or set approval limits',
  example: examples.createInvitation,
  permission: 'system.management.members',
  scope: null,
  body: invitationCreateSchema,
  status: 201,
  location: '/system/invitations/{id}',
  response: invitationSchema,
  errors: ['conflict'],
});

export const getInvitation = contract({
  name: 'getInvitation',
  method: 'GET',
  path: '/system/invitations/:id',
  summary: 'Read an invitation',
  description: 'An invitation of the company, open or not',
  example: examples.getInvitation,
  permission: 'system.management.members',
  scope: null,
  response: invitationSchema,
  errors: [],
});

export const withdrawInvitation = contract({
  name: 'withdrawInvitation',
  method: 'DELETE',
  path: '/system/invitations/:id',
  summary: 'Withdraw an invitation',
  description: 'An open invitation can no longer be accepted; its link stops working',
  example: examples.withdrawInvitation,
  permission: 'system.management.members',
  scope: null,
  status: 204,
  errors: [],
});

export const updateMember = contract({
  name: 'updateMember',
  method: 'POST',
  path: '/system/members/:userId',
  summary: 'Change a member',
  description:
    "Change a member's role or approval limit; only owners change approval limits and grant or take the owner " +
    'role; nobody changes their own role or limit (403); the last owner stays owner (409)',
  example: examples.updateMember,
  permission: 'system.management.members',
  scope: null,
  body: memberUpdateSchema,
  response: memberSchema,
  errors: ['conflict'],
});

export const removeMember = contract({
  name: 'removeMember',
  method: 'DELETE',
  path: '/system/members/:userId',
  summary: 'Remove a member',
  description:
    'Remove a member: their API keys and AI connections stop working at once; only owners remove owners; the last ' +
    'owner cannot be removed (409)',
  example: examples.removeMember,
  permission: 'system.management.members',
  scope: null,
  status: 204,
  errors: ['conflict'],
});
