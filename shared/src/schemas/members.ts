/** The company's members: who may act in its books, with which role and approval limit. */
import { ROLES } from '../permissions.ts';
import { idSchema } from './common.ts';

const roleSchema = { type: 'string', enum: ROLES, description: 'owner, admin, accountant, clerk or viewer' } as const;
const approvalLimitSchema = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 1e15,
  description: 'highest document total (base currency) the member may approve and post; null = no limit',
} as const;

export { roleSchema, approvalLimitSchema };

export const memberSchema = {
  type: 'object',
  required: ['user_id', 'name', 'email', 'role', 'approval_limit'],
  properties: {
    user_id: idSchema,
    name: { type: 'string' },
    email: { type: 'string' },
    role: roleSchema,
    approval_limit: approvalLimitSchema,
  },
} as const;

/**
 * An invitation to become a member: the same answer whether or not the address has an account
 * (nothing about the person is told); the person accepts after signing in with that address.
 */
export const invitationSchema = {
  type: 'object',
  required: ['id', 'email', 'role', 'approval_limit', 'created_at', 'expires_at'],
  properties: {
    id: idSchema,
    email: { type: 'string', description: 'the invited address, in lower case' },
    role: roleSchema,
    approval_limit: approvalLimitSchema,
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time', description: 'after this the invitation cannot be accepted' },
  },
} as const;

export const invitationCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 320, description: 'the address the invitation is sent to' },
    role: roleSchema,
    approval_limit: {
      ...approvalLimitSchema,
      description:
        approvalLimitSchema.description +
        '; only owners set it (absent: no limit from an owner, 0 from an admin until an owner sets one)',
    },
  },
} as const;

export const memberUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { role: roleSchema, approval_limit: approvalLimitSchema },
} as const;
