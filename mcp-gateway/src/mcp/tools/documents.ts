/**
 * Documents area (docs/assistants.md: attached documents and the AI inbox; write: upload to
 * the AI inbox). REST `/documents` and `/documents/inbox` (docs/documents.md). A QR-bill upload
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
      'Find stored files (attachments, inbox uploads, sent PDFs) by the record they belong to, source, type, name or ' +
      'date.',
    area: 'documents',
    access: 'read',
    contract: contracts.listStoredDocuments,
    listKey: 'documents',
    rowsAs: 'get_document',
    summary: summaries.list('document'),
  },
  {
    name: 'get_document',
    title: 'Get document',
    description: "One stored file's details, with a link to read its content.",
    area: 'documents',
    access: 'read',
    contract: contracts.getStoredDocument,
    params: { id: 'document id' },
    summary: summaries.get('document'),
    // the bytes are read as a resource when needed
    link: (input, doc) => ({
      path: `documents/${idOf(doc, input)}`,
      name: isRecord(doc) && typeof doc.name === 'string' ? doc.name : `document-${idOf(doc, input)}`,
      ...(isRecord(doc) && typeof doc.media_type === 'string' ? { mimeType: doc.media_type } : {}),
      ...(isRecord(doc) && typeof doc.size === 'number' ? { size: doc.size } : {}),
    }),
  },
  {
    name: 'list_inbox',
    title: 'List inbox',
    description:
      'AI inbox uploads by status; an extracted one carries the QR-bill read from it and a proposed body for ' +
      'create_bill.',
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
      'Upload a bill (PDF, PNG or JPEG, base64) to the AI inbox; its QR-bill is read in the background (see ' +
      'list_inbox).',
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
