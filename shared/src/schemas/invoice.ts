import type { FromSchema } from 'json-schema-to-ts';
import { lineDimensionsReadSchema, lineDimensionsSchema } from './dimensions.ts';
import { accountNumberSchema, dateSchema, documentNumberSchema, idSchema, languageSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import {
  customerTransactionListQuerySchema,
  customerTransactionSchema,
  MAX_AMOUNT,
  transactionReadSchema,
  vendorTransactionListQuerySchema,
  vendorTransactionSchema,
  type TransactionInput,
  type Vc,
} from './transaction.ts';

/**
 * Invoices with items (docs/invoices.md): the header of an AR/AP transaction, `items`
 * instead of `lines`, and on the customer side the invoice's own fields. Rules a schema
 * cannot express (≤ 6 decimals, quantity ≠ 0, accounts, services) are checked by the ledger.
 */

/** Most decimals an item's quantity or price carries (NUMERIC(20,6)). */
export const ITEM_DECIMALS = 6;

export const invoiceItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['quantity'],
  properties: {
    service_id: {
      ...idSchema,
      description: 'a service of the catalogue: fills description, unit, price, account, taxAccount unless sent',
    },
    partnumber: {
      type: 'string',
      minLength: 1,
      maxLength: 50,
      description: "alternative to service_id: the service's partnumber",
    },
    description: { type: 'string', minLength: 1, maxLength: 1000, description: 'required unless a service gives it' },
    quantity: {
      type: 'number',
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      description: `not 0, at most ${ITEM_DECIMALS} decimals`,
    },
    unit: { type: 'string', minLength: 1, maxLength: 20, description: 'h, pcs, …' },
    price: {
      type: 'number',
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      description: `unit price in the document currency, at most ${ITEM_DECIMALS} decimals; required unless a service gives it`,
    },
    discount: { type: 'number', minimum: 0, maximum: 100, description: 'percent' },
    account: {
      ...accountNumberSchema,
      description: 'revenue (customer) or expense (vendor) account; required unless a service gives it',
    },
    taxAccount: { ...accountNumberSchema, description: 'tax account; the rate valid on invDate applies' },
    taxAmount: {
      type: 'number',
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      description: "overrides the calculated tax of this item's line",
    },
    dimensions: lineDimensionsSchema,
  },
} as const;

/** The transaction header fields an invoice shares (everything but `type` and `lines`). */
const { type: _vendorType, lines: _vendorLines, ...vendorHeader } = vendorTransactionSchema.properties;
const { type: _customerType, lines: _customerLines, ...customerHeader } = customerTransactionSchema.properties;

const items = { type: 'array', minItems: 1, maxItems: 500, items: invoiceItemSchema } as const;
const invoiceType = { type: 'string', enum: ['invoice'] } as const;

/** Fields only customer invoices take. */
const customerInvoiceFields = {
  notes: { type: 'string', maxLength: 4000, description: 'printed on the invoice' },
  terms: {
    type: 'integer',
    minimum: 0,
    maximum: 3650,
    description: "payment terms in days; default the customer's; gives dueDate when it is not sent",
  },
  shippingpoint: { type: 'string', maxLength: 200 },
  ordNumber: documentNumberSchema('order number', 0),
  poNumber: documentNumberSchema("the customer's purchase order number", 0),
} as const;

export const vendorInvoiceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['invDate', 'items'],
  properties: { ...vendorHeader, type: invoiceType, items },
} as const;

export const customerInvoiceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['invDate', 'items'],
  properties: { ...customerHeader, type: invoiceType, ...customerInvoiceFields, items },
} as const;

export type VendorInvoiceInput = FromSchema<typeof vendorInvoiceSchema>;
export type CustomerInvoiceInput = FromSchema<typeof customerInvoiceSchema>;
export type InvoiceInput = VendorInvoiceInput | CustomerInvoiceInput;
export type InvoiceItemInput = FromSchema<typeof invoiceItemSchema>;

/** The customer-only fields of a write (none on the vendor side). */
export function customerFieldsOf(
  input: InvoiceInput,
): Pick<CustomerInvoiceInput, 'notes' | 'terms' | 'shippingpoint' | 'ordNumber' | 'poNumber'> {
  return 'notes' in input || 'terms' in input || 'shippingpoint' in input || 'ordNumber' in input || 'poNumber' in input
    ? input
    : {};
}

/** The invoice as the transaction write the posting rules check: its header with the items' lines. */
export function asTransactionInput(
  input: InvoiceInput,
  lines: TransactionInput['lines'],
  dueDate: string | undefined,
): TransactionInput {
  const { items: _items, type: _type, ...header } = input;
  const {
    notes: _n,
    terms: _t,
    shippingpoint: _s,
    ordNumber: _o,
    poNumber: _p,
    ...rest
  } = header as CustomerInvoiceInput;
  return { ...rest, type: 'transaction', lines, ...(dueDate === undefined ? {} : { dueDate }) } as TransactionInput;
}

export const PAYMENT_STATUSES = ['open', 'partial', 'paid'] as const;
export const INVOICE_SORT_KEYS = ['inv_date', 'due_date', 'id'] as const;

/** List filters: those of transactions plus payment_status and overdue; sort also by due_date. */
function invoiceListQuery<V extends Vc>(vc: V) {
  const { sort: _vs, limit: _vl, offset: _vo, ...vendorFilters } = vendorTransactionListQuerySchema.properties;
  const { sort: _cs, limit: _cl, offset: _co, ...customerFilters } = customerTransactionListQuerySchema.properties;
  const filters = (vc === 'vendor' ? vendorFilters : customerFilters) as V extends 'vendor'
    ? typeof vendorFilters
    : typeof customerFilters;
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...filters,
      payment_status: { type: 'string', enum: PAYMENT_STATUSES },
      overdue: {
        type: 'boolean',
        description: 'true: posted, not fully paid and dueDate before today; false: all others',
      },
      sort: sortSchema(INVOICE_SORT_KEYS, 'inv_date', 'inv_date or due_date (then id), or id'),
      ...pageQueryProperties,
    },
  } as const;
}
export const vendorInvoiceListQuerySchema = invoiceListQuery('vendor');
export const customerInvoiceListQuerySchema = invoiceListQuery('customer');

const { lines: _readLines, type: _readType, ...readHeader } = transactionReadSchema.properties;

/** One item of a read shape: as written, with its account, tax rate, amount and tax. */
export const readItem = {
  type: 'object',
  properties: {
    service_id: idSchema,
    partnumber: { type: 'string' },
    description: { type: 'string' },
    quantity: { type: 'number' },
    unit: { type: 'string' },
    price: { type: 'number' },
    discount: { type: 'number' },
    account: { type: 'string' },
    taxAccount: { type: 'string' },
    taxRate: { type: 'number' },
    amount: { type: 'number', description: 'round(quantity × price × (1 − discount/100)) to the minor unit' },
    tax: { type: 'number', description: 'calculated or overridden tax of the item' },
    dimensions: lineDimensionsReadSchema,
  },
} as const;

/** The invoice fields of the read shape besides a transaction's (shared by one invoice and list rows). */
const invoiceReadFields = {
  kind: { type: 'string', enum: ['invoice'], description: 'tells invoices (items) from AR/AP transactions (lines)' },
  type: {
    type: 'string',
    enum: ['invoice', 'credit_note'],
    description: 'credit_note: a credit note (negative amounts) of the invoice credit_of',
  },
  credit_of: { ...idSchema, description: "a credit note's invoice" },
  reason: { type: 'string', description: "a credit note's reason" },
  recurring_id: { ...idSchema, description: 'the recurring invoice that made it (GET /arap/recurring/customer/{id})' },
  notes: { type: 'string' },
  terms: { type: 'integer' },
  shippingpoint: { type: 'string' },
  ordNumber: { type: 'string' },
  poNumber: { type: 'string' },
  open: { type: 'number', description: 'grossAmount − paid, in the document currency' },
  payment_status: { type: 'string', enum: PAYMENT_STATUSES },
  reminder_level: { type: 'integer', minimum: 0, maximum: 3 },
  qr_reference: {
    type: ['string', 'null'],
    description: 'customer invoices: the payment slip reference, assigned when posted',
  },
  emails: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: ['string', 'integer'] },
        to: { type: 'string' },
        at: { type: 'string' },
        status: { type: 'string' },
      },
    },
  },
} as const;

/** Read shape of one invoice (GET /arap/invoice/{vc}/{id}). */
export const invoiceReadSchema = {
  type: 'object',
  properties: { ...readHeader, ...invoiceReadFields, items: { type: 'array', items: readItem } },
} as const;

/** One row of GET /arap/invoices/{vc}: the header without items, postings and files. */
export const invoiceListRowSchema = {
  type: 'object',
  properties: (({ postings: _p, files: _f, taxes: _t, ...rest }) => rest)(invoiceReadSchema.properties),
} as const;

export const invoiceReverseSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    date: { ...dateSchema, description: 'date of the reversing invoice; default today' },
    description: { type: 'string', maxLength: 2000 },
  },
} as const;

/** `?language=` of a document's PDF: overrides the party's language (and the company's). */
export const documentPdfQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    language: { ...languageSchema, description: "the PDF's language; default the party's, else the company's" },
  },
} as const;

/** GET /arap/workstation: drafts awaiting review, oldest first, paged. */
export const workstationQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    vc: {
      type: 'string',
      enum: ['vendor', 'customer'],
      description: 'only this side (default both); journal entries have no side, so a side leaves them out',
    },
    kind: {
      type: 'string',
      enum: ['transaction', 'invoice', 'journal'],
      description: 'only this kind (default all three)',
    },
    ...pageQueryProperties,
  },
} as const;

export const workstationRowSchema = {
  type: 'object',
  properties: {
    id: idSchema,
    vc: { type: 'string', enum: ['vendor', 'customer'], description: 'absent on journal entries' },
    kind: {
      type: 'string',
      enum: ['transaction', 'invoice', 'journal'],
      description: 'journal: a journal entry (GET /gl/transactions/{id})',
    },
    invNumber: { type: 'string', description: "the document's number; a journal entry's reference" },
    documentNumber: { type: 'string' },
    party_id: { ...idSchema, description: 'absent on journal entries' },
    name: { type: 'string', description: "the party's name; absent on journal entries" },
    invDate: { ...dateSchema, description: "the document's date; a journal entry's transdate" },
    currency: { type: 'string' },
    grossAmount: { type: 'number', description: 'journal entries: the sum of the debits' },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: {
      type: 'object',
      description: "who created the draft and via what, from the audit log's create entry",
      properties: {
        user_id: { type: ['integer', 'null'] },
        email: { type: ['string', 'null'] },
        via: { type: 'string', description: 'api_key, ai_connection, cli, web' },
        via_label: { type: ['string', 'null'] },
        via_text: { type: 'string' },
      },
    },
  },
} as const;
