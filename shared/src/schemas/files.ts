/**
 * Documents (every stored file) and the AI inbox (docs/documents.md).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { accountNumberSchema, amountSchema, currencySchema, dateSchema, idSchema } from './common.ts';
import { pageQueryProperties, sortSchema } from './list.ts';
import { vendorTransactionSchema } from './transaction.ts';

/** What a document is attached to. */
export const ATTACHMENT_KINDS = [
  'vendor_transaction',
  'customer_transaction',
  'vendor_invoice',
  'customer_invoice',
  'journal_entry',
  'email',
  'inbox',
] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export const DOCUMENT_SOURCES = ['upload', 'inbox', 'email'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];

const timestampSchema = { type: 'string', format: 'date-time' } as const;

export const attachmentSchema = {
  type: 'object',
  required: ['kind', 'id', 'number'],
  properties: {
    kind: { type: 'string', enum: ATTACHMENT_KINDS },
    id: { ...idSchema, description: 'the record: transaction, invoice, journal entry, e-mail message or inbox entry' },
    number: {
      type: ['string', 'null'],
      description: "the record's number (invNumber, journal reference); null for e-mails and inbox entries",
    },
  },
} as const;

export const documentSchema = {
  type: 'object',
  required: ['id', 'name', 'media_type', 'size', 'sha256', 'created_at', 'source', 'url', 'attached_to'],
  properties: {
    id: idSchema,
    name: { type: 'string', description: 'the name the bytes were first stored under' },
    media_type: { type: 'string' },
    size: { type: 'integer', minimum: 0, description: 'bytes' },
    sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'hex SHA-256 of the bytes; also the ETag of the content',
    },
    created_at: timestampSchema,
    source: { type: 'string', enum: DOCUMENT_SOURCES, description: 'how the bytes first came in' },
    url: { type: 'string', description: 'absolute URL of GET /documents/{id}/content' },
    attached_to: { type: 'array', items: attachmentSchema, description: 'every record the same bytes are attached to' },
  },
} as const;
export type DocumentRead = FromSchema<typeof documentSchema>;

export const DOCUMENT_SORT_KEYS = ['created_at', 'name', 'size', 'id'] as const;

export const documentListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: ATTACHMENT_KINDS, description: 'only documents attached to a record of this kind' },
    attached_id: { ...idSchema, description: 'with kind: only documents attached to this record' },
    unattached: {
      type: 'boolean',
      description: 'true: only documents attached to nothing (e.g. files of deleted attachments)',
    },
    source: { type: 'string', enum: DOCUMENT_SOURCES },
    media_type: { type: 'string', maxLength: 255, description: 'exact media type, e.g. application/pdf' },
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'part of the name, case-insensitive' },
    from: { ...dateSchema, description: 'stored on or after this day (UTC)' },
    to: { ...dateSchema, description: 'stored on or before this day (UTC)' },
    ...pageQueryProperties,
    sort: sortSchema(DOCUMENT_SORT_KEYS, '-created_at', 'created_at, name, size or id'),
  },
} as const;
export type DocumentListQuery = FromSchema<typeof documentListQuerySchema>;

// --- inbox ------------------------------------------------------------------------------

export const INBOX_STATUSES = ['new', 'extracted', 'failed', 'booked', 'discarded'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const INBOX_MEDIA_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

export const inboxUploadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'data'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'file name' },
    data: {
      type: 'string',
      minLength: 1,
      description: 'data:<media_type>;base64,<data>; or plain base64 when media_type is given',
    },
    media_type: {
      type: 'string',
      enum: INBOX_MEDIA_TYPES,
      description: 'the media type of plain base64 data (with a data URI, the URI names it)',
    },
  },
} as const;
export type InboxUpload = FromSchema<typeof inboxUploadSchema>;

const addressSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    street: { type: 'string', description: 'street, or address line 1 of a combined address' },
    house_number: { type: 'string', description: 'house number, or address line 2 of a combined address' },
    zip: { type: 'string' },
    city: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2' },
  },
} as const;

/** Swico S1 billing information (`//S1/10/…`), the tags the proposal uses. */
const billingSchema = {
  type: 'object',
  properties: {
    document_number: { type: 'string', description: '/10/ invoice number' },
    document_date: { ...dateSchema, description: '/11/ invoice date' },
    customer_reference: { type: 'string', description: '/20/' },
    vat_number: { type: 'string', description: "/30/ the creditor's UID (CHE…)" },
    payment_days: { type: 'integer', minimum: 0, description: '/40/ days net (condition with 0 % discount)' },
  },
} as const;

const proposedLineSchema = {
  type: 'object',
  required: ['account', 'amount'],
  properties: {
    account: accountNumberSchema,
    amount: amountSchema,
    taxAccount: accountNumberSchema,
    description: { type: 'string' },
  },
} as const;

export const proposalSchema = {
  type: 'object',
  required: ['bill', 'account_source'],
  properties: {
    bill: {
      type: 'object',
      description:
        'the draft bill (create_bill / POST /arap/transaction/vendor body); vendor_id is missing while the vendor is new',
      required: ['invDate', 'curr', 'taxincluded'],
      properties: {
        vendor_id: idSchema,
        invDate: dateSchema,
        dueDate: dateSchema,
        curr: currencySchema,
        documentNumber: { type: 'string' },
        description: { type: 'string' },
        taxincluded: { type: 'boolean', description: 'true: the QR-bill amount is gross' },
        lines: { type: 'array', items: proposedLineSchema, description: 'missing when the QR-bill has no amount' },
        vc_bank_id: idSchema,
        paymentReference: { type: 'string' },
      },
    },
    new_vendor: {
      type: 'object',
      description: 'created when the entry is booked (no vendor matched)',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        address1: { type: 'string' },
        street: { type: 'string' },
        zipcode: { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string' },
        taxnumber: { type: 'string' },
      },
    },
    new_bank_account: {
      type: 'object',
      description: "added to the vendor when the entry is booked (the vendor has no account with the QR-bill's IBAN)",
      required: ['iban'],
      properties: { iban: { type: 'string' } },
    },
    creditor_is_company: {
      type: 'boolean',
      description:
        "true: the QR-bill's creditor is the company itself (its own bank account or name): its own invoice, " +
        'not a bill; no new vendor or bank account is proposed',
    },
    account_source: {
      type: 'string',
      enum: ['last_bill', 'default', 'none'],
      description:
        "last_bill: the vendor's last posted bill's first line; default: the chart's first expense account; none: no account found",
    },
  },
} as const;
export type Proposal = FromSchema<typeof proposalSchema>;

export const extractedSchema = {
  type: 'object',
  required: ['creditor', 'iban', 'currency', 'reference_type', 'vendor', 'proposal'],
  properties: {
    creditor: addressSchema,
    iban: { type: 'string' },
    amount: { ...amountSchema, description: 'missing when the QR-bill leaves the amount open' },
    currency: { type: 'string', enum: ['CHF', 'EUR'] },
    reference_type: { type: 'string', enum: ['QRR', 'SCOR', 'NON'] },
    reference: { type: 'string' },
    message: { type: 'string', description: 'unstructured message' },
    billing_information: { type: 'string', description: 'structured billing information as printed (e.g. //S1/10/…)' },
    billing: billingSchema,
    debtor: addressSchema,
    vendor: {
      type: ['object', 'null'],
      description: 'the vendor the QR-bill matches; null: none (the proposal names a new vendor)',
      required: ['id', 'vendornumber', 'name', 'matched_by'],
      properties: {
        id: idSchema,
        vendornumber: { type: 'string' },
        name: { type: 'string' },
        matched_by: { type: 'string', enum: ['iban', 'name'] },
      },
    },
    proposal: proposalSchema,
  },
} as const;

export const inboxEntrySchema = {
  type: 'object',
  required: ['id', 'status', 'document_id', 'name', 'media_type', 'size', 'created_at', 'content_url'],
  properties: {
    id: idSchema,
    status: { type: 'string', enum: INBOX_STATUSES },
    document_id: idSchema,
    name: { type: 'string' },
    media_type: { type: 'string', enum: INBOX_MEDIA_TYPES },
    size: { type: 'integer', minimum: 0 },
    created_at: timestampSchema,
    extracted_at: timestampSchema,
    reason: { type: 'string', description: 'failed: why nothing could be read' },
    text: { type: 'string', description: 'the text found in a PDF (first 4000 characters)' },
    extracted: {
      ...extractedSchema,
      description:
        'the Swiss QR-bill found, the vendor it matches and the proposed bill; missing when the file carries none',
    },
    transaction_id: { ...idSchema, description: 'booked: the vendor transaction (draft bill) created' },
    content_url: { type: 'string', description: 'absolute URL of the file (GET /documents/{id}/content)' },
  },
} as const;

export const inboxListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: INBOX_STATUSES },
    ...pageQueryProperties,
    sort: sortSchema(['created_at', 'id'] as const, '-created_at', 'created_at or id'),
  },
} as const;

/** Fields of the proposal's bill an override may replace (the vendor transaction's own fields). */
const OVERRIDABLE = [
  'vendor_id',
  'vendornumber',
  'documentNumber',
  'invNumber',
  'invDate',
  'dueDate',
  'curr',
  'exchangerate',
  'recordAccount',
  'description',
  'taxincluded',
  'payment_file',
  'vc_bank_id',
  'paymentReference',
  'lines',
] as const;
type Overridable = (typeof OVERRIDABLE)[number];
const vendorFields = vendorTransactionSchema.properties;

export const inboxBookSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    overrides: {
      type: 'object',
      additionalProperties: false,
      description:
        "fields replacing the proposal's (a vendor transaction's fields); with vendor_id or vendornumber no new vendor is created",
      properties: Object.fromEntries(
        OVERRIDABLE.filter((k) => k in vendorFields).map((k) => [k, vendorFields[k as keyof typeof vendorFields]]),
      ) as {
        [K in Overridable & keyof typeof vendorFields]: (typeof vendorFields)[K];
      },
    },
  },
} as const;
export type InboxBook = FromSchema<typeof inboxBookSchema>;
