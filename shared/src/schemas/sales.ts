/**
 * Sales documents besides invoices (docs/invoices.md): credit notes of an invoice and their
 * allocation to open documents, and quotes.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { dateSchema, idSchema } from './common.ts';
import { customerInvoiceSchema, invoiceItemSchema, invoiceReadSchema, readItem } from './invoice.ts';
import { pageQueryProperties } from './list.ts';

/** `POST /arap/invoice/{vc}/{id}/credit_note`: the whole invoice, or the items sent (positive quantities). */
export const creditNoteCreateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'reason'],
  properties: {
    date: { ...dateSchema, description: "the credit note's date (its VAT period); not before the invoice's" },
    reason: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', description: 'printed on the credit note' },
    items: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: invoiceItemSchema,
      description:
        'what is credited, as invoice items with positive quantities (stored negated); absent: every item of the ' +
        'invoice with its tax as invoiced',
    },
  },
} as const;

/** `POST /arap/credit_note/{vc}/{id}/allocate`: part of the credit note's open amount set against a document. */
export const creditAllocationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['document_id', 'amount'],
  properties: {
    document_id: {
      ...idSchema,
      description: 'an open, posted invoice or AR/AP transaction of the same party and currency',
    },
    amount: {
      type: 'number',
      exclusiveMinimum: 0,
      description: "in the documents' currency; at most the credit note's and the document's open amount",
    },
    date: { ...dateSchema, description: "the allocation date (aging); default the later of the two documents' dates" },
  },
} as const;

export const creditAllocationReadSchema = {
  type: 'object',
  required: ['credit_note_id', 'document_id', 'amount', 'date', 'credit_note_open', 'document_open'],
  properties: {
    credit_note_id: idSchema,
    document_id: idSchema,
    amount: { type: 'number' },
    date: dateSchema,
    credit_note_open: { type: 'number', description: "the credit note's open amount after (≤ 0)" },
    document_open: { type: 'number', description: "the document's open amount after" },
  },
} as const;

// --- quotes -------------------------------------------------------------------------------

export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'expired', 'invoiced'] as const;

const {
  type: _quoteType,
  pending: _quotePending,
  invNumber: _quoteInvNumber,
  dueDate: _quoteDueDate,
  files: _quoteFiles,
  ...quoteInvoiceFields
} = customerInvoiceSchema.properties;

/**
 * `POST /arap/quote/customer` and `POST /arap/quote/customer/{id}`: a customer invoice's body
 * (without posting, number, due date and files) plus its last day; `invDate` is the quote's date.
 */
export const quoteWriteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['invDate', 'items', 'valid_until'],
  properties: {
    ...quoteInvoiceFields,
    valid_until: { ...dateSchema, description: 'the last day the quote may be accepted; not before invDate' },
  },
} as const;

export const quoteStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: {
      type: 'string',
      enum: ['sent', 'accepted', 'declined'],
      description: 'what the customer did (sent: it was handed over by other means than e-mail)',
    },
  },
} as const;

const { customernumber: _quoteNumber, curr: _quoteCurr, ...quoteReadFields } = quoteInvoiceFields;

/** The read shape of a quote: its body with computed items and totals, number, status and the invoice it became. */
export const quoteReadSchema = {
  type: 'object',
  required: ['id', 'number', 'status', 'customer_id', 'invDate', 'valid_until', 'currency', 'grossAmount', 'items'],
  properties: {
    ...quoteReadFields,
    id: idSchema,
    number: { type: 'string' },
    status: { type: 'string', enum: QUOTE_STATUSES, description: 'expired: valid_until passed while draft or sent' },
    customer_id: idSchema,
    name: { type: 'string', description: "the customer's name" },
    invDate: dateSchema,
    valid_until: dateSchema,
    currency: { type: 'string' },
    description: { type: 'string' },
    notes: { type: 'string' },
    terms: { type: 'integer' },
    ordNumber: { type: 'string' },
    poNumber: { type: 'string' },
    items: { type: 'array', items: readItem },
    taxes: invoiceReadSchema.properties.taxes,
    netAmount: { type: 'number' },
    taxAmount: { type: 'number' },
    grossAmount: { type: 'number' },
    invoice_id: { type: ['integer', 'null'], description: 'the draft invoice it became' },
  },
} as const;

export const quoteListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: QUOTE_STATUSES },
    customer_id: idSchema,
    ...pageQueryProperties,
  },
} as const;

export const quoteListRowSchema = {
  type: 'object',
  required: ['id', 'number', 'status', 'customer_id', 'invDate', 'valid_until', 'currency', 'grossAmount'],
  properties: (({ items: _i, taxes: _t, ...rest }) => rest)(quoteReadSchema.properties),
} as const;

export type QuoteWrite = FromSchema<typeof quoteWriteSchema>;

/** `POST /arap/quote/customer/{id}/invoice`: optionally the invoice's date. */
export const quoteInvoiceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { invDate: { ...dateSchema, description: "the draft invoice's date; default today" } },
} as const;

// --- dunning runs ---------------------------------------------------------------------------

export const dunningRunSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date'],
  properties: {
    date: { ...dateSchema, description: "the run's day: days past due are counted to it, the fees booked on it" },
    dry_run: { type: 'boolean', default: false, description: 'true: only list what the run would send' },
  },
} as const;

const dunningItem = {
  type: 'object',
  required: ['invoice_id', 'level', 'fee', 'open'],
  properties: {
    invoice_id: idSchema,
    invNumber: { type: 'string' },
    customer_id: idSchema,
    name: { type: 'string' },
    level: { type: 'integer', minimum: 1, maximum: 3, description: 'the level the invoice reaches' },
    fee: { type: 'number', description: "the level's fee" },
    open: { type: 'number', description: "the invoice's open amount" },
    currency: { type: 'string' },
    days_overdue: { type: 'integer' },
    fee_transaction_id: { type: ['integer', 'null'], description: 'sent runs: the document booking the fee' },
    message_id: { type: ['integer', 'null'], description: 'sent runs: the e-mail (null: the customer has none)' },
  },
} as const;

export const dunningRunResultSchema = {
  type: 'object',
  required: ['items'],
  properties: {
    id: { ...idSchema, description: 'the run (absent on a dry run, or when nothing was due)' },
    date: dateSchema,
    items: { type: 'array', items: dunningItem },
  },
} as const;

export const dunningRunListSchema = {
  type: 'object',
  required: ['id', 'date', 'count'],
  properties: { id: idSchema, date: dateSchema, count: { type: 'integer' } },
} as const;

// --- recurring invoices ---------------------------------------------------------------------

export const RECURRING_UNITS = ['month', 'quarter', 'half_year', 'year'] as const;
export const RECURRING_MODES = ['draft', 'post', 'post_and_email'] as const;

// the customer by id (the read names it), the control account and shipping point the company's defaults
const {
  invDate: _templateDate,
  documentNumber: _templateDocumentNumber,
  customernumber: _templateCustomerNumber,
  recordAccount: _templateRecordAccount,
  shippingpoint: _templateShippingPoint,
  ...templateFields
} = quoteInvoiceFields;

/**
 * The invoice a recurring invoice makes each time: a customer invoice's body without its date (the schedule gives
 * it), number, due date, posting flag and files. Item texts may name the period: `{month}`, `{quarter}`, `{year}`.
 */
export const recurringTemplateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['customer_id', 'items'],
  properties: {
    ...templateFields,
    items: {
      ...quoteInvoiceFields.items,
      description:
        'as on an invoice; a description may name the period with {month}, {quarter} and {year}, written in the ' +
        "customer's language on each invoice",
    },
  },
} as const;

export const recurringScheduleSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['every', 'unit', 'day', 'start'],
  properties: {
    every: { type: 'integer', minimum: 1, maximum: 12, description: 'every n units' },
    unit: { type: 'string', enum: RECURRING_UNITS },
    day: {
      oneOf: [
        { type: 'integer', minimum: 1, maximum: 28 },
        { type: 'string', enum: ['last'] },
      ],
      description: "the invoice's day of the month: 1–28, or last (the month's last day)",
    },
    start: { ...dateSchema, description: 'the first invoice is the first date of the schedule on or after start' },
    end: { ...dateSchema, description: 'no invoice after this day; absent: no end' },
  },
} as const;

/** `POST /arap/recurring/customer` and `POST /arap/recurring/customer/{id}`: template, schedule and mode. */
export const recurringWriteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['template', 'schedule', 'mode'],
  properties: {
    template: recurringTemplateSchema,
    schedule: recurringScheduleSchema,
    mode: {
      type: 'string',
      enum: RECURRING_MODES,
      description: 'draft: each invoice a draft; post: posted; post_and_email: posted and e-mailed to the customer',
    },
  },
} as const;

export type RecurringWrite = FromSchema<typeof recurringWriteSchema>;
export type RecurringSchedule = FromSchema<typeof recurringScheduleSchema>;

/** The read shape of a recurring invoice. */
export const recurringReadSchema = {
  type: 'object',
  required: ['id', 'customer_id', 'template', 'schedule', 'mode', 'status', 'next_date', 'last_date', 'currency'],
  properties: {
    id: idSchema,
    customer_id: idSchema,
    name: { type: 'string', description: "the customer's name" },
    template: recurringTemplateSchema,
    schedule: recurringScheduleSchema,
    mode: { type: 'string', enum: RECURRING_MODES },
    status: {
      type: 'string',
      enum: ['active', 'paused', 'ended'],
      description: 'ended: no date of the schedule is left',
    },
    currency: { type: 'string' },
    grossAmount: { type: 'number', description: 'of each invoice, as the invoice rules computed it when written' },
    next_date: { type: ['string', 'null'], format: 'date', description: 'the next invoice date; null: ended' },
    last_date: { type: ['string', 'null'], format: 'date', description: 'the date of the last invoice made' },
    invoice_count: { type: 'integer', description: 'invoices made so far' },
    last_error: {
      type: ['string', 'null'],
      description: 'why the last attempt to make a due invoice failed (retried by the job); null when it worked',
    },
  },
} as const;

export const recurringListRowSchema = recurringReadSchema;

export const recurringListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['active', 'paused', 'ended'] },
    customer_id: idSchema,
    ...pageQueryProperties,
  },
} as const;

export const recurringPreviewQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { count: { type: 'integer', minimum: 1, maximum: 60, default: 12, description: 'how many dates' } },
} as const;

export const recurringPreviewSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['date', 'grossAmount'],
    properties: { date: dateSchema, grossAmount: { type: 'number' } },
  },
} as const;
