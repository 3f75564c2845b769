import { currencySchema, idSchema } from './common.ts';

/** Fields a vendor or customer accepts on create and update. Only `name` is required. */
const partyFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  address1: { type: 'string', maxLength: 200, description: 'street name' },
  street: { type: 'string', maxLength: 50, description: 'house number' },
  zipcode: { type: 'string', maxLength: 20 },
  city: { type: 'string', maxLength: 100 },
  country: { type: 'string', pattern: '^[A-Z]{2}$', format: 'iso-country', description: 'ISO 3166-1 alpha-2' },
  email: { type: 'string', format: 'email', maxLength: 254 },
  phone: { type: 'string', maxLength: 50 },
  currency: currencySchema,
  taxnumber: { type: 'string', maxLength: 50, description: 'VAT or tax number' },
  terms: { type: 'integer', minimum: 0, maximum: 3650, description: 'payment terms in days' },
} as const;

function partyWriteSchema(vc: 'vendor' | 'customer', required: readonly string[]) {
  return {
    type: 'object',
    additionalProperties: false,
    required,
    properties: {
      ...partyFields,
      [`${vc}number`]: { type: 'string', minLength: 1, maxLength: 50, description: `${vc} number; from the company's sequence when omitted` },
    },
  } as const;
}

export const vendorCreateSchema = partyWriteSchema('vendor', ['name']);
export const customerCreateSchema = partyWriteSchema('customer', ['name']);
export const vendorUpdateSchema = partyWriteSchema('vendor', []);
export const customerUpdateSchema = partyWriteSchema('customer', []);

function partyReadSchema(vc: 'vendor' | 'customer') {
  return {
    type: 'object',
    properties: {
      id: idSchema,
      [`${vc}number`]: { type: 'string' },
      ...partyFields,
    },
  } as const;
}
export const vendorReadSchema = partyReadSchema('vendor');
export const customerReadSchema = partyReadSchema('customer');

export const partySearchQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 200, description: 'case-insensitive partial match' },
    limit: { type: 'integer', minimum: 1, maximum: 1000 },
    offset: { type: 'integer', minimum: 0 },
  },
} as const;
