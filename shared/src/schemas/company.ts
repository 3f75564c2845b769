/**
 * The company's own settings (`/system/company`) and its bank accounts (`/bank/accounts`).
 * Field lengths of the address follow the Swiss QR-bill (creditor: street 70, house number
 * 16, postal code 16, town 35), so whatever is stored fits the payment slip.
 */
import { accountNumberSchema, currencySchema, dateSchema, idSchema, languageSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import { netTaxRateSchema, VAT_BASES, VAT_METHODS, VAT_PERIODS } from './vat.ts';

/** The same field schema, also accepting null (an update sends null to clear a field). */
function nullable<const S extends { type: string }>(s: S) {
  return { ...s, type: [s.type, 'null'] } as Omit<S, 'type'> & { readonly type: readonly [S['type'], 'null'] };
}

const bookAccount = (what: string) =>
  ({ ...accountNumberSchema, description: `${what}: account number of the chart of accounts` }) as const;

const companyName = {
  type: 'string',
  minLength: 1,
  maxLength: 70,
  pattern: '\\S',
  description: 'legal name, as on invoices and the payment slip',
} as const;

/** Optional fields of the company: null when not set; an update sends null to clear one. */
const companyOptionalFields = {
  street: nullable({ type: 'string', minLength: 1, maxLength: 70, description: 'street name' } as const),
  house_number: nullable({ type: 'string', minLength: 1, maxLength: 16 } as const),
  zip: nullable({ type: 'string', minLength: 1, maxLength: 16, description: 'postal code' } as const),
  city: nullable({ type: 'string', minLength: 1, maxLength: 35 } as const),
  country: nullable({
    type: 'string',
    pattern: '^[A-Z]{2}$',
    format: 'iso-country',
    description: 'ISO 3166-1 alpha-2, upper case',
  } as const),
  vat_number: nullable({
    type: 'string',
    minLength: 1,
    maxLength: 50,
    description:
      'VAT number; for a company in CH the Swiss UID with its suffix, "CHE-123.456.789 MWST" (or TVA, IVA), check digit verified and stored in that form',
  } as const),
  email: nullable({
    type: 'string',
    format: 'email',
    maxLength: 254,
    description: 'sender and reply address of invoices',
  } as const),
  invoice_bank_account_id: nullable({
    ...idSchema,
    description: 'the company bank account (GET /bank/accounts) printed on invoices and their QR-bill',
  } as const),
  fx_gain_loss_account: nullable(bookAccount('exchange rate differences (gain or loss), an income or expense account')),
  reminder_fee_account: nullable(
    bookAccount('reminder fees, a revenue account usable on customer lines (link AR_amount)'),
  ),
  vat_payable_account: nullable(
    bookAccount('the ESTV clearing account a VAT return is settled to; a balance-sheet account without tax links'),
  ),
  net_tax_difference_account: nullable(
    bookAccount('net-tax-rate method: the difference between tax invoiced and tax owed; an income or expense account'),
  ),
} as const;

/** How the company accounts for VAT (docs/vat.md "Company settings"). */
const companyVatSettings = {
  vat_method: {
    type: 'string',
    enum: VAT_METHODS,
    description: 'effective (default), net_tax (Saldosteuersatz) or none (not registered)',
  },
  vat_basis: {
    type: 'string',
    enum: VAT_BASES,
    description: 'agreed (default: turnover and input tax by the invoice date) or received considerations',
  },
  vat_period: {
    type: 'string',
    enum: VAT_PERIODS,
    description: 'the period of a return: month, quarter (default), half_year (net tax method) or year',
  },
  net_tax_rates: {
    type: 'array',
    maxItems: 2,
    items: netTaxRateSchema,
    description: 'net_tax: the approved net tax rates (at most two); docs/vat.md says which lines fall under which',
  },
} as const;

/** Accounts the books cannot do without: they can be changed, never cleared. */
const companyRequiredAccounts = {
  rounding_account: bookAccount('rounding differences of foreign-currency postings'),
  retained_earnings_account: bookAccount('retained earnings, where closing a year books its result; an equity account'),
} as const;

/** A dunning level's text in each language (printed on its reminder). */
const dunningText = { type: 'string', minLength: 1, maxLength: 1000 } as const;

/** The company's dunning levels (docs/invoices.md "Dunning runs"): 1–3, each later than the one before. */
export const dunningSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['levels'],
  properties: {
    levels: {
      type: 'array',
      maxItems: 3,
      description: 'level 1, 2, 3 in order; empty: no dunning runs',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['days', 'fee', 'text'],
        properties: {
          days: { type: 'integer', minimum: 0, maximum: 365, description: 'days after the due date' },
          fee: { type: 'number', minimum: 0, maximum: 1000, description: 'fee of the level, base currency' },
          text: {
            type: 'object',
            additionalProperties: false,
            required: ['de', 'fr', 'it', 'en'],
            properties: { de: dunningText, fr: dunningText, it: dunningText, en: dunningText },
          },
        },
      },
    },
  },
} as const;

const companyDunning = {
  dunning: { ...dunningSettingsSchema, description: 'the dunning levels of dunning runs (POST /arap/dunning/run)' },
} as const;

/** The company's language: its documents' and e-mails' language for parties without one of their own. */
const companyLanguage = {
  language: {
    ...languageSchema,
    description: 'the language of documents and e-mails to parties without a language of their own (default de)',
  },
} as const;

/** The shape of the company's fiscal years (docs/year-end.md "Fiscal years"). */
const companyFiscalYear = {
  fiscal_year_start: {
    type: 'string',
    pattern: '^(0[1-9]|1[0-2])-01$',
    description: 'MM-01: the first day of every fiscal year (default 01-01, calendar years; 07-01: July to June)',
  },
  first_fiscal_year_end: nullable({
    ...dateSchema,
    description:
      'the last day of the first fiscal year when it is shorter or longer than 12 months (at most 23, from the first posted line); the day before a fiscal_year_start',
  } as const),
} as const;

/** Settings of the company's AI connections. */
const companyAiSettings = {
  ai_may_post_without_confirmation: {
    type: 'boolean',
    description:
      'AI connections may post, approve, record payments and send e-mails without the connected person confirming each one (default false)',
  },
} as const;

const COMPANY_FIELDS = [
  'name',
  'street',
  'house_number',
  'zip',
  'city',
  'country',
  'vat_number',
  'email',
  'invoice_bank_account_id',
  'rounding_account',
  'fx_gain_loss_account',
  'retained_earnings_account',
  'reminder_fee_account',
  'vat_payable_account',
  'net_tax_difference_account',
  'vat_method',
  'vat_basis',
  'vat_period',
  'net_tax_rates',
  'ai_may_post_without_confirmation',
  'language',
  'dunning',
  'fiscal_year_start',
  'first_fiscal_year_end',
] as const satisfies readonly (
  | keyof typeof companyVatSettings
  | keyof typeof companyOptionalFields
  | keyof typeof companyRequiredAccounts
  | keyof typeof companyAiSettings
  | keyof typeof companyLanguage
  | keyof typeof companyDunning
  | keyof typeof companyFiscalYear
  | 'name'
)[];

/**
 * `POST /system/company`: only the fields sent change (at least one); null clears an
 * optional field. Sending back the whole read shape is a valid update too.
 */
export const companyUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: companyName,
    ...companyOptionalFields,
    ...companyRequiredAccounts,
    ...companyVatSettings,
    ...companyAiSettings,
    ...companyLanguage,
    ...companyDunning,
    ...companyFiscalYear,
  },
} as const;

/** `GET /system/company` (and the answer of the update): every field present, null when not set. */
export const companySchema = {
  type: 'object',
  additionalProperties: false,
  required: [...COMPANY_FIELDS],
  properties: {
    name: companyName,
    ...companyOptionalFields,
    rounding_account: nullable(companyRequiredAccounts.rounding_account),
    retained_earnings_account: nullable(companyRequiredAccounts.retained_earnings_account),
    ...companyVatSettings,
    ...companyAiSettings,
    ...companyLanguage,
    ...companyDunning,
    ...companyFiscalYear,
  },
} as const;

// --- bank accounts -------------------------------------------------------------------

const bankAccountFields = {
  name: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    description: 'name shown to people, e.g. "UBS current account"',
  },
  iban: {
    type: 'string',
    minLength: 5,
    maxLength: 50,
    description: 'IBAN (spaces allowed; stored without them), mod-97 checked; not a QR-IBAN',
  },
  qr_iban: nullable({
    type: 'string',
    minLength: 5,
    maxLength: 50,
    description:
      'QR-IBAN of the same account (CH/LI, bank id 30000–31999), used with QR references on the QR-bill; only for CHF and EUR accounts',
  } as const),
  bic: nullable({ type: 'string', minLength: 8, maxLength: 14, description: 'BIC (8 or 11 characters)' } as const),
  currency: { ...currencySchema, description: 'currency of the account, ISO 4217' },
  account: {
    ...accountNumberSchema,
    description: 'the chart account booking this bank account (link AR_paid or AP_paid)',
  },
} as const;

const BANK_ACCOUNT_FIELDS = [
  'name',
  'iban',
  'qr_iban',
  'bic',
  'currency',
  'account',
] as const satisfies readonly (keyof typeof bankAccountFields)[];

export const bankAccountCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'iban', 'currency', 'account'],
  properties: bankAccountFields,
} as const;

/** `POST /bank/accounts/{id}`: only the fields sent change; null clears `qr_iban` or `bic`. */
export const bankAccountUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...bankAccountFields,
    id: { ...idSchema, description: 'ignored when it is the id of the path (so a read can be sent back)' },
  },
} as const;

export const bankAccountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', ...BANK_ACCOUNT_FIELDS],
  properties: { id: idSchema, ...bankAccountFields },
} as const;

export const BANK_ACCOUNT_SORT_KEYS = ['name', 'id'] as const;

export const bankAccountListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    sort: sortSchema(BANK_ACCOUNT_SORT_KEYS, 'id', 'name (case-insensitive, then id) or id'),
    ...pageQueryProperties,
  },
} as const;
