import { createHash } from 'node:crypto';
import type { AttachmentKind, DocumentListQuery, DocumentSource } from '@ledger/shared/schemas/files';
import type { Knex } from 'knex';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import { documentStore, type FileStore, type StorageKind } from './storage.ts';

/**
 * The SQL of documents (migration 013): `documents` holds one row per distinct content of
 * a company; the attachment tables (`arap_files`, `gl_files`, `message_attachments`) and
 * `inbox_entries` link records to them. Every function runs in the caller's tenant
 * transaction.
 */

export interface DocumentRow {
  id: number;
  sha256: string;
  name: string;
  media_type: string;
  size: number;
  source: DocumentSource;
  storage: StorageKind;
  created_at: Date;
}

export interface Attachment {
  kind: AttachmentKind;
  id: number;
  number: string | null;
}

export interface NewContent {
  name: string;
  mediaType: string;
  data: Buffer;
}

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Stores bytes once per company: the document of this content when the company has it
 * already (its first name, type and source stay), else a new document whose bytes go to
 * the configured store. Concurrent puts of the same bytes meet on the unique key.
 */
export async function putDocument(tx: Tx, companyId: number, content: NewContent, source: DocumentSource, store: FileStore = documentStore().store): Promise<DocumentRow> {
  const sha256 = sha256Hex(content.data);
  const inserted = (await tx('documents')
    .insert({
      company_id: companyId, sha256, name: content.name, media_type: content.mediaType, size: content.data.length, source, storage: store.kind,
    })
    .onConflict(['company_id', 'sha256'])
    .ignore()
    .returning(['id', 'sha256', 'name', 'media_type', 'size', 'source', 'storage', 'created_at'])) as DocumentRow[];
  if (inserted[0]) {
    await store.put(tx, { companyId, documentId: inserted[0].id, sha256 }, content.data);
    return inserted[0];
  }
  return (await tx('documents').where({ sha256 }).first()) as DocumentRow;
}

export async function documentRow(tx: Tx, id: number): Promise<DocumentRow | undefined> {
  return (await tx('documents').where({ id }).first()) as DocumentRow | undefined;
}

/** The bytes of a document, from the store it was written to. */
export async function documentBytes(tx: Tx, companyId: number, doc: Pick<DocumentRow, 'id' | 'sha256' | 'storage'>): Promise<Buffer> {
  const data = await documentStore().stores[doc.storage].get(tx, { companyId, documentId: doc.id, sha256: doc.sha256 });
  if (!data) throw new Error(`the bytes of document ${doc.id} are missing from the ${doc.storage} store`);
  return data;
}

let glFiles: Promise<boolean> | undefined;
/**
 * Journal entry attachments (`gl_files`) come with the journal module's migration; the
 * attachment list names them once the table exists (looked up once per process).
 */
async function hasGlFiles(tx: Tx): Promise<boolean> {
  glFiles ??= tx.raw(`select to_regclass('public.gl_files') is not null as present`).then((r: { rows: { present: boolean }[] }) => r.rows[0]!.present);
  const present = await glFiles;
  if (!present) glFiles = undefined; // look again next time: a migration may run while the ledger runs (tests)
  return present;
}

/** Every (document, record) link of the company as one relation: document_id, kind, id, number, at. */
async function attachmentsSql(tx: Tx): Promise<string> {
  const parts = [
    `select f.document_id, (t.vc || '_' || t.type) as kind, t.id, t.inv_number as number, f.created_at as at
       from arap_files f join arap_transactions t on t.id = f.transaction_id where f.document_id is not null`,
    `select a.document_id, 'email' as kind, a.message_id as id, null::text as number, m.created_at as at
       from message_attachments a join messages m on m.id = a.message_id where a.document_id is not null`,
    `select e.document_id, 'inbox' as kind, e.id, null::text as number, e.created_at as at from inbox_entries e`,
  ];
  if (await hasGlFiles(tx)) {
    parts.push(
      `select f.document_id, 'journal_entry' as kind, g.id, g.reference as number, f.created_at as at
         from gl_files f join gl_transactions g on g.id = f.journal_id where f.document_id is not null`,
    );
  }
  return parts.join(' union all ');
}

/** The records each document is attached to, oldest link first. */
export async function attachmentsOf(tx: Tx, documentIds: readonly number[]): Promise<Map<number, Attachment[]>> {
  const out = new Map<number, Attachment[]>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return out;
  const { rows } = await tx.raw<{ rows: (Attachment & { document_id: number })[] }>(
    `select document_id, kind, id, number from (${await attachmentsSql(tx)}) a
      where document_id = any(?) order by at, kind, id`,
    [documentIds as number[]],
  );
  for (const r of rows) out.get(r.document_id)?.push({ kind: r.kind, id: r.id, number: r.number });
  return out;
}

const DOCUMENT_ORDER = { created_at: 'd.created_at', name: 'lower(d.name)', size: 'd.size', id: 'd.id' };

export async function listDocumentRows(tx: Tx, q: DocumentListQuery): Promise<ListPage<DocumentRow>> {
  const where: string[] = [];
  const params: Knex.Value[] = [];
  if (q.kind !== undefined || q.attached_id !== undefined || q.unattached !== undefined) {
    const links = await attachmentsSql(tx);
    if (q.unattached) {
      where.push(`not exists (select 1 from (${links}) a where a.document_id = d.id)`);
    } else if (q.unattached === false || q.kind !== undefined || q.attached_id !== undefined) {
      const cond = ['a.document_id = d.id'];
      if (q.kind !== undefined) (cond.push('a.kind = ?'), params.push(q.kind));
      if (q.attached_id !== undefined) (cond.push('a.id = ?'), params.push(q.attached_id));
      where.push(`exists (select 1 from (${links}) a where ${cond.join(' and ')})`);
    }
  }
  if (q.source !== undefined) (where.push('d.source = ?'), params.push(q.source));
  if (q.media_type !== undefined) (where.push('d.media_type = ?'), params.push(q.media_type.toLowerCase()));
  if (q.name !== undefined) (where.push(`d.name ilike ? escape '\\'`), params.push(`%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (q.from !== undefined) (where.push(`d.created_at >= (?::date)::timestamp at time zone 'UTC'`), params.push(q.from));
  if (q.to !== undefined) (where.push(`d.created_at < ((?::date) + 1)::timestamp at time zone 'UTC'`), params.push(q.to));
  const whereSql = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const order = orderBySql(q.sort ?? '-created_at', DOCUMENT_ORDER, 'd.id');
  const { rows } = await tx.raw<{ rows: (DocumentRow & { total: number })[] }>(
    `select d.*, count(*) over () as total from documents d ${whereSql} order by ${order} limit ? offset ?`,
    [...params, q.limit ?? 100, q.offset ?? 0],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && (q.offset ?? 0) > 0) {
    const counted = await tx.raw<{ rows: { n: number }[] }>(`select count(*)::int as n from documents d ${whereSql}`, params);
    total = counted.rows[0]!.n;
  }
  return { rows: rows.map(({ total: _t, ...r }) => r), total: Number(total) };
}
