/**
 * Schemas of bank automation (docs/bank.md "Bank rules", "Proposals", "Reconciliation"): the
 * company's bank rules, what they would book, the proposals on a bank transaction, and the
 * reconciliation of a bank account with its statement balance.
 */
import { lineDimensionsSchema } from './dimensions.ts';
import { accountNumberSchema, currencySchema, dateSchema, idSchema } from './common.ts';

/** At most this many rules per company: each import checks every unbooked line against all of them. */
export const MAX_BANK_RULES = 500;
/** The largest tolerance a settle rule may give (in percent of the open amount). */
export const MAX_TOLERANCE_PERCENT = 10;

const money = (description: string) => ({ type: 'number', minimum: 0, maximum: 1e12, description }) as const;
const words = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description }) as const;

export const bankRuleConditionsSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'all given conditions must hold; at least one of counterparty, iban, text, amount_min, amount_max. Texts are ' +
    'plain, case-insensitive "contains" (no patterns)',
  properties: {
    direction: { type: 'string', enum: ['in', 'out'], description: 'in: credits (money in), out: debits' },
    bank_account_id: { ...idSchema, description: 'only lines of this company bank account' },
    currency: currencySchema,
    amount_min: money('the amount without sign is at least this'),
    amount_max: money('the amount without sign is at most this'),
    counterparty: words("the counterparty's name contains this"),
    iban: { type: 'string', minLength: 5, maxLength: 42, description: "the counterparty's IBAN (spaces ignored)" },
    text: words('the reference or the remittance text contains this'),
  },
} as const;

export const bankRuleBookActionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'account'],
  properties: {
    kind: { type: 'string', enum: ['book'] },
    account: { ...accountNumberSchema, description: 'the chart account the line is booked to' },
    tax: {
      type: 'string',
      minLength: 1,
      maxLength: 50,
      description:
        "a tax code (GET /system/taxes): the amount is gross, the tax is booked on the code's account; needs party_id",
    },
    description: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: "the booking text (default the line's)",
    },
    party_id: {
      ...idSchema,
      description:
        'a vendor (money out) or customer (money in): the line becomes a posted document of that party, paid at once',
    },
    dimensions: {
      ...lineDimensionsSchema,
      description:
        'dimension code → value code (GET /system/dimensions), e.g. { "cc": "admin" }: the booked line (the account side, not the bank) carries them',
    },
  },
} as const;

export const bankRuleSettleActionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'vc', 'party_id', 'tolerance_percent', 'difference_account'],
  properties: {
    kind: { type: 'string', enum: ['settle'] },
    vc: { type: 'string', enum: ['vendor', 'customer'] },
    party_id: { ...idSchema, description: 'the vendor or customer whose open document the line settles' },
    tolerance_percent: {
      type: 'number',
      minimum: 0,
      maximum: MAX_TOLERANCE_PERCENT,
      description: 'the line may differ from the open amount by up to this percentage of it (0–10)',
    },
    difference_account: {
      ...accountNumberSchema,
      description: 'the chart account the difference is booked to (cash discount, bank fees)',
    },
  },
} as const;

const ruleFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  priority: {
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000,
    description: 'lower first; default after the last rule',
  },
  auto: {
    type: 'boolean',
    description: 'true: books matching lines at import; false (default): only proposes',
  },
  conditions: bankRuleConditionsSchema,
  action: { oneOf: [bankRuleBookActionSchema, bankRuleSettleActionSchema] },
} as const;

export const bankRuleWriteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'conditions', 'action'],
  properties: ruleFields,
} as const;

export const bankRuleSchema = {
  type: 'object',
  required: ['id', 'name', 'priority', 'auto', 'conditions', 'action'],
  properties: { id: idSchema, ...ruleFields },
} as const;

export const bankRuleOrderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BANK_RULES,
      uniqueItems: true,
      items: idSchema,
      description: 'every rule of the company, in the new order (priorities become 10, 20, 30, …)',
    },
  },
} as const;

export const bankRulePreviewSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BANK_RULES,
      uniqueItems: true,
      items: idSchema,
      description: "only these rules (default all), in the company's order",
    },
    bank_account_id: { ...idSchema, description: 'only lines of this bank account' },
  },
} as const;

/** What a rule would book for one line: the booking it makes, in words and numbers. */
export const bankRuleBookingSchema = {
  type: 'object',
  required: ['kind', 'amount'],
  properties: {
    kind: { type: 'string', enum: ['book', 'settle'] },
    amount: { type: 'number', description: "the line's amount without sign" },
    account: { type: 'string', description: 'book: the account booked to' },
    tax: { type: ['string', 'null'], description: 'book: the tax code' },
    party_id: { type: ['integer', 'null'] },
    description: { type: ['string', 'null'] },
    dimensions: {
      type: ['object', 'null'],
      additionalProperties: { type: 'string' },
      description: 'book: the dimensions of the booked line (null: none)',
    },
    document_id: { type: 'integer', description: 'settle: the document settled' },
    document_number: { type: 'string' },
    open: { type: 'number', description: 'settle: its open amount' },
    difference: { type: 'number', description: 'settle: line minus open amount (booked to difference_account)' },
    difference_account: { type: 'string' },
  },
} as const;

export const bankRulePreviewResultSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['transaction_id', 'rule_id', 'booking'],
    properties: {
      transaction_id: idSchema,
      rule_id: idSchema,
      auto: { type: 'boolean' },
      booking: bankRuleBookingSchema,
    },
  },
} as const;

export const bankProposalSchema = {
  type: 'object',
  required: ['kind', 'score', 'why'],
  properties: {
    kind: { type: 'string', enum: ['document', 'rule'] },
    document_id: { type: 'integer' },
    document_number: { type: 'string' },
    vc: { type: 'string', enum: ['vendor', 'customer'] },
    open: { type: 'number' },
    rule_id: { type: 'integer' },
    booking: bankRuleBookingSchema,
    score: { type: 'integer', minimum: 0, maximum: 100, description: 'higher is more likely' },
    why: { type: 'array', items: { type: 'string' }, description: 'the reasons, one per criterion that scored' },
  },
} as const;

export const bankRuleFromTransactionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'default: the counterparty' },
    auto: { type: 'boolean', description: 'default false (the rule proposes)' },
  },
} as const;

export const reconciliationQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: { ...dateSchema, description: "up to this day (default: the last statement's closing date, else today)" },
  },
} as const;

export const reconciliationSchema = {
  type: 'object',
  required: ['date', 'statement_balance', 'ledger_balance', 'difference', 'unbooked', 'unmatched_ledger_lines'],
  properties: {
    date: dateSchema,
    statement_balance: {
      type: ['number', 'null'],
      description: 'the closing balance of the last camt.053 statement up to the date (null: none imported)',
    },
    statement_date: { type: ['string', 'null'], description: 'the date of that balance' },
    ledger_balance: { type: 'number', description: "the bank's chart account up to the date" },
    difference: { type: ['number', 'null'], description: 'statement minus ledger balance' },
    reconciled_to: { type: ['string', 'null'], description: 'the last date reconciled' },
    unbooked: {
      type: 'array',
      description: 'bank lines up to the date not in the books yet',
      items: {
        type: 'object',
        properties: {
          id: idSchema,
          date: dateSchema,
          amount: { type: 'number' },
          counterparty: { type: ['string', 'null'] },
          text: { type: ['string', 'null'] },
        },
      },
    },
    unmatched_ledger_lines: {
      type: 'array',
      description: "ledger lines on the bank's chart account up to the date that no bank line booked",
      items: {
        type: 'object',
        properties: {
          id: idSchema,
          date: dateSchema,
          amount: { type: 'number' },
          journal_id: { type: ['integer', 'null'] },
          payment_id: { type: ['integer', 'null'] },
          transaction_id: { type: ['integer', 'null'] },
        },
      },
    },
  },
} as const;

export const reconcileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'statement_balance'],
  properties: {
    date: dateSchema,
    statement_balance: { type: 'number', description: "the bank statement's balance at the end of that day" },
  },
} as const;

export const unreconcileQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date'],
  properties: {
    date: { ...dateSchema, description: 'undo the reconciliations of this date and later' },
  },
} as const;

export const reconcileResultSchema = {
  type: 'object',
  required: ['date', 'statement_balance', 'ledger_balance', 'reconciled'],
  properties: {
    date: dateSchema,
    statement_balance: { type: 'number' },
    ledger_balance: { type: 'number' },
    reconciled: { type: 'integer', description: 'bank lines marked reconciled by this call' },
  },
} as const;
