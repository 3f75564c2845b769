import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './common.ts';

/**
 * Dimensions (`/system/dimensions`, docs/year-end.md): a company's cost centres, projects and
 * the like, each with values. A posting line names them as `dimensions: { "<dimension code>":
 * "<value code>" }`; which codes exist and are active is checked by the ledger (an unknown
 * dimension or value is a 400). Codes never change; names do.
 */

export const DIMENSION_CODE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]*$';

const codeSchema = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: 30, pattern: DIMENSION_CODE_PATTERN, description }) as const;
const nameSchema = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** The `dimensions` of a posting line (journal line, AR/AP line, invoice item). */
export const lineDimensionsSchema = {
  type: 'object',
  maxProperties: 10,
  additionalProperties: codeSchema('a value code of the dimension'),
  description:
    'dimension code → value code, e.g. { "cc": "sales", "project": "P-7" }; active dimensions and values only',
} as const;

/** A line's dimensions in a read shape: absent when it has none. */
export const lineDimensionsReadSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'dimension code → value code; absent when the line has none',
} as const;

export const dimensionValueReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    code: { type: 'string' },
    name: { type: 'string' },
    active: { type: 'boolean' },
  },
} as const;

export const dimensionReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    code: { type: 'string' },
    name: { type: 'string' },
    active: { type: 'boolean' },
    values: { type: 'array', items: dimensionValueReadSchema },
  },
} as const;

export const dimensionCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: {
    code: codeSchema('the code postings and reports name, unique in the company; never changes'),
    name: nameSchema,
    values: {
      type: 'array',
      maxItems: 500,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'name'],
        properties: { code: codeSchema('the value code postings name'), name: nameSchema },
      },
    },
  },
} as const;

/** Renaming and (de)activating: the code stays. */
export const dimensionUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: nameSchema,
    active: { type: 'boolean', description: 'false: no new posting may name it; old postings keep it' },
  },
} as const;

export const dimensionValueCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: {
    code: codeSchema('the value code postings name, unique within the dimension; never changes'),
    name: nameSchema,
  },
} as const;

export const dimensionCreatedSchema = {
  type: 'object',
  properties: { id: idSchema },
} as const;

export type LineDimensions = FromSchema<typeof lineDimensionsSchema>;
export type DimensionCreateInput = FromSchema<typeof dimensionCreateSchema>;
export type DimensionUpdateInput = FromSchema<typeof dimensionUpdateSchema>;
export type DimensionValueCreateInput = FromSchema<typeof dimensionValueCreateSchema>;
