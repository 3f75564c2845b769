import type { FromSchema } from 'json-schema-to-ts';
import { currencySchema, idSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import { languageSchema, nullableLanguageSchema } from './common.ts';

export type Side = 'vendor' | 'customer';

/**
 * Fields a vendor or customer stores besides its id and number, as a write sends them.
 * Only `name` is required on create. `curr` is the party's default document currency
 * (ISO 4217): written as `curr` and read as `currency`, as on every document (sending
 * `currency` on a write is a 400 naming `curr`).
 */
export const partyFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  address1: { type: 'string', maxLength: 200, description: 'street name' },
  street: { type: 'string', maxLength: 50, description: 'house number' },
  zipcode: { type: 'string', maxLength: 20 },
  city: { type: 'string', maxLength: 100 },
  country: {
    type: 'string',
    pattern: '^[A-Z]{2}$',
    format: 'iso-country',
    description: 'ISO 3166-1 alpha-2, upper case',
  },
  email: { type: 'string', format: 'email', maxLength: 254 },
  phone: { type: 'string', maxLength: 50 },
  curr: { ...currencySchema, description: "the party's default currency, ISO 4217 (reads as currency)" },
  taxnumber: { type: 'string', maxLength: 50, description: 'VAT or tax number' },
  terms: { type: 'integer', minimum: 0, maximum: 3650, description: 'payment terms in days' },
  language: {
    ...languageSchema,
    description: "the party's language (de, fr, it, en): its PDFs, e-mails and payment part; unset: the company's",
  },
} as const;

export type PartyField = keyof typeof partyFields;
export const PARTY_FIELDS = Object.keys(partyFields) as PartyField[];

/** A field's name in the read shape (and the column's): `curr` reads as `currency`, the others as written. */
export function partyReadName(field: PartyField): string {
  return field === 'curr' ? 'currency' : field;
}

/** `vendornumber` or `customernumber`. */
export function numberField(vc: Side): `${Side}number` {
  return `${vc}number`;
}

function numberSchema<V extends Side>(vc: V) {
  return {
    type: 'string',
    minLength: 1,
    maxLength: 50,
    pattern: '^\\S(.*\\S)?$',
    description: `${vc} number, unique in the company; from the company's sequence when omitted`,
  } as const;
}

/** The number field of each side, keyed by its name, so the schemas keep literal types. */
const numberFields = {
  vendor: { vendornumber: numberSchema('vendor') },
  customer: { customernumber: numberSchema('customer') },
} as const;

/** The same field schema, also accepting null (an update sends null to clear a field). */
function nullable<const S extends { type: string }>(s: S) {
  return { ...s, type: [s.type, 'null'] } as Omit<S, 'type'> & { readonly type: readonly [S['type'], 'null'] };
}

/** Every optional party field, also accepting null: what updates send and reads show. */
const nullableFields = {
  address1: nullable(partyFields.address1),
  street: nullable(partyFields.street),
  zipcode: nullable(partyFields.zipcode),
  city: nullable(partyFields.city),
  country: nullable(partyFields.country),
  email: nullable(partyFields.email),
  phone: nullable(partyFields.phone),
  curr: nullable(partyFields.curr),
  taxnumber: nullable(partyFields.taxnumber),
  terms: nullable(partyFields.terms),
  language: { ...nullableLanguageSchema, description: partyFields.language.description },
} as const satisfies Record<Exclude<PartyField, 'name'>, object>;

function partyCreateSchema<V extends Side>(vc: V) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { ...partyFields, ...numberFields[vc] },
  } as const;
}

/** Partial update: only the fields sent change; null clears an optional field. */
function partyUpdateSchema<V extends Side>(vc: V) {
  return {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: { name: partyFields.name, ...nullableFields, ...numberFields[vc] },
  } as const;
}

export const vendorCreateSchema = partyCreateSchema('vendor');
export const customerCreateSchema = partyCreateSchema('customer');
export const vendorUpdateSchema = partyUpdateSchema('vendor');
export const customerUpdateSchema = partyUpdateSchema('customer');

const { curr: nullableCurr, ...nullableReadFields } = nullableFields;

/** Read shape: every field is present; optional fields that are not set are null; `curr` reads as `currency`. */
function partyReadSchema<V extends Side>(vc: V) {
  return {
    type: 'object',
    required: ['id', numberField(vc), ...PARTY_FIELDS.map(partyReadName)],
    properties: {
      id: { ...idSchema, description: `used as ${vc}_id elsewhere` },
      ...({ vendor: { vendornumber: { type: 'string' } }, customer: { customernumber: { type: 'string' } } } as const)[
        vc
      ],
      name: partyFields.name,
      ...nullableReadFields,
      currency: { ...nullableCurr, description: "the party's default currency, ISO 4217 (written as curr)" },
    },
  } as const;
}
export const vendorReadSchema = partyReadSchema('vendor');
export const customerReadSchema = partyReadSchema('customer');

export const partyCreatedSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: idSchema,
    vendornumber: { type: 'string', description: 'on the vendor side' },
    customernumber: { type: 'string', description: 'on the customer side' },
  },
} as const;

export const PARTY_SORT_KEYS = ['name', 'number', 'id'] as const;

export const partySearchQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 200, description: 'case-insensitive partial match on the name' },
    sort: sortSchema(PARTY_SORT_KEYS, 'name', 'name (case-insensitive, then id), number or id'),
    ...pageQueryProperties,
  },
} as const;

/** A vendor or customer write (create or update, either side), derived from the schemas. */
export type PartyInput =
  | FromSchema<typeof vendorCreateSchema>
  | FromSchema<typeof customerCreateSchema>
  | FromSchema<typeof vendorUpdateSchema>
  | FromSchema<typeof customerUpdateSchema>;

export const partySchemas = {
  vendor: { create: vendorCreateSchema, update: vendorUpdateSchema, read: vendorReadSchema },
  customer: { create: customerCreateSchema, update: customerUpdateSchema, read: customerReadSchema },
} as const;
