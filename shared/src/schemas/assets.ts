import type { FromSchema } from 'json-schema-to-ts';
import { accountNumberSchema, dateSchema, idSchema } from './common.ts';
import { MAX_AMOUNT } from './transaction.ts';

/**
 * Fixed assets (`/assets`, docs/year-end.md "Fixed assets"): the register, depreciation runs,
 * disposal and the asset schedule. Rules a schema cannot express (accounts of the right
 * category, a life for linear and a rate for declining, residual below cost, open periods)
 * are checked by the ledger.
 */

const money = (description: string) =>
  ({ type: 'number', minimum: 0, maximum: MAX_AMOUNT, description: `${description}, base currency` }) as const;

export const ASSET_METHODS = ['linear', 'declining'] as const;
export const ASSET_FREQUENCIES = ['month', 'quarter', 'year'] as const;

const assetFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  asset_account: { ...accountNumberSchema, description: 'the balance-sheet account holding the asset (category A)' },
  expense_account: { ...accountNumberSchema, description: 'the depreciation expense account (category E)' },
  accumulated_account: {
    ...accountNumberSchema,
    description:
      'accumulated depreciation (category A, a contra account); omitted: depreciated directly on asset_account',
  },
  acquired: { ...dateSchema, description: 'acquisition date: depreciation starts with its month' },
  cost: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: 'acquisition cost, base currency; more than 0',
  },
  residual: money('residual value the asset is not depreciated below; default 0'),
  method: {
    type: 'string',
    enum: ASSET_METHODS,
    description: 'linear: (cost − residual) over life_months; declining: rate × book value per year',
  },
  life_months: { type: 'integer', minimum: 1, maximum: 1200, description: 'useful life (linear)' },
  rate: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'yearly rate of the declining method, e.g. 0.4 for 40 %',
  },
  frequency: {
    type: 'string',
    enum: ASSET_FREQUENCIES,
    description: "how often depreciation is booked: each calendar month, or the company's fiscal quarter or year",
  },
} as const;

export const assetCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'asset_account', 'expense_account', 'acquired', 'cost', 'method', 'frequency'],
  properties: assetFields,
} as const;

/** Only the name changes once depreciation is booked; every field before. */
export const assetUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: assetFields,
} as const;

export const assetReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    ...assetFields,
    accumulated_account: { type: ['string', 'null'] },
    life_months: { type: ['integer', 'null'] },
    rate: { type: ['number', 'null'] },
    depreciated: { type: 'number', description: 'depreciation booked so far (posted runs)' },
    book_value: { type: 'number', description: 'cost − depreciated (0 after disposal)' },
    depreciated_to: { type: ['string', 'null'], description: 'the date of the last run that booked for it' },
    disposed: { type: ['string', 'null'], description: 'disposal date' },
    disposal_journal_id: { type: ['integer', 'null'] },
  },
} as const;

export const depreciationRunSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['to'],
  properties: {
    to: {
      ...dateSchema,
      description: 'depreciate every asset for the periods ending on or before this date; the entry is dated on it',
    },
  },
} as const;

export const depreciationRunResultSchema = {
  type: 'object',
  required: ['journal_id', 'assets'],
  properties: {
    journal_id: { type: ['integer', 'null'], description: 'the journal entry posted; null when nothing was due' },
    assets: {
      type: 'array',
      items: { type: 'object', properties: { id: idSchema, amount: { type: 'number' } } },
    },
  },
} as const;

export const assetDisposalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'proceeds', 'account'],
  properties: {
    date: { ...dateSchema, description: 'disposal date; the entry is dated on it' },
    proceeds: money('what the sale brought (0: scrapped)'),
    account: { ...accountNumberSchema, description: 'the account receiving the proceeds (bank, receivable)' },
    result_account: {
      ...accountNumberSchema,
      description: "where the gain or loss goes; default the asset's expense account",
    },
  },
} as const;

export const assetDisposalResultSchema = {
  type: 'object',
  properties: {
    journal_id: idSchema,
    book_value: { type: 'number' },
    proceeds: { type: 'number' },
    gain: { type: 'number', description: 'proceeds − book value; negative: a loss' },
  },
} as const;

export const assetScheduleQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { ...dateSchema, description: 'first day; default 1 January of the year of `to`' },
    to: { ...dateSchema, description: 'last day; default today' },
  },
} as const;

const scheduleFigures = {
  opening: { type: 'number', description: 'book value at the start of `from`' },
  additions: { type: 'number', description: 'cost of assets acquired in the period' },
  depreciation: { type: 'number', description: 'depreciation posted in the period' },
  disposals: { type: 'number', description: 'book value of assets disposed of in the period' },
  closing: { type: 'number', description: 'opening + additions − depreciation − disposals' },
} as const;

export const assetScheduleSchema = {
  type: 'object',
  required: ['from', 'to', 'currency', 'assets', 'totals', 'accounts'],
  properties: {
    from: dateSchema,
    to: dateSchema,
    currency: { type: 'string' },
    assets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: idSchema, name: { type: 'string' }, asset_account: { type: 'string' }, ...scheduleFigures },
      },
    },
    totals: { type: 'object', properties: scheduleFigures },
    accounts: {
      type: 'array',
      description:
        'the tie-out per asset account: the closing book values of its assets and the ledger balance of the account ' +
        'with its accumulated-depreciation accounts at `to`',
      items: {
        type: 'object',
        properties: {
          account: { type: 'string' },
          schedule: { type: 'number' },
          ledger: { type: 'number' },
          difference: { type: 'number' },
        },
      },
    },
  },
} as const;

export type AssetCreateInput = FromSchema<typeof assetCreateSchema>;
export type AssetUpdateInput = FromSchema<typeof assetUpdateSchema>;
export type AssetDisposalInput = FromSchema<typeof assetDisposalSchema>;
