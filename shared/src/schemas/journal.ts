import type { FromSchema } from 'json-schema-to-ts';
import { lineDimensionsReadSchema, lineDimensionsSchema } from './dimensions.ts';
import { accountNumberSchema, currencySchema, dateSchema, documentNumberSchema, idSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import { attachedFilesSchema, MAX_AMOUNT, transactionFileSchema } from './transaction.ts';

/**
 * Journal entries (`/gl/transactions`, docs/journal.md), the general ledger of one account
 * (`/gl/ledger`) and fiscal years (`/system/fiscal_years`, §5.4). A journal entry is booked
 * exactly as sent: each line has a debit or a credit, and the debits equal the credits.
 * Rules a schema cannot express (known accounts, no AR/AP control accounts, decimals per
 * currency, the balance) are checked by the ledger (docs/journal.md).
 */

const lineAmount = (side: 'debit' | 'credit') =>
  ({
    type: 'number',
    minimum: 0,
    maximum: MAX_AMOUNT,
    description: `${side} in the entry's currency; each line has exactly one of debit / credit above 0 (the other omitted or 0)`,
  }) as const;

export const journalLineSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account'],
  properties: {
    account: {
      ...accountNumberSchema,
      description: 'account number; not an AR/AP control account (use AR/AP documents for those)',
    },
    debit: lineAmount('debit'),
    credit: lineAmount('credit'),
    description: { type: 'string', maxLength: 1000 },
    dimensions: lineDimensionsSchema,
  },
} as const;

export const journalEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['transdate', 'lines'],
  properties: {
    reference: documentNumberSchema("the entry's number; from the company's GL sequence (GL-000001) when omitted"),
    transdate: { ...dateSchema, description: 'booking date; must lie after the books-closed date' },
    description: { type: 'string', maxLength: 2000 },
    curr: { ...currencySchema, description: 'currency of the amounts; default the company base currency' },
    exchangerate: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description:
        'rate against the base currency; required for a foreign currency, 1 (or omitted) for the base currency',
    },
    pending: {
      type: ['string', 'integer'],
      enum: ['0', 0],
      description: 'omitted: draft (not in the books); "0" (or the number 0): post immediately',
    },
    lines: { type: 'array', minItems: 2, maxItems: 500, items: journalLineSchema },
    files: { type: 'array', maxItems: 20, items: transactionFileSchema },
  },
} as const;

export type JournalEntryInput = FromSchema<typeof journalEntrySchema>;
export type JournalLineInput = FromSchema<typeof journalLineSchema>;

export const JOURNAL_STATUSES = ['draft', 'posted', 'reversed'] as const;
export const JOURNAL_SORT_KEYS = ['transdate', 'reference', 'id'] as const;

export const journalListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: { ...dateSchema, description: 'transdate on or after' },
    to: { ...dateSchema, description: 'transdate on or before' },
    reference: { type: 'string', maxLength: 100, description: 'exact reference' },
    status: { type: 'string', enum: JOURNAL_STATUSES },
    sort: sortSchema(JOURNAL_SORT_KEYS, 'transdate', 'transdate (then id), reference or id'),
    ...pageQueryProperties,
  },
} as const;

const journalHeaderProperties = {
  id: idSchema,
  reference: { type: 'string' },
  transdate: dateSchema,
  description: { type: 'string' },
  currency: currencySchema,
  exchangerate: { type: 'number' },
  status: {
    type: 'string',
    enum: JOURNAL_STATUSES,
    description: 'draft: not in the books; posted; reversed: posted and cancelled by reversedBy',
  },
  closing: {
    type: 'boolean',
    description: 'true for the closing entry of a fiscal year (and its reversal when the year was reopened)',
  },
  fiscalYear: { type: 'integer', description: 'closing entries: the fiscal year they close' },
  reversalOf: idSchema,
  reversedBy: idSchema,
  totalDebit: { type: 'number', description: "sum of the debits in the entry's currency (= sum of the credits)" },
  baseTotalDebit: { type: 'number', description: 'sum of the debits in the base currency (= sum of the credits)' },
  created_at: { type: 'string', format: 'date-time' },
  posted_at: { type: 'string', format: 'date-time' },
} as const;

/** GET /gl/transactions/{id}: the entry as written, with base-currency amounts and files. */
export const journalReadSchema = {
  type: 'object',
  required: ['id', 'reference', 'transdate', 'currency', 'exchangerate', 'status', 'closing', 'lines', 'files'],
  properties: {
    ...journalHeaderProperties,
    lines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['account', 'debit', 'credit', 'baseDebit', 'baseCredit'],
        properties: {
          account: { type: 'string' },
          accountDescription: { type: 'string' },
          description: { type: 'string' },
          debit: { type: 'number', description: "in the entry's currency; 0 on a credit line" },
          credit: { type: 'number', description: "in the entry's currency; 0 on a debit line" },
          baseDebit: {
            type: 'number',
            description: 'in the base currency: round(debit × exchangerate), see docs/journal.md for the rounding',
          },
          baseCredit: { type: 'number', description: 'in the base currency' },
          dimensions: lineDimensionsReadSchema,
        },
      },
    },
    files: attachedFilesSchema,
  },
} as const;

/** A row of GET /gl/transactions: the header and its totals (GET /gl/transactions/{id} has the lines). */
export const journalListRowSchema = {
  type: 'object',
  required: ['id', 'reference', 'transdate', 'currency', 'status', 'closing'],
  properties: journalHeaderProperties,
} as const;

export const journalReverseSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: {
      ...dateSchema,
      description: 'date of the reversing entry; default today; not before the original transdate',
    },
    description: { type: 'string', maxLength: 2000 },
  },
} as const;

// --- the general ledger of one account ---------------------------------------------

/** What a ledger line comes from; the AR/AP names are those of the audit log's entities. */
export const SOURCE_KINDS = [
  'journal_entry',
  'customer_transaction',
  'vendor_transaction',
  'customer_invoice',
  'vendor_invoice',
  'payment',
] as const;

export const ledgerQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account'],
  properties: {
    account: { ...accountNumberSchema, description: 'the account number' },
    from: {
      ...dateSchema,
      description: 'first day (default: the first line); the opening balance is everything before it',
    },
    to: { ...dateSchema, description: 'last day (default: the last line)' },
    ...pageQueryProperties,
  },
} as const;

export const ledgerSchema = {
  type: 'object',
  required: [
    'account',
    'description',
    'category',
    'from',
    'to',
    'opening',
    'debit',
    'credit',
    'closing',
    'page_opening',
    'total',
    'lines',
  ],
  properties: {
    account: { type: 'string' },
    description: { type: 'string' },
    category: { type: 'string', enum: ['A', 'L', 'Q', 'I', 'E'] },
    from: { type: ['string', 'null'], format: 'date' },
    to: { type: ['string', 'null'], format: 'date' },
    opening: {
      type: 'number',
      description: 'balance of all posted lines before `from` (base currency, debit positive)',
    },
    debit: { type: 'number', description: 'sum of the debits from `from` to `to`' },
    credit: { type: 'number', description: 'sum of the credits from `from` to `to` (positive)' },
    closing: { type: 'number', description: 'opening + debit − credit: the balance at the end of `to`' },
    page_opening: { type: 'number', description: "the running balance before this page's first line" },
    total: { type: 'integer', description: 'lines from `from` to `to` on all pages (also X-Total-Count)' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'date', 'debit', 'credit', 'balance', 'currency', 'fx_amount', 'closing', 'source'],
        properties: {
          id: idSchema,
          date: dateSchema,
          description: { type: 'string', description: "the source document's description" },
          debit: { type: 'number', description: 'base currency' },
          credit: { type: 'number', description: 'base currency, positive' },
          balance: { type: 'number', description: 'running balance after this line' },
          currency: currencySchema,
          fx_amount: { type: 'number', description: "signed amount in the document's currency" },
          closing: { type: 'boolean', description: 'part of a fiscal-year closing entry' },
          source: {
            type: 'object',
            required: ['kind', 'id', 'number'],
            properties: {
              kind: { type: 'string', enum: SOURCE_KINDS },
              id: idSchema,
              number: { type: ['string', 'null'], description: "the document's number (invNumber, reference)" },
            },
          },
        },
      },
    },
  },
} as const;

// --- fiscal years --------------------------------------------------------------------

export const fiscalYearSchema = {
  type: 'object',
  required: ['year', 'start', 'end', 'closed'],
  properties: {
    year: { type: 'integer', description: 'the calendar year the fiscal year ends in (July 2025 – June 2026: 2026)' },
    start: dateSchema,
    end: dateSchema,
    closed: {
      type: 'boolean',
      description: 'its income statement was booked to retained earnings (POST /system/fiscal_years/{year}/close)',
    },
    closing_entry_id: { ...idSchema, description: 'the closing journal entry (GET /gl/transactions/{id})' },
  },
} as const;
