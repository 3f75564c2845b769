/**
 * Schemas of the bank endpoints (docs/bank.md): imported bank
 * transactions, the import's answer, booking by hand, payment files.
 */
import { accountNumberSchema, dateSchema, idSchema } from './common.ts';
import { bankProposalSchema } from './bankRules.ts';
import { pageQueryProperties, sortSchema } from './list.ts';

export const BANK_TRANSACTION_STATUSES = ['unmatched', 'matched', 'booked'] as const;
export const STATEMENT_MEDIA_TYPES = ['application/xml', 'text/xml', 'text/csv'] as const;

export const bankTransactionSchema = {
  type: 'object',
  required: ['id', 'account_id', 'date', 'amount', 'currency', 'status'],
  properties: {
    id: idSchema,
    account_id: { ...idSchema, description: 'the company bank account (GET /bank/accounts/{id})' },
    date: { ...dateSchema, description: 'booking date' },
    value_date: { type: ['string', 'null'], format: 'date' },
    amount: {
      type: 'number',
      description: 'signed, in the account currency: credits (money in) positive, debits negative',
    },
    currency: { type: 'string' },
    counterparty: { type: ['string', 'null'], description: 'the payer of a credit, the payee of a debit' },
    iban: { type: ['string', 'null'], description: "the counterparty's IBAN" },
    reference: { type: ['string', 'null'], description: 'QR reference or RF creditor reference, compact' },
    end_to_end_id: { type: ['string', 'null'] },
    text: { type: ['string', 'null'], description: 'remittance text' },
    bank_reference: { type: ['string', 'null'], description: "the bank's reference of the entry (AcctSvcrRef)" },
    reversal: { type: 'boolean', description: 'the entry reverses an earlier one (RvslInd)' },
    source: { type: 'string', enum: ['camt.053', 'camt.054', 'csv'] },
    status: {
      type: 'string',
      enum: BANK_TRANSACTION_STATUSES,
      description:
        'unmatched; matched (booked as a payment by the matching rules at import); booked (by hand: POST …/book)',
    },
    document: {
      type: ['object', 'null'],
      description: 'the AR/AP document the transaction was booked as a payment of',
      properties: { id: idSchema, vc: { type: 'string', enum: ['vendor', 'customer'] }, number: { type: 'string' } },
    },
    payment_id: { type: ['integer', 'null'], description: 'the payment it was booked as (GET /arap/payments/{vc})' },
    account: { type: ['string', 'null'], description: 'booked against this chart account (journal entry journal_id)' },
    journal_id: { type: ['integer', 'null'] },
    rule_id: { type: ['integer', 'null'], description: 'the bank rule that booked it (GET /bank/rules/{id})' },
    reconciled_on: { type: ['string', 'null'], description: 'reconciled with the statement up to this date' },
    proposals: {
      type: 'array',
      items: bankProposalSchema,
      description:
        'an unmatched line: what it could be booked as, best first (book with { proposal: <index> }); empty otherwise',
    },
  },
} as const;

const statementCheckSchema = {
  type: 'object',
  properties: {
    source: { type: 'string', enum: ['camt.053', 'camt.054', 'csv'] },
    statement: { type: ['string', 'null'], description: 'the statement id (Stmt/Id or Ntfctn/Id)' },
    account_id: idSchema,
    entries: { type: 'integer', description: 'bank transactions in the statement (one per detail of a batch entry)' },
    skipped: { type: 'integer', description: 'entries not booked yet (PDNG, INFO): not imported' },
    opening: { type: ['number', 'null'] },
    closing: { type: ['number', 'null'] },
    entries_total: { type: 'number', description: 'sum of the booked entries' },
    balanced: {
      type: ['boolean', 'null'],
      description: 'opening + entries = closing; null without balances (camt.054, CSV)',
    },
    message: { type: ['string', 'null'], description: 'what does not add up' },
  },
} as const;

export const bankImportResultSchema = {
  type: 'object',
  required: ['imported', 'duplicates', 'matched', 'balanced', 'statements'],
  properties: {
    imported: { type: 'integer', description: 'new bank transactions' },
    duplicates: {
      type: 'integer',
      description: 'transactions already imported before (same AcctSvcrRef, else same entry hash)',
    },
    matched: { type: 'integer', description: 'new transactions booked as payments by the matching rules' },
    balanced: {
      type: ['boolean', 'null'],
      description: "false when any statement's balances do not agree with its entries",
    },
    statements: { type: 'array', items: statementCheckSchema },
  },
} as const;

export const bankImportQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account: { ...idSchema, description: 'the bank account, when the file does not name it by IBAN (CSV always)' },
  },
} as const;

export const BANK_TRANSACTION_SORT_KEYS = ['date', 'id'] as const;

export const bankTransactionListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account: { ...idSchema, description: 'only this bank account' },
    from: { ...dateSchema, description: 'booking date on or after' },
    to: { ...dateSchema, description: 'booking date on or before' },
    status: { type: 'string', enum: BANK_TRANSACTION_STATUSES },
    counterparty: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'part of the counterparty name, any case',
    },
    amount: {
      type: 'number',
      minimum: -999_999_999_999,
      maximum: 999_999_999_999,
      description: 'exactly this signed amount',
    },
    sort: sortSchema(BANK_TRANSACTION_SORT_KEYS, 'date', 'date (then id) or id'),
    ...pageQueryProperties,
  },
} as const;

export const bankBookSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    document_id: {
      ...idSchema,
      description: 'book as a payment of this posted AR/AP document (credit: customer side, debit: vendor side)',
    },
    account: {
      ...accountNumberSchema,
      description: 'or: book against this chart account (a posted journal entry: bank account against it)',
    },
    proposal: {
      type: 'integer',
      minimum: 0,
      maximum: 20,
      description:
        "or: accept the proposal at this index of the line's proposals (document_id or rule_id, when sent too, must " +
        'be what it proposes: else 409)',
    },
    rule_id: { ...idSchema, description: 'with proposal: the rule the proposal must be' },
    description: { type: 'string', maxLength: 2000, description: 'memo of the payment or journal entry' },
    exchangerate: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1_000_000,
      description: 'rate to the base currency, for a transaction (and document) in a foreign currency',
    },
  },
} as const;

export const paymentFileCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bank_account_id', 'execution_date'],
  properties: {
    bank_account_id: { ...idSchema, description: 'the company bank account to pay from (GET /bank/accounts)' },
    execution_date: { ...dateSchema, description: 'requested execution date of the payments' },
    document_ids: {
      type: 'array',
      minItems: 1,
      maxItems: 10000,
      uniqueItems: true,
      items: idSchema,
      description:
        'pay these vendor documents; default all posted, open vendor documents with payment_file 1 and a vc_bank_id not in a file yet',
    },
  },
} as const;

export const paymentFileCreatedSchema = {
  type: 'object',
  required: ['id', 'count', 'total'],
  properties: {
    id: idSchema,
    count: { type: 'integer', description: 'payments in the file (one per document)' },
    total: { type: 'number', description: "sum of the payments (the file's CtrlSum, whatever their currencies)" },
  },
} as const;

export const paymentFileSchema = {
  type: 'object',
  required: ['id', 'bank_account_id', 'execution_date', 'message_id', 'count', 'total', 'created_at'],
  properties: {
    id: idSchema,
    bank_account_id: idSchema,
    execution_date: dateSchema,
    message_id: { type: 'string', description: "the file's MsgId" },
    count: { type: 'integer' },
    total: { type: 'number' },
    created_at: { type: 'string', format: 'date-time' },
    payments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          document_id: idSchema,
          number: { type: 'string' },
          end_to_end_id: { type: 'string' },
          amount: { type: 'number' },
          currency: { type: 'string' },
        },
      },
    },
  },
} as const;

export const paymentFileListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    bank_account_id: idSchema,
    sort: sortSchema(['id', 'execution_date'] as const, '-id', 'id or execution_date (then id)'),
    ...pageQueryProperties,
  },
} as const;
