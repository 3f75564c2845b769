/**
 * Documents area (SPEC.md "Scopes": attached documents and the AI inbox; write: upload to
 * the AI inbox). REST `/documents` and `/documents/inbox` (DESIGN.md §5.6). A QR-bill upload
 * is read in the background: list_inbox shows the entry `extracted` with the proposed bill,
 * which create_bill (invoices scope) takes as it is.
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { idOf, summaries } from './summaries.ts';
import { isRecord } from './isRecord.ts';

export const documentTools: ToolDeclaration[] = [
  {
    name: 'list_documents',
    title: 'List documents',
    description:
      'Every stored file of the company once per content — attachments of bills, invoices and journal entries, inbox ' +
      'uploads, e-mailed PDFs — with name, media type, size, SHA-256 and the records it is attached to (kind, id, number). ' +
      'Filter by kind and attached_id of the record, source, media_type, name, from/to.',
    area: 'documents',
    access: 'read',
    contract: contracts.listStoredDocuments,
    listKey: 'documents',
    summary: summaries.list('document'),
  },
  {
    name: 'get_document',
    title: 'Get document',
    description: 'One document by id: name, media type, size, SHA-256, source, the records it is attached to and its content URL.',
    area: 'documents',
    access: 'read',
    contract: contracts.getStoredDocument,
    params: { id: 'document id' },
    summary: summaries.get('document'),
  },
  {
    name: 'list_inbox',
    title: 'List inbox',
    description:
      'Uploads to the AI inbox, newest first, filtered by status (new: being read; extracted: read — `extracted` holds the ' +
      'Swiss QR-bill found (creditor, IBAN, amount, currency, reference, message), the matched vendor and `proposal.bill`, ' +
      'a body for create_bill (create the vendor in `proposal.new_vendor` first when vendor_id is missing); failed: unreadable, ' +
      'with the reason; booked; discarded).',
    area: 'documents',
    access: 'read',
    contract: contracts.listInbox,
    listKey: 'entries',
    summary: summaries.list('inbox entry'),
  },
  {
    name: 'upload_to_inbox',
    title: 'Upload to inbox',
    description:
      'Upload a bill (PDF, PNG or JPEG) to the AI inbox: name, media_type and data as base64 (or data as a data URI). ' +
      'Answers at once with the entry (status new); a Swiss QR-bill on it is read in the background within seconds — ' +
      'call list_inbox to see it extracted with the proposed bill.',
    area: 'documents',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.uploadToInbox,
    summary: (result, input) =>
      `Uploaded ${typeof input.name === 'string' ? input.name : 'the file'} as inbox entry ${idOf(result, input)}` +
      `${isRecord(result) && typeof result.status === 'string' ? ` (${result.status})` : ''}.`,
  },
];
