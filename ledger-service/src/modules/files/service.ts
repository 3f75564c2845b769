import type { DocumentListQuery, DocumentRead } from '@ledger/shared/schemas/files';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import { notFound } from '../../domain/errors.ts';
import {
  attachmentsOf,
  documentBytes,
  documentRow,
  listDocumentRows,
  type Attachment,
  type DocumentRow,
} from './store.ts';

/** Documents: the read shape (with the records each is attached to) and the bytes. */

/** `{base_url}/documents`, absolute, for the content URLs of read shapes. */
export type DocumentUrlBase = string;

function toRead(row: DocumentRow, attachedTo: Attachment[], urlBase: DocumentUrlBase): DocumentRead {
  return {
    id: row.id,
    name: row.name,
    media_type: row.media_type,
    size: Number(row.size),
    sha256: row.sha256,
    created_at: row.created_at.toISOString(),
    source: row.source,
    url: `${urlBase}/${row.id}/content`,
    attached_to: attachedTo as DocumentRead['attached_to'],
  };
}

export async function listDocuments(
  tx: Tx,
  companyId: number,
  q: DocumentListQuery,
  urlBase: DocumentUrlBase,
): Promise<ListPage<DocumentRead>> {
  const page = await listDocumentRows(tx, companyId, q);
  const links = await attachmentsOf(
    tx,
    companyId,
    page.rows.map((r) => r.id),
  );
  return { rows: page.rows.map((r) => toRead(r, links.get(r.id) ?? [], urlBase)), total: page.total };
}

export async function requireDocument(tx: Tx, companyId: number, id: number): Promise<DocumentRow> {
  const row = await documentRow(tx, companyId, id);
  if (!row) throw notFound(`No document with id ${id}.`);
  return row;
}

export async function readDocument(
  tx: Tx,
  companyId: number,
  id: number,
  urlBase: DocumentUrlBase,
): Promise<DocumentRead> {
  const row = await requireDocument(tx, companyId, id);
  const links = await attachmentsOf(tx, companyId, [id]);
  return toRead(row, links.get(id) ?? [], urlBase);
}

export async function documentContent(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<{ row: DocumentRow; data: Buffer }> {
  const row = await requireDocument(tx, companyId, id);
  return { row, data: await documentBytes(tx, companyId, row) };
}
