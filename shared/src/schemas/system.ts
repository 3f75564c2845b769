import { accountNumberSchema, dateSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';

export const apiKeyCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['label'],
  properties: { label: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const closeBooksSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date'],
  properties: {
    date: { ...dateSchema, description: 'books closed up to and including this date' },
    reopen: { type: 'boolean', description: 'true to move the date back (reopens the days after it); owners only' },
  },
} as const;

/** GET and POST /system/close_books answer the closing date; null while the books were never closed. */
export const closeBooksStateSchema = {
  type: 'object',
  required: ['date'],
  properties: { date: { type: ['string', 'null'], format: 'date', description: 'yyyy-mm-dd; null when never closed' } },
} as const;

const nullableDate = {
  type: ['string', 'null'],
  format: 'date',
  description: 'yyyy-mm-dd, null = open-ended',
} as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

export const taxSchema = {
  type: 'object',
  required: ['code', 'accno', 'rate', 'valid_from', 'valid_to', 'description'],
  properties: {
    code: { type: 'string' },
    accno: { type: 'string', description: 'number of the tax account (use it as `taxAccount` on lines)' },
    rate: { type: 'number', description: 'rate as a fraction: 0.081 is 8.1%' },
    valid_from: dateSchema,
    valid_to: nullableDate,
    description: { type: 'string' },
  },
} as const;

/** SQL-Ledger link attributes an account may carry (docs/rest-api.md "Chart of accounts"). */
export const CHART_LINKS = ['AR', 'AP', 'AR_amount', 'AP_amount', 'AR_tax', 'AP_tax', 'AR_paid', 'AP_paid'] as const;
export type ChartLink = (typeof CHART_LINKS)[number];
export const ACCOUNT_CATEGORIES = ['A', 'L', 'Q', 'I', 'E'] as const;

const accountWriteFields = {
  description: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: "the account's name" },
  category: {
    type: 'string',
    enum: ACCOUNT_CATEGORIES,
    description: 'A asset, L liability, Q equity, I income, E expense',
  },
  links: {
    type: 'array',
    uniqueItems: true,
    maxItems: CHART_LINKS.length,
    items: { type: 'string', enum: CHART_LINKS },
    description:
      'link attributes: AP / AR control (payable, receivable), AP_amount / AR_amount usable on bill / invoice lines, ' +
      'AP_tax / AR_tax tax accounts, AP_paid / AR_paid payment (bank, cash) accounts; none: an account for journal entries only',
  },
} as const;

/** `POST /system/chart/accounts`: a new account; `links` default none. */
export const chartAccountCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['accno', 'description', 'category'],
  properties: {
    accno: { ...accountNumberSchema, description: 'the account number, unique in the chart; cannot change later' },
    ...accountWriteFields,
  },
} as const;

/**
 * `POST /system/chart/accounts/{accno}`: only the fields sent change; `links` replaces the
 * account's links. What would change the meaning of its postings is refused (409) while it
 * has any (docs/rest-api.md "Adding and changing accounts").
 */
export const chartAccountUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: accountWriteFields,
} as const;

export const chartAccountSchema = {
  type: 'object',
  required: ['accno', 'description', 'category', 'link', 'links', 'taxes'],
  properties: {
    accno: { type: 'string' },
    description: { type: 'string' },
    category: { type: 'string', enum: ACCOUNT_CATEGORIES, description: 'asset, liability, equity, income, expense' },
    link: { type: 'string', description: 'SQL-Ledger link attributes, colon separated, e.g. "AR_paid:AP_paid"' },
    links: { type: 'array', items: { type: 'string' }, description: 'the same link attributes as an array' },
    taxes: {
      type: 'array',
      description: 'tax rates booked to this account (tax accounts only)',
      items: {
        type: 'object',
        required: ['code', 'rate', 'valid_from', 'valid_to', 'description'],
        properties: {
          code: { type: 'string' },
          rate: { type: 'number' },
          valid_from: dateSchema,
          valid_to: nullableDate,
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

export const apiKeySchema = {
  type: 'object',
  required: ['id', 'label', 'prefix', 'user', 'created_at', 'last_used_at'],
  properties: {
    id: { type: 'integer' },
    label: { type: 'string' },
    prefix: { type: 'string', description: 'first characters of the key, to recognise it' },
    user: { type: 'string', description: "e-mail of the key's user" },
    created_at: timestamp,
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const apiKeyCreatedSchema = {
  type: 'object',
  required: ['id', 'label', 'prefix', 'created_at', 'key'],
  properties: {
    id: { type: 'integer' },
    label: { type: 'string' },
    prefix: { type: 'string' },
    created_at: timestamp,
    key: { type: 'string', description: 'the API key; shown only in this response' },
  },
} as const;

export const AUDIT_SORT_KEYS = ['at', 'id'] as const;

export const auditQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    entity: { type: 'string', maxLength: 50 },
    entity_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    sort: sortSchema(AUDIT_SORT_KEYS, '-at', 'at (time of the change, then id) or id'),
    ...pageQueryProperties,
  },
} as const;

export const auditEntrySchema = {
  type: 'object',
  required: [
    'id',
    'at',
    'user_id',
    'user_email',
    'via',
    'via_id',
    'via_label',
    'via_text',
    'entity',
    'entity_id',
    'action',
  ],
  properties: {
    id: { type: 'integer' },
    at: timestamp,
    user_id: { type: ['integer', 'null'] },
    user_email: { type: ['string', 'null'] },
    via: { type: 'string', enum: ['api_key', 'cli', 'ai_connection', 'app', 'web', 'system'] },
    via_id: { type: ['string', 'null'], description: 'API key id or AI connection id' },
    via_label: { type: ['string', 'null'], description: 'API key label or AI client name' },
    via_text: { type: 'string', description: 'e.g. "via API key (label)"' },
    entity: { type: 'string' },
    entity_id: { type: ['integer', 'null'], description: 'id of the changed record' },
    action: { type: 'string' },
    details: { description: 'what changed, when recorded' },
  },
} as const;
