/** Invoices with items: `/arap/invoice/{vc}` (DESIGN.md §5.1; rules in docs/invoices.md). */
import {
  createdSchema, customerInvoiceListQuerySchema, customerInvoiceSchema, invoiceListRowSchema, invoiceReadSchema, invoiceReverseSchema,
  vendorInvoiceListQuerySchema, vendorInvoiceSchema, workstationQuerySchema, workstationRowSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;
const writePermission = { vendor: 'vendors.postings.vendor_invoice', customer: 'customers.postings.sales_invoice' } as const;
const writeBody = { vendor: vendorInvoiceSchema, customer: customerInvoiceSchema } as const;
const postingErrors = ['invalid_currency', 'vc_not_found', 'amount_exceeded', 'conflict', 'closed_period'] as const;

export const createInvoice = contract({
  name: 'createInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc',
  summary:
    'Create an invoice with items (amount = round(quantity × price × (1 − discount/100)), then tax per item): ' +
    'a draft without pending, posted with pending "0"; items may name a catalogue service',
  permission: writePermission,
  scope: 'invoices:write',
  body: writeBody,
  status: 201,
  response: createdSchema,
  errors: postingErrors,
});

export const updateInvoice = contract({
  name: 'updateInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id',
  summary: 'Update with the complete invoice (items replaced; files sent are added unless an equal file is attached). Posted invoices only while unpaid',
  permission: writePermission,
  scope: 'invoices:write',
  body: writeBody,
  response: invoiceReadSchema,
  errors: postingErrors,
});

export const approveInvoice = contract({
  name: 'approveInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id/approve',
  summary: 'Approve a draft invoice: saves the complete invoice sent (pending "0"), then posts it',
  permission: { vendor: 'vendors.postings.approve', customer: 'customers.postings.approve' },
  scope: 'invoices:write',
  body: writeBody,
  response: invoiceReadSchema,
  errors: postingErrors,
});

export const reverseInvoice = contract({
  name: 'reverseInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id/reverse',
  summary: 'Reverse a posted invoice: a new posted invoice with every item negated, dated `date` (default today); the body is optional',
  permission: { vendor: 'vendors.postings.reverse', customer: 'customers.postings.reverse' },
  scope: 'invoices:write',
  body: invoiceReverseSchema,
  status: 201,
  response: createdSchema,
  errors: ['amount_exceeded', 'conflict', 'closed_period'],
});

export const deleteInvoice = contract({
  name: 'deleteInvoice',
  method: 'DELETE',
  path: '/arap/invoice/:vc/:id',
  summary: 'Delete a draft invoice (409 for posted or reversed invoices)',
  permission: writePermission,
  scope: 'invoices:write',
  status: 204,
  errors: ['conflict', 'closed_period'],
});

export const getInvoice = contract({
  name: 'getInvoice',
  method: 'GET',
  path: '/arap/invoice/:vc/:id',
  summary:
    'One invoice: written fields with `currency`, items with amount and tax, taxes per tax account, totals, paid, open, ' +
    'status, payment_status, postings, files',
  permission: readPermission,
  scope: 'invoices:read',
  response: invoiceReadSchema,
  errors: [],
});

export const downloadInvoiceFile = contract({
  name: 'downloadInvoiceFile',
  method: 'GET',
  path: '/arap/invoice/:vc/:id/files/:fileId',
  summary: 'Download one file attached to an invoice (its bytes with its own media type)',
  permission: readPermission,
  scope: 'invoices:read',
  download: ['*/*'],
  errors: [],
});

export const listInvoices = contract({
  name: 'listInvoices',
  method: 'GET',
  path: '/arap/invoices/:vc',
  summary:
    'List invoices by status, payment_status, overdue, party, date range (from/to), document_number or inv_number; ' +
    'ordered by invDate, then id, unless `sort` says otherwise',
  permission: readPermission,
  scope: 'invoices:read',
  query: { vendor: vendorInvoiceListQuerySchema, customer: customerInvoiceListQuerySchema },
  response: { type: 'array', items: invoiceListRowSchema },
  list: true,
  errors: [],
});

export const listWorkstation = contract({
  name: 'listWorkstation',
  method: 'GET',
  path: '/arap/workstation',
  summary:
    'Drafts awaiting review on both sides, AR/AP transactions and invoices, oldest first, with who created them and via what ' +
    '(API key, AI connection); a side is listed only with its read permission',
  permission: null,
  scope: 'invoices:read',
  query: workstationQuerySchema,
  response: { type: 'array', items: workstationRowSchema },
  list: true,
  errors: [],
});

export const getInvoicePdf = contract({
  name: 'getInvoicePdf',
  method: 'GET',
  path: '/arap/invoice/:vc/:id/pdf',
  summary:
    'The invoice as PDF: company header, party address, items, tax per rate, totals, terms and notes; posted customer ' +
    'invoices in CHF or EUR end with a Swiss QR-bill payment part (QR-IBAN with the QR reference, or IBAN with the ' +
    'creditor reference). 409 when the payment part needs the company address and it is incomplete',
  permission: readPermission,
  scope: 'invoices:read',
  download: ['application/pdf'],
  errors: ['conflict'],
});
