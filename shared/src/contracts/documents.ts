/**
 * Documents of both kinds: `/arap/documents/{vc}` and `/arap/document/{vc}/{id}` read AR/AP
 * transactions and invoices with items together, told apart by `kind` (docs/invoices.md "Documents of both kinds"; the
 * MCP tools list_invoices/get_invoice and list_bills/get_bill call them). Read only: writes go to
 * `/arap/transaction/{vc}` or `/arap/invoice/{vc}`, whose own reads are unchanged.
 */
import {
  customerDocumentListQuerySchema,
  documentListRowSchema,
  documentReadSchema,
  vendorDocumentListQuerySchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;

export const listDocuments = contract({
  name: 'listDocuments',
  method: 'GET',
  path: '/arap/documents/:vc',
  summary: {
    vendor: 'List vendor documents (transactions and invoices)',
    customer: 'List customer documents (transactions and invoices)',
  },
  description:
    'List AR/AP transactions and invoices with items together, each row the list row of its kind with `kind`; by ' +
    'kind, document_number, inv_number, status, date range (from/to), party or payment_file; ordered by invDate, ' +
    'then id, unless `sort` says otherwise',
  example: examples.listDocuments,
  permission: readPermission,
  scope: 'invoices:read',
  query: { vendor: vendorDocumentListQuerySchema, customer: customerDocumentListQuerySchema },
  response: { type: 'array', items: documentListRowSchema },
  list: true,
  errors: [],
});

export const getDocument = contract({
  name: 'getDocument',
  method: 'GET',
  path: '/arap/document/:vc/:id',
  summary: { vendor: 'Read a vendor document by id', customer: 'Read a customer document by id' },
  description:
    'One AR/AP transaction or invoice with items by id: the read shape of its kind (as GET ' +
    '/arap/transaction/{vc}/{id} or GET /arap/invoice/{vc}/{id}) with `kind`',
  example: examples.getDocument,
  permission: readPermission,
  scope: 'invoices:read',
  response: documentReadSchema,
  errors: [],
});
