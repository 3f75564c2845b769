import type { AttachmentKind, DocumentListQuery, DocumentSource } from '@ledger/shared/schemas/files';
import type { Knex } from 'knex';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import { sha256Hex } from '../../domain/hash.ts';
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

export { sha256Hex };

/**
 * Stores bytes once per company: the document of this content when the company has it
 * already (its first name, type and source stay), else a new document whose bytes go to
 * the configured store. Concurrent puts of the same bytes meet on the unique key.
 */
export async function putDocument(
  tx: Tx,
  companyId: number,
  content: NewContent,
  source: DocumentSource,
  store: FileStore = documentStore().store,
): Promise<DocumentRow> {
  const sha256 = sha256Hex(content.data);
  const inserted = await tx('documents')
    .insert({
      company_id: companyId,
      sha256,
      name: content.name,
      media_type: content.mediaType,
      size: content.data.length,
      source,
      storage: store.kind,
    })
    .onConflict(['company_id', 'sha256'])
    .ignore()
    .returning(['id', 'sha256', 'name', 'media_type', 'size', 'source', 'storage', 'created_at']);
  if (inserted[0]) {
    await store.put(tx, { companyId, documentId: inserted[0].id, sha256 }, content.data);
    return inserted[0];
  }
  const existing = await tx('documents').where({ company_id: companyId, sha256 }).first();
  if (!existing) throw new Error(`document ${sha256} neither inserted nor found`);
  return existing;
}

export async function documentRow(tx: Tx, companyId: number, id: number): Promise<DocumentRow | undefined> {
  return tx('documents').where({ company_id: companyId, id }).first();
}

/** The bytes of a document, from the store it was written to. */
export async function documentBytes(
  tx: Tx,
  companyId: number,
  doc: Pick<DocumentRow, 'id' | 'sha256' | 'storage'>,
): Promise<Buffer> {
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
  glFiles ??= tx
    .raw(`select to_regclass('public.gl_files') is not null as present`)
    .then((r: { rows: { present: boolean }[] }) => r.rows[0]!.present);
  const present = await glFiles;
  if (!present) glFiles = undefined; // look again next time: a migration may run while the ledger runs (tests)
  return present;
}

/**
 * Every (document, record) link of the company as one relation: document_id, kind, id, number, at;
 * `bindings` are its parameters (the company id, once per part), in the order of the text.
 */
async function attachmentsSql(tx: Tx, companyId: number): Promise<{ sql: string; bindings: number[] }> {
  const parts = [
    `select f.document_id, (t.vc || '_' || t.type) as kind, t.id, t.inv_number as number, f.created_at as at
       from arap_files f join arap_transactions t on t.company_id = f.company_id and t.id = f.transaction_id
      where f.company_id = ? and f.document_id is not null`,
    `select a.document_id, 'email' as kind, a.message_id as id, null::text as number, m.created_at as at
       from message_attachments a join messages m on m.company_id = a.company_id and m.id = a.message_id
      where a.company_id = ? and a.document_id is not null`,
    `select e.document_id, 'inbox' as kind, e.id, null::text as number, e.created_at as at from inbox_entries e
      where e.company_id = ?`,
  ];
  if (await hasGlFiles(tx)) {
    parts.push(
      `select f.document_id, 'journal_entry' as kind, g.id, g.reference as number, f.created_at as at
         from gl_files f join gl_transactions g on g.company_id = f.company_id and g.id = f.journal_id
        where f.company_id = ? and f.document_id is not null`,
    );
  }
  return { sql: parts.join(' union all '), bindings: parts.map(() => companyId) };
}

/** The records each document is attached to, oldest link first. */
export async function attachmentsOf(
  tx: Tx,
  companyId: number,
  documentIds: readonly number[],
): Promise<Map<number, Attachment[]>> {
  const out = new Map<number, Attachment[]>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return out;
  const links = await attachmentsSql(tx, companyId);
  const { rows } = await tx.raw<{ rows: (Attachment & { document_id: number })[] }>(
    `select document_id, kind, id, number from (${links.sql}) a
      where document_id = any(?) order by at, kind, id`,
    [...links.bindings, documentIds as number[]],
  );
  for (const r of rows) out.get(r.document_id)?.push({ kind: r.kind, id: r.id, number: r.number });
  return out;
}

const DOCUMENT_ORDER = { created_at: 'd.created_at', name: 'lower(d.name)', size: 'd.size', id: 'd.id' };

export async function listDocumentRows(
  tx: Tx,
  companyId: number,
  q: DocumentListQuery,
): Promise<ListPage<DocumentRow>> {
  const where: string[] = ['d.company_id = ?'];
  const params: Knex.Value[] = [companyId];
  if (q.kind !== undefined || q.attached_id !== undefined || q.unattached !== undefined) {
    const links = await attachmentsSql(tx, companyId);
    if (q.unattached) {
      where.push(`not exists (select 1 from (${links.sql}) a where a.document_id = d.id)`);
      params.push(...links.bindings);
    } else if (q.unattached === false || q.kind !== undefined || q.attached_id !== undefined) {
      params.push(...links.bindings);
      const cond = ['a.document_id = d.id'];
      if (q.kind !== undefined) {
        cond.push('a.kind = ?');
        params.push(q.kind);
      }
      if (q.attached_id !== undefined) {
        cond.push('a.id = ?');
        params.push(q.attached_id);
      }
      where.push(`exists (select 1 from (${links.sql}) a where ${cond.join(' and ')})`);
    }
  }
  /** a condition with its one parameter */
  const filter = (sql: string, value: Knex.Value) => {
    where.push(sql);
    params.push(value);
  };
  if (q.source !== undefined) filter('d.source = ?', q.source);
  if (q.media_type !== undefined) filter('d.media_type = ?', q.media_type.toLowerCase());
  if (q.name !== undefined) filter(`d.name ilike ? escape '\\'`, `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.from !== undefined) filter(`d.created_at >= (?::date)::timestamp at time zone 'UTC'`, q.from);
  if (q.to !== undefined) filter(`d.created_at < ((?::date) + 1)::timestamp at time zone 'UTC'`, q.to);
  const whereSql = `where ${where.join(' and ')}`;
  const order = orderBySql(q.sort ?? '-created_at', DOCUMENT_ORDER, 'd.id');
  const { rows } = await tx.raw<{ rows: (DocumentRow & { total: number })[] }>(
    `select d.*, count(*) over () as total from documents d ${whereSql} order by ${order} limit ? offset ?`,
    [...params, q.limit ?? 100, q.offset ?? 0],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && (q.offset ?? 0) > 0) {
    const counted = await tx.raw<{ rows: { n: number }[] }>(
      `select count(*)::int as n from documents d ${whereSql}`,
      params,
    );
    total = counted.rows[0]!.n;
  }
  return { rows: rows.map(({ total: _t, ...r }) => r), total: Number(total) };
}

/** The tables that link files to what they are attached to, with the column naming the owner. */
const ATTACHMENT_TABLES = { arap_files: 'transaction_id', gl_files: 'journal_id' } as const;
export type AttachmentTable = keyof typeof ATTACHMENT_TABLES;

/**
 * Attaches files to an AR/AP document (`arap_files`) or a journal entry (`gl_files`), except
 * those whose name and content (SHA-256) equal a file it already has or an earlier file of the
 * same call: a client that sends the complete document back (GET → POST, approve) does not
 * attach its files again. The bytes go to the document store, once per company; the row links
 * the document. Returns how many files were added. The one de-duplication of every attachment
 * table.
 */
export async function attachFiles(
  tx: Tx,
  companyId: number,
  table: AttachmentTable,
  ownerId: number,
  files: readonly NewContent[],
): Promise<number> {
  if (files.length === 0) return 0;
  const owner = ATTACHMENT_TABLES[table];
  const key = (name: string, sha256: string) => `${sha256}:${name}`;
  const hashed = files.map((f) => ({ ...f, sha256: sha256Hex(f.data) }));
  const existing: { name: string; sha256: string }[] = await tx(table)
    .where({ company_id: companyId, [owner]: ownerId })
    .whereIn('sha256', [...new Set(hashed.map((f) => f.sha256))])
    .select('name', 'sha256');
  const seen = new Set(existing.map((f) => key(f.name, f.sha256)));
  const fresh = hashed.filter((f) => {
    if (seen.has(key(f.name, f.sha256))) return false;
    seen.add(key(f.name, f.sha256));
    return true;
  });
  const rows = [];
  for (const f of fresh) {
    const doc = await putDocument(tx, companyId, f, 'upload');
    rows.push({
      company_id: companyId,
      [owner]: ownerId,
      name: f.name,
      media_type: f.mediaType,
      size: f.data.length,
      sha256: f.sha256,
      document_id: doc.id,
    });
  }
  if (rows.length > 0) await tx(table).insert(rows);
  return fresh.length;
}
