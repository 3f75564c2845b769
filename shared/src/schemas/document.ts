/**
 * Documents of both kinds on one side: AR/AP transactions (lines) and invoices (items), told
 * apart by `kind` (GET /arap/documents/{vc}, /arap/document/{vc}/{id}; docs/invoices.md "Documents of both kinds"). Each
 * answer is the read shape of its kind plus `kind`; the filters are those both lists share.
 */
import { invoiceListRowSchema, invoiceReadSchema } from './invoice.ts';
import {
  customerTransactionListQuerySchema,
  transactionReadSchema,
  vendorTransactionListQuerySchema,
} from './transaction.ts';

export const DOCUMENT_KINDS = ['transaction', 'invoice'] as const;
export type DocumentKindName = (typeof DOCUMENT_KINDS)[number];

const kindFilter = { type: 'string', enum: DOCUMENT_KINDS, description: 'only this kind (default both)' } as const;

/** The filters of the transaction list (which the invoice list has too), plus `kind`. */
export const vendorDocumentListQuerySchema = {
  ...vendorTransactionListQuerySchema,
  properties: { ...vendorTransactionListQuerySchema.properties, kind: kindFilter },
} as const;
export const customerDocumentListQuerySchema = {
  ...customerTransactionListQuerySchema,
  properties: { ...customerTransactionListQuerySchema.properties, kind: kindFilter },
} as const;

const transactionKind = {
  kind: { type: 'string', enum: ['transaction'], description: 'an AR/AP transaction (lines); invoices have items' },
} as const;

/** An AR/AP transaction's read shape with `kind`: "transaction". */
const transactionDocumentSchema = {
  type: 'object',
  required: ['kind'],
  properties: { ...transactionKind, ...transactionReadSchema.properties },
} as const;

const kindProperty = {
  kind: {
    type: 'string',
    enum: DOCUMENT_KINDS,
    description: 'transaction: an AR/AP transaction with lines; invoice: an invoice with items',
  },
} as const;

/** GET /arap/document/{vc}/{id}: one transaction or one invoice, each with `kind`. */
export const documentReadSchema = {
  type: 'object',
  required: ['kind'],
  properties: kindProperty,
  oneOf: [transactionDocumentSchema, { ...invoiceReadSchema, required: ['kind'] }],
} as const;

/** A row of GET /arap/documents/{vc}: a transaction list row or an invoice list row, each with `kind`. */
export const documentListRowSchema = {
  type: 'object',
  required: ['kind'],
  properties: kindProperty,
  oneOf: [transactionDocumentSchema, { ...invoiceListRowSchema, required: ['kind'] }],
} as const;
