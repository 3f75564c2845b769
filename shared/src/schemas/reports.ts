/**
 * Read shapes of the four reports (docs/reports.md). Every amount is a JSON
 * number in the company's base currency, rounded to its minor unit.
 *
 * Signs: account amounts as in the ledger, debit positive and credit negative (a payable,
 * a revenue and share capital are negative). Only the figures named for what they are keep
 * their everyday sign: `net_income` (a profit is positive), `total_liabilities_and_equity`
 * (the right-hand side of the balance sheet, equal to total assets), and the VAT figures
 * (as on the tax form: tax owed and input tax claimed are both positive).
 */
import { currencySchema, dateSchema, languageSchema } from './common.ts';

const amount = { type: 'number', description: 'base currency, ledger sign (debit positive, credit negative)' } as const;
const category = {
  type: 'string',
  enum: ['A', 'L', 'Q', 'I', 'E'],
  description: 'asset, liability, equity, income, expense',
} as const;

export const periodQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: {
      ...dateSchema,
      description: "first day (yyyy-mm-dd); default the first day of the company's fiscal year of `to`",
    },
    to: { ...dateSchema, description: 'last day (yyyy-mm-dd); default today' },
  },
} as const;

/** The language of the accounts' names (and of the layout's items); default: the names as the chart has them. */
const reportLanguage = {
  language: {
    ...languageSchema,
    description:
      "the accounts' names in this language (de, fr, it, en) where the chart has them (the Swiss SME chart: every account the company did not rename); default the chart's own names",
  },
} as const;

/** `layout=or`: the items of the Swiss Code of Obligations (Art. 959a balance sheet, 959b income statement). */
const reportLayout = {
  layout: {
    type: 'string',
    enum: ['or'],
    description:
      'or: besides the accounts, `or` lays the report out as Art. 959a/959b of the Swiss Code of Obligations require, every item in order (docs/year-end.md)',
  },
} as const;

/** The trial balance's and income statement's query: the period, optionally by dimension (docs/year-end.md). */
export const dimensionPeriodQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...periodQuerySchema.properties,
    ...reportLanguage,
    dimension: {
      type: 'string',
      minLength: 1,
      maxLength: 30,
      description:
        'a dimension code (GET /system/dimensions): without `value`, every figure gets one column per value of the ' +
        'dimension plus one for the lines without it (value null); the columns add up to the figure',
    },
    value: {
      type: 'string',
      minLength: 1,
      maxLength: 30,
      description: 'with `dimension`: the report over the lines of this value only',
    },
  },
} as const;

/** What a report by dimension says about it (absent otherwise). */
const dimensionHead = {
  type: 'object',
  required: ['code', 'name'],
  properties: {
    code: { type: 'string' },
    name: { type: 'string' },
    value: { type: 'string', description: 'the value the report is narrowed to (`?value=`)' },
    columns: {
      type: 'array',
      description: 'the columns of every figure, in this order: the values by code, then null (unassigned)',
      items: {
        type: 'object',
        properties: { value: { type: ['string', 'null'] }, name: { type: 'string' } },
      },
    },
  },
} as const;

const columnOf = (properties: Record<string, unknown>, description: string) =>
  ({
    type: 'array',
    description,
    items: { type: 'object', properties: { value: { type: ['string', 'null'] }, ...properties } },
  }) as const;

const tbColumns = columnOf(
  { opening: amount, debit: { type: 'number' }, credit: { type: 'number' }, closing: amount },
  'by dimension: the figures of the lines of each value (null: without the dimension)',
);

/** The income statement's query: the trial balance's, and the layout of the Code of Obligations. */
export const incomeStatementQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...dimensionPeriodQuerySchema.properties, ...reportLayout },
} as const;

export const balanceSheetQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...reportLanguage,
    ...reportLayout,
    date: {
      ...dateSchema,
      description: 'the balance sheet date (yyyy-mm-dd), lines dated on it included; default today',
    },
  },
} as const;

export const trialBalanceSchema = {
  type: 'object',
  required: ['from', 'to', 'currency', 'accounts', 'totals'],
  properties: {
    from: dateSchema,
    to: dateSchema,
    currency: currencySchema,
    accounts: {
      type: 'array',
      description: 'every account with a posted line up to `to`, by account number',
      items: {
        type: 'object',
        required: ['accno', 'description', 'category', 'opening', 'debit', 'credit', 'closing'],
        properties: {
          accno: { type: 'string' },
          description: { type: 'string' },
          category,
          opening: { ...amount, description: 'balance before `from`' },
          debit: { type: 'number', description: 'sum of the debit lines from `from` to `to` (≥ 0)' },
          credit: { type: 'number', description: 'sum of the credit lines from `from` to `to` (≤ 0, ledger sign)' },
          closing: { ...amount, description: 'opening + debit + credit: the balance at the end of `to`' },
          columns: tbColumns,
        },
      },
    },
    totals: {
      type: 'object',
      description: 'column sums: opening and closing are 0, debit = −credit',
      required: ['opening', 'debit', 'credit', 'closing'],
      properties: {
        opening: amount,
        debit: { type: 'number' },
        credit: { type: 'number' },
        closing: amount,
        columns: tbColumns,
      },
    },
    dimension: dimensionHead,
  },
} as const;

const accountAmounts = {
  type: 'array',
  items: {
    type: 'object',
    required: ['accno', 'description', 'amount'],
    properties: {
      accno: { type: 'string' },
      description: { type: 'string' },
      amount,
      columns: columnOf({ amount }, 'by dimension: the amount of each value (null: without the dimension)'),
    },
  },
} as const;

const section = (description: string) =>
  ({
    type: 'object',
    description,
    required: ['accounts', 'total'],
    properties: {
      accounts: accountAmounts,
      total: amount,
      columns: columnOf({ total: amount }, 'by dimension: the total of each value'),
    },
  }) as const;

/** An item of the law's layout: its number, its label in the report's language, its amount and its accounts. */
const orItem = {
  type: 'object',
  required: ['key', 'number', 'label', 'amount', 'accounts'],
  properties: {
    key: { type: 'string', description: 'the item, e.g. trade_receivables, net_revenue' },
    number: { type: 'string', description: "the law's numbering, e.g. 1.b" },
    label: { type: 'string' },
    amount: { type: 'number', description: 'everyday sign: assets, liabilities, equity, revenue positive' },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['accno', 'description', 'amount'],
        properties: { accno: { type: 'string' }, description: { type: 'string' }, amount: { type: 'number' } },
      },
    },
  },
} as const;

const orSide = {
  type: 'object',
  required: ['label', 'groups', 'total'],
  properties: {
    label: { type: 'string' },
    total: { type: 'number' },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'number', 'label', 'total', 'items'],
        properties: {
          key: { type: 'string' },
          number: { type: 'string' },
          label: { type: 'string' },
          total: { type: 'number' },
          items: { type: 'array', items: orItem },
        },
      },
    },
  },
} as const;

export const incomeStatementSchema = {
  type: 'object',
  required: ['from', 'to', 'currency', 'income', 'expenses', 'net_income'],
  properties: {
    from: dateSchema,
    to: dateSchema,
    currency: currencySchema,
    income: section(
      'income accounts (category I), their movement in the period without closing entries; revenue is negative',
    ),
    expenses: section('expense accounts (category E), their movement in the period without closing entries'),
    net_income: { type: 'number', description: 'the result: −(income.total + expenses.total); a profit is positive' },
    dimension: dimensionHead,
    columns: columnOf({ net_income: { type: 'number' } }, 'by dimension: the net income of each value'),
    or: {
      type: 'object',
      description:
        '`layout=or`: the items of Art. 959b CO (1 net revenue … 10 direct taxes, 11 the result) in order; revenue positive, expenses negative',
      required: ['language', 'items'],
      properties: { language: languageSchema, items: { type: 'array', items: orItem } },
    },
  },
} as const;

export const balanceSheetSchema = {
  type: 'object',
  required: [
    'date',
    'currency',
    'fiscal_year_start',
    'assets',
    'liabilities',
    'equity',
    'total_assets',
    'total_liabilities_and_equity',
  ],
  properties: {
    date: dateSchema,
    currency: currencySchema,
    fiscal_year_start: { ...dateSchema, description: "first day of the company's fiscal year of `date`" },
    assets: section('asset accounts (category A), balance at the end of `date`'),
    liabilities: section('liability accounts (category L), negative'),
    equity: {
      type: 'object',
      description: 'equity accounts (category Q) and the results not yet closed to them',
      required: ['accounts', 'current_year_result', 'earlier_years_result', 'total'],
      properties: {
        accounts: accountAmounts,
        current_year_result: {
          ...amount,
          description: 'income and expense lines from fiscal_year_start to `date` (ledger sign: a profit is negative)',
        },
        earlier_years_result: {
          ...amount,
          description:
            'income and expense lines of earlier years whose closing entry is not booked (0 when all are closed)',
        },
        total: amount,
      },
    },
    total_assets: { type: 'number', description: 'assets.total' },
    total_liabilities_and_equity: {
      type: 'number',
      description: '−(liabilities.total + equity.total): the right-hand side as printed; always equal to total_assets',
    },
    or: {
      type: 'object',
      description:
        '`layout=or`: the items of Art. 959a CO in order, assets and liabilities and equity both positive; the results not yet closed in equity 3.f and 3.g',
      required: ['language', 'assets', 'liabilities_and_equity'],
      properties: { language: languageSchema, assets: orSide, liabilities_and_equity: orSide },
    },
  },
} as const;

const baseAndTax = {
  type: 'object',
  required: ['base', 'tax'],
  properties: { base: { type: 'number', description: 'taxable amount (net)' }, tax: { type: 'number' } },
} as const;

export const vatReportSchema = {
  type: 'object',
  required: ['from', 'to', 'currency', 'codes', 'output', 'input', 'net_due', 'other_movements', 'swiss_vat_return'],
  properties: {
    from: dateSchema,
    to: dateSchema,
    currency: currencySchema,
    codes: {
      type: 'array',
      description:
        'per tax code and rate, from the posted AR/AP documents dated in the period; output before input, then by code and rate',
      items: {
        type: 'object',
        required: ['code', 'description', 'account', 'rate', 'side', 'base', 'tax'],
        properties: {
          code: {
            type: ['string', 'null'],
            description: 'the tax code (null when the tax account has no tax code at that rate)',
          },
          description: { type: ['string', 'null'] },
          account: { type: 'string', description: 'the tax account number' },
          rate: { type: ['number', 'null'], description: 'rate as a fraction (0.081)' },
          side: {
            type: 'string',
            enum: ['output', 'input'],
            description: 'output: sales (customer documents); input: purchases (vendor documents)',
          },
          base: {
            type: 'number',
            description: 'taxable amount (net), positive for sales and purchases, negative for their reversals',
          },
          tax: { type: 'number', description: 'tax, same sign as base' },
        },
      },
    },
    output: { ...baseAndTax, description: 'output tax (sales), summed over the codes' },
    input: { ...baseAndTax, description: 'input tax (purchases), summed over the codes' },
    net_due: { type: 'number', description: 'output.tax − input.tax: payable when positive, a credit when negative' },
    other_movements: {
      type: 'array',
      description:
        'movements of the tax accounts in the period that come from no AR/AP document (journal entries: VAT settlements, corrections); not part of net_due',
      items: {
        type: 'object',
        required: ['account', 'description', 'amount'],
        properties: { account: { type: 'string' }, description: { type: 'string' }, amount },
      },
    },
    swiss_vat_return: {
      description:
        'figures of the Swiss VAT return, effective method (CHF companies; null otherwise); see docs/reports.md for the mapping',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['200', '289', '299', '302', '312', '342', '382', '399', '400', '405', '479', '500', '510'],
          properties: {
            '200': { type: 'number', description: 'total agreed consideration (all sales, net)' },
            '289': {
              type: 'number',
              description: 'deductions: sales without tax code (exports, supplies abroad, exempt supplies)',
            },
            '299': { type: 'number', description: 'taxable turnover: 200 − 289' },
            '302': { ...baseAndTax, description: 'standard rate 8.1 %' },
            '312': { ...baseAndTax, description: 'reduced rate 2.6 %' },
            '342': { ...baseAndTax, description: 'accommodation rate 3.8 %' },
            '382': { ...baseAndTax, description: 'any other rate (e.g. the rates before 2024)' },
            '399': { type: 'number', description: 'total tax: 302 + 312 + 342 + 382' },
            '400': { type: 'number', description: 'input tax on material and services (lines on accounts of class 4)' },
            '405': {
              type: 'number',
              description: 'input tax on investments and other operating costs (every other line)',
            },
            '479': { type: 'number', description: 'total input tax: 400 + 405' },
            '500': { type: 'number', description: 'amount payable: 399 − 479 when positive, else 0' },
            '510': {
              type: 'number',
              description: 'credit in favour of the taxable person: 479 − 399 when positive, else 0',
            },
          },
        },
      ],
    },
  },
} as const;
