/**
 * The company's members (System → Management → Members): owners and admins add people who
 * have an account, change their role or approval limit, and remove them. The company always
 * keeps an owner; only owners grant or take the owner role.
 */
import { pageQuerySchema } from '../schemas/list.ts';
import { memberAddSchema, memberSchema, memberUpdateSchema } from '../schemas/members.ts';
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

export const addMember = contract({
  name: 'addMember',
  method: 'POST',
  path: '/system/members',
  summary: 'Add a member',
  description: 'Add a person who has an account (by e-mail) with a role and an approval limit; only owners add owners',
  example: examples.addMember,
  permission: 'system.management.members',
  scope: null,
  body: memberAddSchema,
  status: 201,
  location: '/system/members/{user_id}',
  response: memberSchema,
  errors: ['conflict'],
});

export const updateMember = contract({
  name: 'updateMember',
  method: 'POST',
  path: '/system/members/:userId',
  summary: 'Change a member',
  description:
    "Change a member's role or approval limit; only owners grant or take the owner role; the last owner stays owner " +
    '(409)',
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
