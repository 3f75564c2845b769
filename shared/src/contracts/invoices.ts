/** Invoices with items: `/arap/invoice/{vc}` (rules in docs/invoices.md). */
import {
  createdSchema,
  customerInvoiceListQuerySchema,
  customerInvoiceSchema,
  documentPdfQuerySchema,
  invoiceListRowSchema,
  invoiceReadSchema,
  invoiceReverseSchema,
  vendorInvoiceListQuerySchema,
  vendorInvoiceSchema,
  workstationQuerySchema,
  workstationRowSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;
const writePermission = {
  vendor: 'vendors.postings.vendor_invoice',
  customer: 'customers.postings.sales_invoice',
} as const;
const writeBody = { vendor: vendorInvoiceSchema, customer: customerInvoiceSchema } as const;
/** multipart/form-data: the JSON invoice in the part "transaction" (or "json"), one "files" part per attachment */
const multipart = { jsonPart: 'transaction', jsonPartAliases: ['json'], filePart: 'files' } as const;
const postingErrors = [
  'invalid_currency',
  'vc_not_found',
  'amount_exceeded',
  'conflict',
  'closed_period',
  'vat_period_filed',
] as const;

export const createInvoice = contract({
  name: 'createInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc',
  summary: { vendor: 'Create a vendor invoice with items', customer: 'Create a customer invoice with items' },
  description:
    'Create an invoice with items (amount = round(quantity × price × (1 − discount/100)), then tax per item): ' +
    'a draft without pending, posted with pending "0"; items may name a catalogue service',
  example: examples.createInvoice,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: writeBody,
  multipart,
  status: 201,
  location: '/arap/invoice/:vc/{id}',
  response: createdSchema,
  errors: postingErrors,
});

/**
 * The amounts an invoice body would have, nothing written: the app's "Preview totals" (docs/app.md). The same
 * computation a draft gets (previewInvoice: made and rolled back in a savepoint), so the figures are the ledger's.
 */
export const previewInvoice = contract({
  name: 'previewInvoice',
  method: 'POST',
  path: '/arap/invoices/:vc/preview',
  summary: { vendor: 'Preview a vendor invoice', customer: 'Preview a customer invoice' },
  description:
    'The invoice a createInvoice body would make, computed by the same rules (items, tax per item, VAT per rate, ' +
    'net, tax, gross) and written nowhere: no number is used, nothing is audited; refusals as createInvoice. ' +
    'Answered as a draft read without id and number',
  example: examples.previewInvoice,
  permission: writePermission,
  scope: 'invoices:read',
  body: writeBody,
  response: invoiceReadSchema,
  errors: ['invalid_currency', 'vc_not_found'],
});

export const updateInvoice = contract({
  name: 'updateInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id',
  summary: { vendor: 'Replace a vendor invoice', customer: 'Replace a customer invoice' },
  description:
    'Update with the complete invoice (items replaced; files sent are added unless an equal file is attached). ' +
    'Posted invoices only while unpaid',
  example: examples.updateInvoice,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: writeBody,
  multipart,
  response: invoiceReadSchema,
  errors: postingErrors,
});

export const approveInvoice = contract({
  name: 'approveInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id/approve',
  summary: { vendor: 'Approve and post a vendor invoice', customer: 'Approve and post a customer invoice' },
  description: 'Approve a draft invoice: saves the complete invoice sent (pending "0"), then posts it',
  example: examples.approveInvoice,
  permission: { vendor: 'vendors.postings.approve', customer: 'customers.postings.approve' },
  scope: 'invoices:write',
  effect: 'posts',
  body: writeBody,
  multipart,
  response: invoiceReadSchema,
  errors: postingErrors,
});

export const reverseInvoice = contract({
  name: 'reverseInvoice',
  method: 'POST',
  path: '/arap/invoice/:vc/:id/reverse',
  summary: { vendor: 'Reverse a vendor invoice', customer: 'Reverse a customer invoice' },
  description:
    'Reverse a posted invoice: a new posted invoice with every item negated, dated `date` (default today); the body ' +
    'is optional',
  example: examples.reverseInvoice,
  permission: { vendor: 'vendors.postings.reverse', customer: 'customers.postings.reverse' },
  scope: 'invoices:write',
  effect: 'posts',
  body: invoiceReverseSchema,
  status: 201,
  // the reversal is a new document of its own
  location: '/arap/invoice/:vc/{id}',
  response: createdSchema,
  errors: ['amount_exceeded', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const deleteInvoice = contract({
  name: 'deleteInvoice',
  method: 'DELETE',
  path: '/arap/invoice/:vc/:id',
  summary: { vendor: 'Delete a draft vendor invoice', customer: 'Delete a draft customer invoice' },
  description: 'Delete a draft invoice (409 for posted or reversed invoices)',
  example: examples.deleteInvoice,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const getInvoice = contract({
  name: 'getInvoice',
  method: 'GET',
  path: '/arap/invoice/:vc/:id',
  summary: { vendor: 'Read a vendor invoice', customer: 'Read a customer invoice' },
  description:
    'One invoice: written fields with `currency`, items with amount and tax, taxes per tax account, totals, paid, ' +
    'open, status, payment_status, postings, files',
  example: examples.getInvoice,
  permission: readPermission,
  scope: 'invoices:read',
  response: invoiceReadSchema,
  errors: [],
});

export const downloadInvoiceFile = contract({
  name: 'downloadInvoiceFile',
  method: 'GET',
  path: '/arap/invoice/:vc/:id/files/:fileId',
  summary: { vendor: 'Download a file of a vendor invoice', customer: 'Download a file of a customer invoice' },
  description: 'Download one file attached to an invoice (its bytes with its own media type)',
  example: examples.downloadInvoiceFile,
  permission: readPermission,
  scope: 'invoices:read',
  download: ['*/*'],
  errors: [],
});

export const listInvoices = contract({
  name: 'listInvoices',
  method: 'GET',
  path: '/arap/invoices/:vc',
  summary: { vendor: 'List vendor invoices', customer: 'List customer invoices' },
  description:
    'List invoices by status, payment_status, overdue, party, date range (from/to), document_number or inv_number; ' +
    'ordered by invDate, then id, unless `sort` says otherwise',
  example: examples.listInvoices,
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
  summary: 'List drafts awaiting review',
  description:
    'Drafts awaiting review on both sides, AR/AP transactions and invoices, and journal-entry drafts, oldest first, ' +
    'with who created them and via what (API key, AI connection, app); a side is listed only with its read ' +
    'permission, journal entries only with gl.journal_entries (for an AI connection also the accounting:read scope)',
  example: examples.listWorkstation,
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
  summary: {
    vendor: 'Download a vendor invoice as PDF',
    customer: 'Download a customer invoice as PDF (with QR-bill)',
  },
  description:
    'The invoice as PDF: company header, party address, items, tax per rate, totals, terms and notes; posted ' +
    'customer invoices in CHF or EUR end with a Swiss QR-bill payment part (QR-IBAN with the QR reference, or IBAN ' +
    'with the creditor reference); credit notes have none. Every text, the payment part included, in the ' +
    "language asked for (?language=), else the party's, else the company's. 409 when the payment part needs the " +
    'company address and it is incomplete',
  example: examples.getInvoicePdf,
  permission: readPermission,
  scope: 'invoices:read',
  query: documentPdfQuerySchema,
  download: ['application/pdf'],
  errors: ['conflict'],
});
