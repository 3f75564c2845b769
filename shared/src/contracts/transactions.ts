/** AR/AP transactions: `/arap/transaction/{vc}` (rules in docs/posting.md). */
import {
  createdSchema,
  customerTransactionListQuerySchema,
  customerTransactionSchema,
  transactionReadSchema,
  transactionReverseSchema,
  vendorTransactionListQuerySchema,
  vendorTransactionSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;
const writePermission = {
  vendor: 'vendors.postings.vendor_transaction',
  customer: 'customers.postings.customer_transaction',
} as const;
const writeBody = { vendor: vendorTransactionSchema, customer: customerTransactionSchema } as const;
/** multipart/form-data: the JSON document in the part "transaction" (or "json"), one "files" part per attachment */
const multipart = { jsonPart: 'transaction', jsonPartAliases: ['json'], filePart: 'files' } as const;
const postingErrors = [
  'invalid_currency',
  'vc_not_found',
  'amount_exceeded',
  'conflict',
  'closed_period',
  'vat_period_filed',
] as const;

export const createTransaction = contract({
  name: 'createTransaction',
  method: 'POST',
  path: '/arap/transaction/:vc',
  summary: { vendor: 'Create a vendor transaction', customer: 'Create a customer transaction' },
  description:
    'Create an AR/AP transaction: a draft without pending, posted with pending "0". JSON, or multipart/form-data ' +
    'with the JSON in a part named "transaction" and one "files" part per attachment',
  example: examples.createTransaction,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: writeBody,
  multipart,
  status: 201,
  location: '/arap/transaction/:vc/{id}',
  response: createdSchema,
  errors: postingErrors,
});

export const updateTransaction = contract({
  name: 'updateTransaction',
  method: 'POST',
  path: '/arap/transaction/:vc/:id',
  summary: { vendor: 'Replace a vendor transaction', customer: 'Replace a customer transaction' },
  description:
    'Update with the complete document (lines replaced; files sent are added unless an equal file is attached). ' +
    'Posted documents only while unpaid',
  example: examples.updateTransaction,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: writeBody,
  multipart,
  response: transactionReadSchema,
  errors: postingErrors,
});

export const approveTransaction = contract({
  name: 'approveTransaction',
  method: 'POST',
  path: '/arap/transaction/:vc/:id/approve',
  summary: { vendor: 'Approve and post a vendor transaction', customer: 'Approve and post a customer transaction' },
  description: 'Approve a draft: saves the complete document sent (pending "0"), then posts it',
  example: examples.approveTransaction,
  permission: { vendor: 'vendors.postings.approve', customer: 'customers.postings.approve' },
  scope: 'invoices:write',
  effect: 'posts',
  body: writeBody,
  multipart,
  response: transactionReadSchema,
  errors: postingErrors,
});

export const reverseTransaction = contract({
  name: 'reverseTransaction',
  method: 'POST',
  path: '/arap/transaction/:vc/:id/reverse',
  summary: { vendor: 'Reverse a vendor transaction', customer: 'Reverse a customer transaction' },
  description:
    'Reverse a posted document: a new posted document with every line negated, dated `date` (default today); the ' +
    'body is optional',
  example: examples.reverseTransaction,
  permission: { vendor: 'vendors.postings.reverse', customer: 'customers.postings.reverse' },
  scope: 'invoices:write',
  effect: 'posts',
  body: transactionReverseSchema,
  status: 201,
  // the reversal is a new document of its own
  location: '/arap/transaction/:vc/{id}',
  response: createdSchema,
  errors: ['amount_exceeded', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const deleteTransaction = contract({
  name: 'deleteTransaction',
  method: 'DELETE',
  path: '/arap/transaction/:vc/:id',
  summary: { vendor: 'Delete a draft vendor transaction', customer: 'Delete a draft customer transaction' },
  description: 'Delete a draft; posted and reversed documents stay (409: reverse a posted one instead).',
  example: examples.deleteTransaction,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const getTransaction = contract({
  name: 'getTransaction',
  method: 'GET',
  path: '/arap/transaction/:vc/:id',
  summary: { vendor: 'Read a vendor transaction', customer: 'Read a customer transaction' },
  description:
    'One transaction: written fields with `currency`, per-line and per-tax-account tax, totals, status, postings, ' +
    'files',
  example: examples.getTransaction,
  permission: readPermission,
  scope: 'invoices:read',
  response: transactionReadSchema,
  errors: [],
});

export const downloadTransactionFile = contract({
  name: 'downloadTransactionFile',
  method: 'GET',
  path: '/arap/transaction/:vc/:id/files/:fileId',
  summary: { vendor: 'Download a file of a vendor transaction', customer: 'Download a file of a customer transaction' },
  description: 'Download one attached file (its bytes with its own media type)',
  example: examples.downloadTransactionFile,
  permission: readPermission,
  scope: 'invoices:read',
  download: ['*/*'],
  errors: [],
});

export const deleteTransactionFile = contract({
  name: 'deleteTransactionFile',
  method: 'DELETE',
  path: '/arap/transaction/:vc/:id/files/:fileId',
  summary: { vendor: 'Delete a file of a vendor transaction', customer: 'Delete a file of a customer transaction' },
  description:
    'Delete one attached file: drafts, and posted documents while unpaid (posted ones also need the approve ' +
    'permission); 409 for reversed documents and reversals; audited',
  // as updating the document (posted documents also need …postings.approve, checked by the workflow)
  example: examples.deleteTransactionFile,
  permission: writePermission,
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const listTransactions = contract({
  name: 'listTransactions',
  method: 'GET',
  path: '/arap/transactions/:vc',
  summary: { vendor: 'List vendor transactions', customer: 'List customer transactions' },
  description:
    'List transactions by document_number, inv_number, status, date range (from/to), party or payment_file; ' +
    'ordered by invDate, then id, unless `sort` says otherwise',
  example: examples.listTransactions,
  permission: readPermission,
  scope: 'invoices:read',
  query: { vendor: vendorTransactionListQuerySchema, customer: customerTransactionListQuerySchema },
  response: { type: 'array', items: transactionReadSchema },
  list: true,
  errors: [],
});
