/**
 * Documents: every stored file of the company — attachments of AR/AP transactions,
 * invoices and journal entries, inbox uploads and the PDFs sent by e-mail — with the
 * records it is attached to (docs/documents.md). Read only: files are
 * written where they belong (attachments with their document, uploads through the inbox).
 * The name `documents.ts` is taken by the AR/AP documents reads (`/arap/documents/{vc}`).
 */
import { documentListQuerySchema, documentSchema } from '../schemas/files.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listStoredDocuments = contract({
  name: 'listStoredDocuments',
  method: 'GET',
  path: '/documents',
  summary: 'List stored documents (files)',
  description:
    'List documents (every stored file, once per content) with the records each is attached to; by kind and id of ' +
    'the record, source, media type, name, date stored; newest first unless `sort` says otherwise',
  example: examples.listStoredDocuments,
  permission: 'documents.documents',
  scope: 'documents:read',
  query: documentListQuerySchema,
  response: { type: 'array', items: documentSchema },
  list: true,
  errors: [],
});

export const getStoredDocument = contract({
  name: 'getStoredDocument',
  method: 'GET',
  path: '/documents/:id',
  summary: 'Read a stored document',
  description: 'One document: name, media type, size, SHA-256, when and how it came in, the records it is attached to',
  example: examples.getStoredDocument,
  permission: 'documents.documents',
  scope: 'documents:read',
  response: documentSchema,
  errors: [],
});

export const getDocumentContent = contract({
  name: 'getDocumentContent',
  method: 'GET',
  path: '/documents/:id/content',
  summary: "Download a stored document's content",
  description:
    'The bytes of a document with its media type, Content-Disposition and ETag (the SHA-256; If-None-Match → 304); ' +
    'one byte range with Range: bytes=… (206, Content-Range; 416 when it lies outside the file)',
  example: examples.getDocumentContent,
  permission: 'documents.documents',
  scope: 'documents:read',
  download: ['*/*'],
  errors: [],
});
