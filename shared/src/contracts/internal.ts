/**
 * The ledger's internal API (`/internal/*`), only for the MCP gateway: one contract per
 * endpoint like the public API, so the ledger routes and validates them in the kernel and the
 * gateway's ledger client takes its types from the same declarations. Each is marked
 * `internal: true` and listed in INTERNAL_CONTRACTS, never in CONTRACTS: the OpenAPI document,
 * the permitted-endpoints list, the MCP tools and the docs tables know nothing of them.
 * Names are `internal.<name>`, apart from the public ones (the metrics' route label). Paths
 * are relative to `/internal`; `:dataset` is a company's dataset, `:userId` a person's id.
 * The caller is always the gateway (its internal JWT), so there is no permission or scope.
 */
import {
  aiConnectionsSwitchBodySchema,
  internalAcceptAnswerSchema,
  internalInvitationsAnswerSchema,
  internalInvitationsQuerySchema,
  connectionAuditBodySchema,
  internalCompanyAnswerSchema,
  internalEndpointsAnswerSchema,
  internalEndpointsQuerySchema,
  internalMemberAnswerSchema,
  internalMembershipsAnswerSchema,
  internalUserAnswerSchema,
  verifyCredentialsAnswerSchema,
  verifyCredentialsBodySchema,
} from '../schemas/internal.ts';
import { contract } from './contract.ts';

const company = { dataset: 'muster-ag', name: 'Muster AG', ai_connections_enabled: true };

export const verifyCredentials = contract({
  internal: true,
  name: 'internal.verifyCredentials',
  method: 'POST',
  path: '/auth/verify',
  summary: 'Check e-mail, password and TOTP together',
  description: 'The person when all three factors are right; a TOTP code is accepted once',
  example: {
    body: { email: 'anna@muster.ch', password: 'secret', totp: '123456' },
    response: { valid: true, user: { id: 1, name: 'Anna Muster', email: 'anna@muster.ch' } },
  },
  permission: null,
  scope: null,
  body: verifyCredentialsBodySchema,
  response: verifyCredentialsAnswerSchema,
  errors: [],
});

export const getUser = contract({
  internal: true,
  name: 'internal.getUser',
  method: 'GET',
  path: '/users/:userId',
  summary: 'Read a person',
  description: 'Name, e-mail and whether the account is active',
  example: {
    params: { userId: 1 },
    response: { user: { id: 1, name: 'Anna Muster', email: 'anna@muster.ch', active: true } },
  },
  permission: null,
  scope: null,
  response: internalUserAnswerSchema,
  errors: [],
});

export const listMemberships = contract({
  internal: true,
  name: 'internal.listMemberships',
  method: 'GET',
  path: '/users/:userId/memberships',
  summary: "List a person's companies",
  description: 'The companies of an active person with role and AI-connections switch; none for a deactivated one',
  example: {
    params: { userId: 1 },
    response: { memberships: [{ ...company, role: 'owner', may_connect_assistants: true }] },
  },
  permission: null,
  scope: null,
  response: internalMembershipsAnswerSchema,
  errors: [],
});

export const getCompany = contract({
  internal: true,
  name: 'internal.getCompany',
  method: 'GET',
  path: '/companies/:dataset',
  summary: 'Read a company',
  description: 'Name and AI-connections switch of a company, by dataset',
  example: { params: { dataset: 'muster-ag' }, response: { company } },
  permission: null,
  scope: null,
  response: internalCompanyAnswerSchema,
  errors: [],
});

export const getMember = contract({
  internal: true,
  name: 'internal.getMember',
  method: 'GET',
  path: '/companies/:dataset/members/:userId',
  summary: "Read a person's standing in a company",
  description:
    'Membership and role, whether the account is active, and the switch: checked on each use of a connection',
  example: {
    params: { dataset: 'muster-ag', userId: 1 },
    response: { company, user_exists: true, user_active: true, role: 'owner', may_connect_assistants: true },
  },
  permission: null,
  scope: null,
  response: internalMemberAnswerSchema,
  errors: [],
});

export const listMemberEndpoints = contract({
  internal: true,
  name: 'internal.listMemberEndpoints',
  method: 'GET',
  path: '/companies/:dataset/members/:userId/endpoints',
  summary: 'List the endpoints a member may call',
  description: "The endpoint keys the member's role and the given scopes (`scope=a b`) allow: the MCP tool list",
  example: {
    params: { dataset: 'muster-ag', userId: 1 },
    query: { scope: 'contacts:read' },
    response: { role: 'owner', endpoints: ['GET /arap/vendor', 'GET /arap/customer'] },
  },
  permission: null,
  scope: null,
  query: internalEndpointsQuerySchema,
  response: internalEndpointsAnswerSchema,
  errors: [],
});

export const setAiConnections = contract({
  internal: true,
  name: 'internal.setAiConnections',
  method: 'PUT',
  path: '/companies/:dataset/ai_connections',
  summary: 'Switch AI connections on or off',
  description: 'Only an active owner or admin (403); the switch and its audit entry commit in one transaction',
  example: { params: { dataset: 'muster-ag' }, body: { enabled: true, user_id: 1 }, response: { company } },
  permission: null,
  scope: null,
  body: aiConnectionsSwitchBodySchema,
  response: internalCompanyAnswerSchema,
  errors: [],
});

export const auditConnection = contract({
  internal: true,
  name: 'internal.auditConnection',
  method: 'POST',
  path: '/companies/:dataset/ai_connections/audit',
  summary: "Audit an AI connection's start or end",
  description:
    'Writes the connection (and the end of each connection it replaced) or its end to the audit log, in one ' +
    'transaction',
  example: {
    params: { dataset: 'muster-ag' },
    body: { user_id: 1, action: 'end', connection_id: 'c1', client_name: 'Claude', reason: 'revoked' },
  },
  permission: null,
  scope: null,
  body: connectionAuditBodySchema,
  status: 204,
  errors: [],
});

export const listInvitationsOfUser = contract({
  internal: true,
  name: 'internal.listInvitationsOfUser',
  method: 'GET',
  path: '/users/:userId/invitations',
  summary: "List a person's open invitations",
  description:
    "The open invitations to the person's account address (none for a deactivated account), and which of them " +
    "the e-mail link's `token` names (null: none of this person's)",
  example: {
    params: { userId: 1 },
    query: { token: 'inv_Q2hhbmdlTWVJbkFuRW1haWw' },
    response: {
      invitations: [
        {
          id: 3,
          company: { dataset: 'muster-ag', name: 'Muster AG' },
          role: 'accountant',
          approval_limit: 5000,
          expires_at: '2026-03-09T09:15:00.000Z',
        },
      ],
      linked: 3,
    },
  },
  permission: null,
  scope: null,
  query: internalInvitationsQuerySchema,
  response: internalInvitationsAnswerSchema,
  errors: [],
});

export const acceptInvitation = contract({
  internal: true,
  name: 'internal.acceptInvitation',
  method: 'POST',
  path: '/users/:userId/invitations/:invitationId/accept',
  summary: 'Accept an invitation',
  description:
    'The person becomes a member with the invited role and limit, audited, in one transaction; 404 unless the ' +
    "invitation is open and addressed to the person's account; 409 when already a member",
  example: {
    params: { userId: 1, invitationId: 3 },
    response: { membership: { dataset: 'muster-ag', name: 'Muster AG', role: 'accountant' } },
  },
  permission: null,
  scope: null,
  status: 200,
  response: internalAcceptAnswerSchema,
  errors: ['conflict'],
});
