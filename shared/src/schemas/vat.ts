/**
 * Swiss VAT (docs/vat.md): tax codes with their rate history (`/system/taxes`) and the VAT
 * return as a document (`/reports/vat/returns`): its frozen figures, the ledger lines behind
 * each figure, its settlement.
 */
import { accountNumberSchema, dateSchema, idSchema } from './common.ts';
import { pageQueryProperties } from './list.ts';

export const TAX_KINDS = ['output', 'input', 'acquisition', 'zero'] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

const rateValue = {
  type: 'number',
  minimum: 0,
  maximum: 1,
  description: 'rate as a fraction: 0.081 is 8.1 %',
} as const;

const ratePeriod = {
  type: 'object',
  additionalProperties: false,
  required: ['rate', 'valid_from'],
  properties: {
    rate: rateValue,
    valid_from: { ...dateSchema, description: 'first day the rate applies (by the posting date)' },
    valid_to: { type: ['string', 'null'], format: 'date', description: 'last day; null = open-ended' },
    description: { type: 'string', minLength: 1, maxLength: 200, description: "the period's own wording" },
  },
} as const;

const figure = {
  type: 'string',
  pattern: '^[0-9]{3}$',
  description:
    'the VAT return figure its lines report under, e.g. "302" (its figure for the rates to 2023; lines from 2024-01-01 report under the next, 303), "400", "405", "220"',
} as const;

const taxCodeWriteFields = {
  description: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
  accno: {
    ...accountNumberSchema,
    description: 'its tax account (link AR_tax for output and zero, AP_tax for input; one code per account)',
  },
  kind: { type: 'string', enum: TAX_KINDS, description: 'output, input, acquisition or zero (zero-rated)' },
  figure,
  rates: {
    type: 'array',
    minItems: 1,
    maxItems: 50,
    items: ratePeriod,
    description: 'the rate history: periods that do not overlap (400 otherwise)',
  },
} as const;

/** `POST /system/taxes`. */
export const taxCodeCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'description', 'accno', 'kind', 'figure', 'rates'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 30, pattern: '^[A-Za-z0-9_.-]+$' },
    ...taxCodeWriteFields,
  },
} as const;

/**
 * `POST /system/taxes/{code}`: the fields sent change. `rates` replaces the history, and every
 * period already used by a posted line must stay as it is (409 otherwise): a new rate from a
 * date is a new period, what was posted keeps its rate.
 */
export const taxCodeUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: taxCodeWriteFields,
} as const;

/** A tax code as read: today's rate period beside the whole history. */
export const taxCodeSchema = {
  type: 'object',
  required: ['code', 'description', 'accno', 'kind', 'figure', 'rate', 'valid_from', 'valid_to', 'rates'],
  properties: {
    code: { type: 'string' },
    description: { type: 'string' },
    accno: { type: 'string', description: 'number of the tax account (use it as `taxAccount` on lines)' },
    kind: { type: 'string', enum: TAX_KINDS },
    figure: { type: 'string' },
    rate: { type: 'number', description: 'the current rate (the latest period that has begun; else the first)' },
    valid_from: dateSchema,
    valid_to: { type: ['string', 'null'], format: 'date' },
    rates: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rate', 'valid_from', 'valid_to', 'description'],
        properties: {
          rate: { type: 'number' },
          valid_from: dateSchema,
          valid_to: { type: ['string', 'null'], format: 'date' },
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

export const VAT_METHODS = ['effective', 'net_tax', 'none'] as const;
export const VAT_BASES = ['agreed', 'received'] as const;
export const VAT_PERIODS = ['month', 'quarter', 'half_year', 'year'] as const;

export const netTaxRateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rate', 'description'],
  properties: {
    rate: { ...rateValue, description: 'approved net tax rate as a fraction: 0.062 is 6.2 %' },
    description: { type: 'string', minLength: 1, maxLength: 200 },
    activity_code: { type: 'string', minLength: 1, maxLength: 20, description: "the ESTV's activity number" },
    accounts: {
      type: 'array',
      maxItems: 100,
      items: accountNumberSchema,
      description: 'revenue accounts whose lines fall under this rate (the second rate; unlisted lines: the first)',
    },
  },
} as const;

export const vatReturnCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: {
    from: { ...dateSchema, description: "first day of one of the company's VAT periods (vat_period)" },
    to: { ...dateSchema, description: 'last day of that period' },
    type: {
      type: 'string',
      enum: ['original', 'correction'],
      description: 'original (default), or a correction: the differences against the original of the period',
    },
  },
} as const;

export const vatReturnListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...pageQueryProperties },
} as const;

export const vatReturnSchema = {
  type: 'object',
  required: [
    'id',
    'from',
    'to',
    'type',
    'method',
    'basis',
    'status',
    'currency',
    'figures',
    'payable',
    'settlement_id',
    'created_at',
  ],
  properties: {
    id: idSchema,
    from: dateSchema,
    to: dateSchema,
    type: { type: 'string', enum: ['original', 'correction'] },
    method: { type: 'string', enum: ['effective', 'net_tax'] },
    basis: { type: 'string', enum: VAT_BASES },
    status: { type: 'string', enum: ['draft', 'settled'] },
    currency: { type: 'string' },
    figures: {
      type: 'object',
      additionalProperties: { type: 'number' },
      description:
        'the form figures, frozen when the return was prepared (numbers with 2 decimals, keys as strings; a rate ' +
        'figure\'s tax under "<figure>_tax"), docs/vat.md',
    },
    payable: {
      type: 'number',
      description: 'tax payable to the ESTV (negative: a credit in favour of the company)',
    },
    settlement_id: { type: ['integer', 'null'], description: 'the settling journal entry (GET /gl/transactions/{id})' },
    created_at: { type: 'string', format: 'date-time' },
    figure_lines: {
      type: 'object',
      description: 'with ?figure=: the lines behind that figure, as GET …/figures/{figure} answers them',
    },
  },
} as const;

export const vatFigureLinesSchema = {
  type: 'object',
  required: ['figure', 'total', 'lines'],
  properties: {
    figure: { type: 'string' },
    total: { type: 'number', description: 'the figure as on the return; the lines sum to it' },
    column: { type: 'string', enum: ['base', 'tax'], description: 'which column of the lines sums to the total' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'id', 'number', 'date', 'base', 'tax'],
        properties: {
          kind: {
            type: 'string',
            description: 'transaction, invoice (AR/AP documents) or journal (journal entries)',
          },
          id: idSchema,
          number: { type: ['string', 'null'] },
          date: dateSchema,
          code: { type: ['string', 'null'], description: 'the tax code (null: a line without one)' },
          base: { type: 'number' },
          tax: { type: 'number' },
        },
      },
    },
  },
} as const;

/** `GET /reports/vat/returns/{id}?figure=302`: the return with one figure's lines (what the MCP tool reads). */
export const vatReturnQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    figure: {
      type: 'string',
      pattern: '^[0-9]{3}(_tax)?$',
      description: 'a figure of the return ("303", "303_tax", "399"): its lines are answered in figure_lines',
    },
  },
} as const;

export const vatSettleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: { ...dateSchema, description: "the settlement's date; default the period's last day (not before it)" },
  },
} as const;

export const vatSettledSchema = {
  type: 'object',
  required: ['settlement_id', 'payable', 'amount', 'currency', 'reference', 'date'],
  properties: {
    settlement_id: { type: 'integer', description: 'the journal entry that cleared the tax accounts' },
    payable: { type: 'number', description: 'tax payable to the ESTV (negative: a credit)' },
    amount: { type: 'number', description: 'the amount payable (or the credit), shown when a person confirms' },
    currency: { type: 'string' },
    reference: { type: 'string', description: "the settling entry's reference" },
    date: dateSchema,
  },
} as const;
