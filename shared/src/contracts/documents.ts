/**
 * Documents of both kinds: `/arap/documents/{vc}` and `/arap/document/{vc}/{id}` read AR/AP
 * transactions and invoices with items together, told apart by `kind` (DESIGN.md §6; the MCP
 * tools list_invoices/get_invoice and list_bills/get_bill call them). Read only: writes go to
 * `/arap/transaction/{vc}` or `/arap/invoice/{vc}`, whose own reads are unchanged.
 */
import {
  customerDocumentListQuerySchema, documentListRowSchema, documentReadSchema, vendorDocumentListQuerySchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';

const readPermission = { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' } as const;

export const listDocuments = contract({
  name: 'listDocuments',
  method: 'GET',
  path: '/arap/documents/:vc',
  summary:
    'List AR/AP transactions and invoices with items together, each row the list row of its kind with `kind`; by ' +
    'kind, document_number, inv_number, status, date range (from/to), party or payment_file; ordered by invDate, then id, ' +
    'unless `sort` says otherwise',
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
  summary:
    'One AR/AP transaction or invoice with items by id: the read shape of its kind (as GET /arap/transaction/{vc}/{id} ' +
    'or GET /arap/invoice/{vc}/{id}) with `kind`',
  permission: readPermission,
  scope: 'invoices:read',
  response: documentReadSchema,
  errors: [],
});
