/**
 * Payments of AR/AP documents and the aging report (rules in docs/payments.md):
 * `/arap/payment/{vc}`, `/arap/payments/{vc}`, `/arap/aging/{vc}`. A payment settles (part of)
 * one posted AR/AP transaction or invoice of its side; deleting it posts its reversal.
 */
import {
  agingQuerySchema,
  agingReportSchema,
  createdSchema,
  customerPaymentListQuerySchema,
  paymentCreateSchema,
  paymentReadSchema,
  vendorPaymentListQuerySchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;
const payPermission = { vendor: 'vendors.postings.payment', customer: 'customers.postings.receipt' } as const;

export const createPayment = contract({
  name: 'createPayment',
  method: 'POST',
  path: '/arap/payment/:vc',
  summary: { vendor: 'Record a payment to a vendor', customer: 'Record a payment from a customer' },
  description:
    'Record a payment of a posted AR/AP transaction or invoice (partial or full, in the document currency): bank or ' +
    'cash against the control account; for foreign-currency documents the difference between payment and document ' +
    'rate goes to the FX gain/loss account',
  example: examples.createPayment,
  permission: payPermission,
  scope: 'invoices:write',
  effect: 'pays',
  body: paymentCreateSchema,
  status: 201,
  location: '/arap/payment/:vc/{id}',
  response: createdSchema,
  errors: ['overpayment', 'amount_exceeded', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const listPayments = contract({
  name: 'listPayments',
  method: 'GET',
  path: '/arap/payments/:vc',
  summary: { vendor: 'List payments to vendors', customer: 'List payments from customers' },
  description:
    'List payments by document_id, the party (vendor_id/customer_id), status or date range (from/to); ordered by ' +
    'date, then id, unless `sort` says otherwise',
  example: examples.listPayments,
  permission: readPermission,
  scope: 'invoices:read',
  query: { vendor: vendorPaymentListQuerySchema, customer: customerPaymentListQuerySchema },
  response: { type: 'array', items: paymentReadSchema },
  list: true,
  errors: [],
});

export const getPayment = contract({
  name: 'getPayment',
  method: 'GET',
  path: '/arap/payment/:vc/:id',
  summary: { vendor: 'Read a payment to a vendor', customer: 'Read a payment from a customer' },
  description:
    'One payment with the document it settles, its amounts in the document and base currency, status and its ledger ' +
    'lines.',
  example: examples.getPayment,
  permission: readPermission,
  scope: 'invoices:read',
  response: paymentReadSchema,
  errors: [],
});

export const deletePayment = contract({
  name: 'deletePayment',
  method: 'DELETE',
  path: '/arap/payment/:vc/:id',
  summary: { vendor: 'Reverse a payment to a vendor', customer: 'Reverse a payment from a customer' },
  description:
    "Reverse a payment: posts ledger lines negating it, dated the payment's own date; the document's open amount " +
    'comes back; the payment stays, with status reversed (409 when already reversed)',
  example: examples.deletePayment,
  permission: payPermission,
  scope: 'invoices:write',
  effect: 'deletes',
  response: paymentReadSchema,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const agingReport = contract({
  name: 'agingReport',
  method: 'GET',
  path: '/arap/aging/:vc',
  summary: { vendor: 'Aging report of payables', customer: 'Aging report of receivables' },
  description:
    'Open amounts per party in the base currency as of `date` (default today), by days past the due date: current, ' +
    '1-30, 31-60, 61-90, over_90, total; plus totals. Documents, payments and reversals dated after `date` do not ' +
    'count',
  example: examples.agingReport,
  permission: readPermission,
  scope: 'invoices:read',
  query: agingQuerySchema,
  response: agingReportSchema,
  errors: [],
});
