/**
 * Building blocks of the JSON schemas. These schemas are the single source for
 * ledger request validation (ajv), the OpenAPI document and MCP tool inputs.
 * Custom formats (`iso-country`, `iso-currency`) are registered by `createSchemaAjv` (schemaValidator.ts).
 */
import { CONNECTION_REFUSALS, type ConnectionRefusal } from '../connections.ts';

export const dateSchema = { type: 'string', format: 'date', description: 'yyyy-mm-dd' } as const;
export const amountSchema = { type: 'number', description: 'JSON number in the document currency' } as const;
export const accountNumberSchema = {
  type: 'string', minLength: 1, maxLength: 20, pattern: '^[0-9A-Za-z.-]+$',
  description: 'account number as shown in the chart of accounts',
} as const;
export const currencySchema = {
  type: 'string', pattern: '^[A-Z]{3}$', format: 'iso-currency', description: 'ISO 4217 code',
} as const;
/**
 * Ids are Postgres bigint and JSON numbers: bounded by 2^53 - 1, the largest integer a
 * JSON number carries exactly (also the bigint ids' practical range), so 1e21 is a 400,
 * not a value the database cannot parse.
 */
export const MAX_ID = 9007199254740991;
export const idSchema = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
export const vcSchema = { type: 'string', enum: ['vendor', 'customer'] } as const;

export const errorBodySchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        field: { type: 'string', description: 'JSON pointer of the field at fault' },
        reason: {
          type: 'string',
          enum: Object.keys(CONNECTION_REFUSALS) as ConnectionRefusal[],
          description: 'with connection_not_allowed (AI connections only): why the connection may no longer act',
        },
      },
    },
  },
} as const;

export const createdSchema = {
  type: 'object', required: ['id'], properties: { id: idSchema },
} as const;

export const listQuerySchema = {
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  offset: { type: 'integer', minimum: 0, maximum: MAX_ID, default: 0 },
} as const;
