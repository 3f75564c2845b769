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

export const memberAddSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: {
    email: {
      type: 'string',
      format: 'email',
      maxLength: 320,
      description: 'the e-mail of a person who has an account',
    },
    role: roleSchema,
    approval_limit: approvalLimitSchema,
  },
} as const;

export const memberUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { role: roleSchema, approval_limit: approvalLimitSchema },
} as const;
