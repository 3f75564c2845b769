import type { FromSchema } from 'json-schema-to-ts';
import { accountNumberSchema, currencySchema, idSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import { MAX_AMOUNT } from './transaction.ts';

/**
 * The services catalogue (`/arap/services`): what invoice items may name by `service_id`
 * or `partnumber` to take description, unit, price and accounts from. Rules a schema
 * cannot express (price decimals, the accounts' links) are checked by the ledger.
 */

/** Most decimals a price carries (the column is NUMERIC(20,6)), as for invoice item prices. */
export const SERVICE_PRICE_DECIMALS = 6;

export const serviceFields = {
  partnumber: {
    type: 'string',
    minLength: 1,
    maxLength: 50,
    pattern: '^\\S(.*\\S)?$',
    description: "the service's number, unique in the company; from the company's sequence when omitted",
  },
  description: { type: 'string', minLength: 1, maxLength: 1000 },
  unit: { type: 'string', minLength: 1, maxLength: 20, description: 'unit of quantity, e.g. h, pcs, day' },
  price: {
    type: 'number',
    minimum: -MAX_AMOUNT,
    maximum: MAX_AMOUNT,
    description: `unit price in curr, at most ${SERVICE_PRICE_DECIMALS} decimals`,
  },
  curr: { ...currencySchema, description: "the price's currency, ISO 4217; default the company's base currency" },
  income_account: { ...accountNumberSchema, description: 'revenue account for customer invoices (link AR_amount)' },
  expense_account: { ...accountNumberSchema, description: 'expense account for vendor invoices (link AP_amount)' },
  taxAccount: {
    ...accountNumberSchema,
    description: 'tax account (link AR_tax or AP_tax); the rate valid on the invoice date applies',
  },
  active: { type: 'boolean', description: 'inactive services stay on old invoices but are not offered for new ones' },
} as const;

export type ServiceField = keyof typeof serviceFields;
export const SERVICE_FIELDS = Object.keys(serviceFields) as ServiceField[];

/** The optional fields an update may clear with null. */
const clearable = {
  unit: { ...serviceFields.unit, type: ['string', 'null'] },
  income_account: { ...serviceFields.income_account, type: ['string', 'null'] },
  expense_account: { ...serviceFields.expense_account, type: ['string', 'null'] },
  taxAccount: { ...serviceFields.taxAccount, type: ['string', 'null'] },
} as const;

export const serviceCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['description', 'price'],
  properties: serviceFields,
} as const;

/** Partial update: only the fields sent change; null clears unit or an account. */
export const serviceUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...serviceFields, ...clearable },
} as const;

/** Read shape: every field is present; unset optional fields are null. */
export const serviceReadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', ...SERVICE_FIELDS],
  properties: {
    id: { ...idSchema, description: 'used as service_id on invoice items' },
    partnumber: { type: 'string' },
    description: { type: 'string' },
    unit: { type: ['string', 'null'] },
    price: { type: 'number', description: 'unit price in curr' },
    curr: { type: 'string' },
    income_account: { type: ['string', 'null'] },
    expense_account: { type: ['string', 'null'] },
    taxAccount: { type: ['string', 'null'] },
    active: { type: 'boolean' },
  },
} as const;

export const serviceCreatedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'partnumber'],
  properties: { id: idSchema, partnumber: { type: 'string' } },
} as const;

export const SERVICE_SORT_KEYS = ['partnumber', 'description', 'id'] as const;

export const serviceListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    active: { type: 'boolean', description: 'true: only active services, false: only inactive ones; default both' },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'case-insensitive partial match on description or partnumber',
    },
    sort: sortSchema(SERVICE_SORT_KEYS, 'partnumber', 'partnumber (then id), description (case-insensitive) or id'),
    ...pageQueryProperties,
  },
} as const;

/** A service write (create or update), derived from the schemas. */
export type ServiceCreate = FromSchema<typeof serviceCreateSchema>;
export type ServiceUpdate = FromSchema<typeof serviceUpdateSchema>;
export type ServiceInput = ServiceCreate | ServiceUpdate;
/** The JSON read shape (`price` as a JSON number). */
export type ServiceRead = FromSchema<typeof serviceReadSchema>;
export type ServiceListQuery = FromSchema<typeof serviceListQuerySchema>;
