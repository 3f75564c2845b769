/**
 * Sales documents besides invoices (rules in docs/invoices.md): credit notes of a posted invoice
 * (`/arap/invoice/{vc}/{id}/credit_note`) and their allocation to open documents; quotes
 * (`/arap/quote/customer`); recurring invoices (`/arap/recurring/customer`); dunning runs.
 */
import {
  createdSchema,
  creditAllocationReadSchema,
  creditAllocationSchema,
  creditNoteCreateSchema,
  documentPdfQuerySchema,
  dunningRunListSchema,
  dunningRunResultSchema,
  dunningRunSchema,
  emailInvoiceSchema,
  messageQueuedSchema,
  pageQuerySchema,
  quoteInvoiceSchema,
  quoteListQuerySchema,
  quoteListRowSchema,
  quoteReadSchema,
  quoteStatusSchema,
  quoteWriteSchema,
  recurringListQuerySchema,
  recurringListRowSchema,
  recurringPreviewQuerySchema,
  recurringPreviewSchema,
  recurringReadSchema,
  recurringWriteSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const createCreditNote = contract({
  name: 'createCreditNote',
  method: 'POST',
  path: '/arap/invoice/:vc/:id/credit_note',
  summary: { vendor: 'Record a credit note of a vendor invoice', customer: 'Issue a credit note of an invoice' },
  description:
    'A posted credit note (type credit_note, negative amounts, its own number sequence) linked to the posted ' +
    'invoice: it reverses revenue (expense) and VAT of the items sent, or of the whole invoice, at the ' +
    "invoice's tax accounts; VAT counts in the period of `date`. Its gross may not exceed the invoice's open amount " +
    '(400 amount_exceeded). Read, PDF and e-mail like an invoice; its open amount is allocated or refunded',
  example: examples.createCreditNote,
  permission: { vendor: 'vendors.postings.reverse', customer: 'customers.postings.reverse' },
  scope: 'invoices:write',
  effect: 'posts',
  body: creditNoteCreateSchema,
  status: 201,
  location: '/arap/invoice/:vc/{id}',
  response: createdSchema,
  errors: ['amount_exceeded', 'conflict', 'closed_period'],
});

export const allocateCreditNote = contract({
  name: 'allocateCreditNote',
  method: 'POST',
  path: '/arap/credit_note/:vc/:id/allocate',
  summary: { vendor: 'Set a vendor credit note against a bill', customer: 'Set a credit note against an invoice' },
  description:
    "Lowers the credit note's and the document's open amounts by `amount`, without a cash line: the document must " +
    'be posted and open, of the same party and currency; the amount at most either open amount (400 ' +
    'overpayment). The aging and the control account stay equal',
  example: examples.allocateCreditNote,
  permission: { vendor: 'vendors.postings.payment', customer: 'customers.postings.receipt' },
  scope: 'invoices:write',
  effect: 'pays',
  body: creditAllocationSchema,
  response: creditAllocationReadSchema,
  errors: ['overpayment', 'conflict', 'closed_period'],
});

// --- quotes ---------------------------------------------------------------------------------

const quoteRead = 'customers.reports.transactions';
const quoteWrite = 'customers.postings.sales_invoice';

export const createQuote = contract({
  name: 'createQuote',
  method: 'POST',
  path: '/arap/quote/customer',
  summary: 'Create a quote',
  description:
    'A quote (Offerte) to a customer: an invoice body checked by the invoice rules (items, accounts, tax) and a ' +
    'last day `valid_until`; numbered from its own sequence, status draft. A quote never touches the ledger',
  example: examples.createQuote,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'none',
  body: quoteWriteSchema,
  status: 201,
  location: '/arap/quote/customer/{id}',
  response: createdSchema,
  errors: [],
});

export const getQuote = contract({
  name: 'getQuote',
  method: 'GET',
  path: '/arap/quote/customer/:id',
  summary: 'Read a quote',
  description:
    'One quote: its items with amounts and tax, totals, status (expired once valid_until passed) and invoice',
  example: examples.getQuote,
  permission: quoteRead,
  scope: 'invoices:read',
  response: quoteReadSchema,
  errors: [],
});

export const updateQuote = contract({
  name: 'updateQuote',
  method: 'POST',
  path: '/arap/quote/customer/:id',
  summary: 'Change a quote',
  description: 'Replace a draft or sent quote with the complete quote sent; answers the read shape (409 otherwise)',
  example: examples.updateQuote,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'none',
  body: quoteWriteSchema,
  response: quoteReadSchema,
  errors: ['conflict'],
});

export const deleteQuote = contract({
  name: 'deleteQuote',
  method: 'DELETE',
  path: '/arap/quote/customer/:id',
  summary: 'Delete a quote',
  description: 'Delete a quote that has not become an invoice (409 otherwise)',
  example: examples.deleteQuote,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});

export const listQuotes = contract({
  name: 'listQuotes',
  method: 'GET',
  path: '/arap/quotes/customer',
  summary: 'List quotes',
  description: 'Quotes, newest first, by status or customer',
  example: examples.listQuotes,
  permission: quoteRead,
  scope: 'invoices:read',
  query: quoteListQuerySchema,
  response: { type: 'array', items: quoteListRowSchema },
  list: true,
  errors: [],
});

export const getQuotePdf = contract({
  name: 'getQuotePdf',
  method: 'GET',
  path: '/arap/quote/customer/:id/pdf',
  summary: 'Download a quote as PDF',
  description:
    'The quote as PDF (title Offerte / Offre / Offerta / Quote, its items, totals and last day, no payment part), ' +
    "in the language asked for (?language=), else the customer's, else the company's",
  example: examples.getQuotePdf,
  permission: quoteRead,
  scope: 'invoices:read',
  query: documentPdfQuerySchema,
  download: ['application/pdf'],
  errors: [],
});

export const emailQuote = contract({
  name: 'emailQuote',
  method: 'POST',
  path: '/arap/quote/customer/:id/email',
  summary: 'E-mail a quote',
  description:
    "E-mail the quote's PDF (to the customer's e-mail unless `to` is given), in the customer's language; a draft " +
    'becomes sent. Queued durably, answered 202 with the message id',
  example: examples.emailQuote,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'sends',
  body: emailInvoiceSchema,
  status: 202,
  response: messageQueuedSchema,
  errors: ['conflict'],
});

export const setQuoteStatus = contract({
  name: 'setQuoteStatus',
  method: 'POST',
  path: '/arap/quote/customer/:id/status',
  summary: 'Record what the customer did with a quote',
  description:
    'sent, accepted or declined: from draft or sent (an expired quote may still be declined); an invoiced quote ' +
    'keeps its status (409)',
  example: examples.setQuoteStatus,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'none',
  body: quoteStatusSchema,
  response: quoteReadSchema,
  errors: ['conflict'],
});

export const invoiceQuote = contract({
  name: 'invoiceQuote',
  method: 'POST',
  path: '/arap/quote/customer/:id/invoice',
  summary: 'Turn a quote into a draft invoice',
  description:
    "A draft customer invoice with the quote's customer, items and fields, dated today (or `invDate`); the quote " +
    'becomes invoiced and names it. A declined, expired or already invoiced quote is a 409',
  example: examples.invoiceQuote,
  permission: quoteWrite,
  scope: 'invoices:write',
  effect: 'none',
  body: quoteInvoiceSchema,
  status: 201,
  location: '/arap/invoice/customer/{id}',
  response: createdSchema,
  errors: ['conflict'],
});

// --- dunning runs ---------------------------------------------------------------------------

export const runDunning = contract({
  name: 'runDunning',
  method: 'POST',
  path: '/arap/dunning/run',
  summary: 'Run the reminders (or only list them)',
  description:
    "Every posted, overdue, unpaid customer invoice that reaches its next dunning level on `date` (the company's " +
    'dunning settings), with the fee. With dry_run only the list; else each gets its reminder PDF (open amount, fee, ' +
    'a new due date, a QR payment part) by e-mail, the fee booked, the level recorded. An invoice is never sent the ' +
    'same level twice. Without dunning settings: 409',
  example: examples.runDunning,
  permission: 'customers.postings.receipt',
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: dunningRunSchema,
  response: dunningRunResultSchema,
  errors: ['conflict', 'closed_period'],
});

export const listDunningRuns = contract({
  name: 'listDunningRuns',
  method: 'GET',
  path: '/arap/dunning/runs',
  summary: 'List dunning runs',
  description: 'The runs that sent reminders, newest first, with how many each sent',
  example: examples.listDunningRuns,
  permission: 'customers.reports.transactions',
  scope: 'invoices:read',
  query: pageQuerySchema,
  response: { type: 'array', items: dunningRunListSchema },
  list: true,
  errors: [],
});

export const getDunningRun = contract({
  name: 'getDunningRun',
  method: 'GET',
  path: '/arap/dunning/runs/:id',
  summary: 'Read a dunning run',
  description: 'One run: each invoice it reminded with the level, fee, open amount, fee document and e-mail',
  example: examples.getDunningRun,
  permission: 'customers.reports.transactions',
  scope: 'invoices:read',
  response: dunningRunResultSchema,
  errors: [],
});

// --- recurring invoices ---------------------------------------------------------------------

const recurringRead = 'customers.reports.transactions';
const recurringWrite = 'customers.postings.sales_invoice';

export const createRecurring = contract({
  name: 'createRecurring',
  method: 'POST',
  path: '/arap/recurring/customer',
  summary: 'Create a recurring invoice',
  description:
    'An invoice template (checked by the invoice rules), a schedule (every n months, quarters, half-years or years ' +
    'on day 1–28 or the last, from start to an optional end) and a mode (draft, post, post_and_email). The ' +
    "ledger's job makes each due invoice exactly once, dated on its own day, also after a downtime; each carries " +
    'recurring_id',
  example: examples.createRecurring,
  permission: recurringWrite,
  scope: 'invoices:write',
  effect: 'posts',
  body: recurringWriteSchema,
  status: 201,
  location: '/arap/recurring/customer/{id}',
  response: createdSchema,
  errors: [],
});

export const getRecurring = contract({
  name: 'getRecurring',
  method: 'GET',
  path: '/arap/recurring/customer/:id',
  summary: 'Read a recurring invoice',
  description: 'Template, schedule, mode, status, the next and last invoice date and how many invoices it made',
  example: examples.getRecurring,
  permission: recurringRead,
  scope: 'invoices:read',
  response: recurringReadSchema,
  errors: [],
});

export const updateRecurring = contract({
  name: 'updateRecurring',
  method: 'POST',
  path: '/arap/recurring/customer/:id',
  summary: 'Change a recurring invoice',
  description:
    'Replace template, schedule and mode: only invoices made from now on follow (the ones made stay as they are); ' +
    'the next date is the first of the new schedule after the last invoice made',
  example: examples.updateRecurring,
  permission: recurringWrite,
  scope: 'invoices:write',
  effect: 'posts',
  body: recurringWriteSchema,
  response: recurringReadSchema,
  errors: [],
});

export const deleteRecurring = contract({
  name: 'deleteRecurring',
  method: 'DELETE',
  path: '/arap/recurring/customer/:id',
  summary: 'Delete a recurring invoice',
  description: 'No further invoices; the invoices it made stay (their recurring_id is cleared)',
  example: examples.deleteRecurring,
  permission: recurringWrite,
  scope: 'invoices:write',
  effect: 'deletes',
  status: 204,
  errors: [],
});

export const listRecurring = contract({
  name: 'listRecurring',
  method: 'GET',
  path: '/arap/recurring/customer',
  summary: 'List recurring invoices',
  description: 'Recurring invoices by next date, by status or customer',
  example: examples.listRecurring,
  permission: recurringRead,
  scope: 'invoices:read',
  query: recurringListQuerySchema,
  response: { type: 'array', items: recurringListRowSchema },
  list: true,
  errors: [],
});

export const pauseRecurring = contract({
  name: 'pauseRecurring',
  method: 'POST',
  path: '/arap/recurring/customer/:id/pause',
  summary: 'Pause a recurring invoice',
  description:
    'No invoice is made while paused; the dates that pass meanwhile are skipped, not caught up (409 when ended)',
  example: examples.pauseRecurring,
  permission: recurringWrite,
  scope: 'invoices:write',
  effect: 'none',
  response: recurringReadSchema,
  errors: ['conflict'],
});

export const resumeRecurring = contract({
  name: 'resumeRecurring',
  method: 'POST',
  path: '/arap/recurring/customer/:id/resume',
  summary: 'Resume a recurring invoice',
  description: "Invoices again from the schedule's first date from today on (409 when not paused)",
  example: examples.resumeRecurring,
  permission: recurringWrite,
  scope: 'invoices:write',
  effect: 'posts',
  response: recurringReadSchema,
  errors: ['conflict'],
});

export const previewRecurring = contract({
  name: 'previewRecurring',
  method: 'GET',
  path: '/arap/recurring/customer/:id/preview',
  summary: 'Preview the next invoices of a recurring invoice',
  description: 'The next `count` dates (default 12) with the gross amount of each invoice; none while paused',
  example: examples.previewRecurring,
  permission: recurringRead,
  scope: 'invoices:read',
  query: recurringPreviewQuerySchema,
  response: recurringPreviewSchema,
  errors: [],
});
