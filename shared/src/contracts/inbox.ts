/**
 * The AI inbox (docs/documents.md): bills uploaded as PDF or image; a
 * Swiss QR-bill on them is read in the background and turned into a proposed bill, which
 * POST …/book creates as a draft vendor transaction with the file attached.
 */
import { idSchema } from '../schemas/common.ts';
import { inboxBookSchema, inboxEntrySchema, inboxListQuerySchema, inboxUploadSchema } from '../schemas/files.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listInbox = contract({
  name: 'listInbox',
  method: 'GET',
  path: '/documents/inbox',
  summary: 'List inbox entries',
  description:
    'List inbox entries (status new, extracted, failed, booked or discarded), newest first unless `sort` says ' +
    'otherwise',
  example: examples.listInbox,
  permission: 'documents.documents',
  scope: 'documents:read',
  query: inboxListQuerySchema,
  response: { type: 'array', items: inboxEntrySchema },
  list: true,
  errors: [],
});

export const uploadToInbox = contract({
  name: 'uploadToInbox',
  method: 'POST',
  path: '/documents/inbox',
  summary: 'Upload a bill to the AI inbox',
  description:
    'Upload a PDF, PNG or JPEG to the inbox (multipart/form-data with one part "file", or JSON with a data URI); ' +
    'answers 201 with the entry at once (status new) — a Swiss QR-bill on it is read in the background. ' +
    'The type is told by the bytes: anything else is 415',
  example: examples.uploadToInbox,
  permission: 'documents.upload',
  scope: 'documents:write',
  effect: 'none',
  body: inboxUploadSchema,
  multipart: { filePart: 'file' },
  response: inboxEntrySchema,
  status: 201,
  location: '/documents/inbox/{id}',
  errors: [],
});

export const getInboxEntry = contract({
  name: 'getInboxEntry',
  method: 'GET',
  path: '/documents/inbox/:id',
  summary: 'Read an inbox entry',
  description:
    'One inbox entry: its file, status, the text and QR-bill found, the matched vendor and the proposed bill',
  example: examples.getInboxEntry,
  permission: 'documents.documents',
  scope: 'documents:read',
  response: inboxEntrySchema,
  errors: [],
});

export const bookInboxEntry = contract({
  name: 'bookInboxEntry',
  method: 'POST',
  path: '/documents/inbox/:id/book',
  summary: 'Book the proposed bill of an inbox entry',
  description:
    'Create the draft bill (vendor transaction) of an extracted entry from its proposal and `overrides`, with the ' +
    'file attached; creates the proposed vendor and its bank account first. 409 unless the entry is extracted',
  // creating the bill is the vendor transaction page's job; a new vendor also needs vendors.add_vendor (checked by the
  // workflow)
  example: examples.bookInboxEntry,
  permission: 'vendors.postings.vendor_transaction',
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: inboxBookSchema,
  response: {
    type: 'object',
    required: ['id', 'transaction_id'],
    properties: { id: idSchema, transaction_id: idSchema, vendor_id: idSchema },
  },
  status: 201,
  // what the booking creates is the bill, not the inbox entry
  location: '/arap/transaction/vendor/{transaction_id}',
  errors: ['conflict', 'closed_period', 'vat_period_filed', 'vc_not_found', 'amount_exceeded'],
});

export const discardInboxEntry = contract({
  name: 'discardInboxEntry',
  method: 'DELETE',
  path: '/documents/inbox/:id',
  summary: 'Discard an inbox entry',
  description: 'Discard an inbox entry (status discarded); its file stays a document. 409 for booked entries',
  example: examples.discardInboxEntry,
  permission: 'documents.upload',
  scope: 'documents:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});
