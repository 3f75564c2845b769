/**
 * The shapes of the ledger's internal API (`/internal/*`, only for the MCP gateway): sign-in
 * checks, people, memberships, the AI-connections switch and the connections' audit entries.
 * The ledger validates and answers with them; the gateway's ledger client takes its types
 * from them (BodyOf/ResponseOf of shared/src/contracts/internal.ts).
 */
import { idSchema } from './common.ts';
import { approvalLimitSchema, roleSchema } from './members.ts';

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

export const internalCompanySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['dataset', 'name', 'ai_connections_enabled'],
  properties: {
    dataset: { type: 'string' },
    name: { type: 'string' },
    ai_connections_enabled: { type: 'boolean' },
  },
} as const;

export const internalCompanyAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['company'],
  properties: { company: internalCompanySchema },
} as const;

export const verifyCredentialsBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password', 'totp'],
  properties: { email: text(320), password: text(1024), totp: text(16) },
} as const;

export const internalUserSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'email'],
  properties: { id: idSchema, name: { type: 'string' }, email: { type: 'string' } },
} as const;

/** `user` only when all three factors were right; the answer never says which one failed. */
export const verifyCredentialsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['valid'],
  properties: {
    valid: { type: 'boolean' },
    user: internalUserSchema,
    reason: {
      type: 'string',
      enum: ['code_used'],
      description: 'only with the right password: the code is right but was already used to sign in',
    },
    next_code_in_seconds: {
      type: 'integer',
      minimum: 1,
      description: 'with code_used: when the authenticator shows its next code',
    },
  },
} as const;

export const internalUserAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['user'],
  properties: {
    user: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name', 'email', 'active'],
      properties: { ...internalUserSchema.properties, active: { type: 'boolean' } },
    },
  },
} as const;

export const internalMembershipsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['memberships'],
  properties: {
    memberships: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['dataset', 'name', 'ai_connections_enabled', 'role', 'may_connect_assistants'],
        properties: {
          ...internalCompanySchema.properties,
          role: { type: 'string' },
          may_connect_assistants: { type: 'boolean' },
        },
      },
    },
  },
} as const;

/** A person's standing in a company: what the gateway checks on each use of a connection. */
export const internalMemberAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['company', 'user_exists', 'user_active', 'role', 'may_connect_assistants'],
  properties: {
    company: internalCompanySchema,
    user_exists: { type: 'boolean' },
    user_active: { type: 'boolean' },
    role: { type: ['string', 'null'] },
    may_connect_assistants: { type: 'boolean' },
  },
} as const;

export const internalEndpointsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { scope: { type: 'string', maxLength: 2000, description: 'granted scopes, space-separated' } },
} as const;

export const internalEndpointsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'endpoints'],
  properties: {
    role: { type: ['string', 'null'] },
    endpoints: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const aiConnectionsSwitchBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'user_id'],
  properties: { enabled: { type: 'boolean' }, user_id: idSchema },
} as const;

export const connectionAuditBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['user_id', 'action', 'connection_id', 'client_name'],
  properties: {
    user_id: idSchema,
    action: { type: 'string', enum: ['connect', 'end'] },
    connection_id: text(100),
    client_name: text(200),
    scopes: text(500),
    reason: text(100),
    /** the connections this one replaced: each ends in the same transaction as the entry */
    replaced: { type: 'array', maxItems: 100, items: text(100) },
  },
} as const;

/** `?token=`: the token of the e-mail's link, to tell which of the person's invitations it names. */
export const internalInvitationsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const internalInvitationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'company', 'role', 'approval_limit', 'expires_at'],
  properties: {
    id: idSchema,
    company: {
      type: 'object',
      additionalProperties: false,
      required: ['dataset', 'name'],
      properties: { dataset: { type: 'string' }, name: { type: 'string' } },
    },
    role: roleSchema,
    approval_limit: approvalLimitSchema,
    expires_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** The person's open invitations (to their account's address), and which one the link's token names (or null). */
export const internalInvitationsAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['invitations', 'linked'],
  properties: {
    invitations: { type: 'array', items: internalInvitationSchema },
    linked: { oneOf: [idSchema, { type: 'null' }] },
  },
} as const;

export const internalAcceptAnswerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['membership'],
  properties: {
    membership: {
      type: 'object',
      additionalProperties: false,
      required: ['dataset', 'name', 'role'],
      properties: { dataset: { type: 'string' }, name: { type: 'string' }, role: roleSchema },
    },
  },
} as const;
