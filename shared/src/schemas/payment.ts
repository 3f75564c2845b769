/**
 * Payments of AR/AP documents and the aging report (docs/payments.md; contracts in
 * contracts/payments.ts, rules in docs/payments.md).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { accountNumberSchema, currencySchema, dateSchema, idSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';

export const paymentCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['document_id', 'date', 'amount', 'account'],
  properties: {
    document_id: {
      ...idSchema,
      description: 'the AR/AP transaction or invoice of this side that is paid (posted, not a reversal)',
    },
    date: {
      ...dateSchema,
      description: 'payment date (the ledger lines are dated it); not before the document date, not in a closed period',
    },
    amount: {
      type: 'number',
      exclusiveMinimum: 0,
      description:
        "amount paid in the document's currency, at most its minor unit's decimals; > 0 and ≤ the open amount (else overpayment)",
    },
    account: {
      ...accountNumberSchema,
      description:
        'the bank or cash account paid from / into (a chart account with link AR_paid for customers, AP_paid for vendors)',
    },
    exchangerate: {
      type: 'number',
      exclusiveMinimum: 0,
      description:
        'base-currency units per document-currency unit on the payment date: required for foreign-currency documents ' +
        '(the difference to the document rate is booked to the FX gain/loss account); absent or 1 for base-currency documents',
    },
    memo: { type: 'string', maxLength: 2000 },
    source: {
      type: 'string',
      maxLength: 200,
      description: 'where the payment comes from, e.g. a bank statement reference',
    },
  },
} as const;
export type PaymentCreateInput = FromSchema<typeof paymentCreateSchema>;

/** A payment as read (list rows and single payments). */
export const paymentReadSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    vc: { type: 'string', enum: ['vendor', 'customer'] },
    document_id: idSchema,
    document_kind: { type: 'string', enum: ['transaction', 'invoice', 'credit_note'] },
    invNumber: { type: 'string', description: "the paid document's number" },
    vendor_id: idSchema,
    vendornumber: { type: 'string' },
    customer_id: idSchema,
    customernumber: { type: 'string' },
    name: { type: 'string', description: "the party's name" },
    date: dateSchema,
    amount: { type: 'number', description: "in the document's currency" },
    currency: currencySchema,
    exchangerate: { type: 'number', description: 'the payment rate (1 in the base currency)' },
    account: { type: 'string', description: 'the bank or cash account' },
    base_amount: {
      type: 'number',
      description: 'what the bank or cash account received or paid, in the base currency',
    },
    cleared_base_amount: {
      type: 'number',
      description: 'what the payment cleared on the control account, in the base currency',
    },
    fx_gain_loss: {
      type: 'number',
      description: 'exchange gain (positive) or loss (negative) booked, in the base currency',
    },
    kind: {
      type: 'string',
      enum: ['payment', 'allocation'],
      description:
        "allocation: a credit note's open amount set against a document (no cash; account is the control account, " +
        'amount negative on the credit note)',
    },
    allocated_with: { type: ['integer', 'null'], description: "an allocation's other document" },
    memo: { type: 'string' },
    source: { type: 'string' },
    status: { type: 'string', enum: ['posted', 'reversed'] },
    reversal_date: {
      ...dateSchema,
      description: 'reversed payments: the date of the reversing ledger lines (the payment date)',
    },
    postings: {
      type: 'array',
      description: "the payment's ledger lines (and its reversal's), base currency, debit positive",
      items: {
        type: 'object',
        properties: {
          account: { type: 'string' },
          amount: { type: 'number' },
          fxAmount: { type: 'number' },
          kind: { type: 'string', enum: ['payment', 'fx'] },
          date: dateSchema,
        },
      },
    },
  },
} as const;

export const PAYMENT_SORT_KEYS = ['date', 'id'] as const;

/** The list's filters; the party is named as on the other lists of a side (`vendor_id`, `customer_id`). */
function paymentListQuery<V extends 'vendor' | 'customer'>(vc: V) {
  const party = { ...idSchema, description: `payments of this ${vc}'s documents` };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      document_id: { ...idSchema, description: 'payments of this document' },
      ...((vc === 'vendor' ? { vendor_id: party } : { customer_id: party }) as V extends 'vendor'
        ? { vendor_id: typeof party }
        : { customer_id: typeof party }),
      from: { ...dateSchema, description: 'payment date on or after' },
      to: { ...dateSchema, description: 'payment date on or before' },
      status: { type: 'string', enum: ['posted', 'reversed'] },
      sort: sortSchema(PAYMENT_SORT_KEYS, 'date', 'date (then id) or id'),
      ...pageQueryProperties,
    },
  } as const;
}
export const vendorPaymentListQuerySchema = paymentListQuery('vendor');
export const customerPaymentListQuerySchema = paymentListQuery('customer');
export type PaymentListQuery =
  | FromSchema<typeof vendorPaymentListQuerySchema>
  | FromSchema<typeof customerPaymentListQuerySchema>;

export const agingQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { date: { ...dateSchema, description: 'the day the open amounts are aged at; default today' } },
} as const;

const bucketProperties = {
  current: { type: 'number', description: 'not yet due (due date on or after `date`)' },
  '1-30': { type: 'number', description: '1–30 days past the due date' },
  '31-60': { type: 'number' },
  '61-90': { type: 'number' },
  over_90: { type: 'number', description: 'more than 90 days past the due date' },
  total: { type: 'number' },
} as const;
const BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90', 'total'] as const;

export const agingReportSchema = {
  type: 'object',
  required: ['date', 'currency', 'rows', 'totals'],
  properties: {
    date: dateSchema,
    currency: { ...currencySchema, description: 'the base currency all amounts are in' },
    rows: {
      type: 'array',
      description: 'one row per party with open documents, ordered by party number',
      items: {
        type: 'object',
        required: ['id', 'number', 'name', ...BUCKETS],
        properties: { id: idSchema, number: { type: 'string' }, name: { type: 'string' }, ...bucketProperties },
      },
    },
    totals: { type: 'object', required: [...BUCKETS], properties: bucketProperties },
  },
} as const;
