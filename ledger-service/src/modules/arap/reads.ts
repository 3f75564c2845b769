import { Money, roundTo, toJsonNumber } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import type { DocumentType, HeaderRow } from './store.ts';
import type { Vc } from './posting.ts';
import { taxTotals } from './tax.ts';
import { documentBytes, type StorageKind } from '../files/index.ts';
import { paymentStatus } from './rules.ts';
import type { MessageStatus } from '../outbox/index.ts';

/** The read shapes of AR/AP transactions: one document with its lines, tax, postings and files; and list rows. */

interface LineRow {
  accno: string;
  description: string | null;
  amount: string;
  tax_accno: string | null;
  tax_rate: string | null;
  tax_amount: string;
  net: string;
  dimensions: Record<string, string> | null;
}
interface PostingRow {
  accno: string;
  amount: string;
  fx_amount: string;
}
interface FileRow {
  id: number;
  name: string;
  media_type: string;
  size: number;
}
interface DocumentRow extends HeaderRow {
  party_number: string;
  party_name: string;
  record_accno: string;
  lines: LineRow[];
  postings: PostingRow[];
  files: FileRow[];
}

export type TransactionRead = Record<string, unknown> & { id: number; status: string };

/** Drops null and undefined fields: the read shape only carries what is set. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}

export interface ReadOptions {
  /** absolute URL of `/client/{dataset}/arap/transaction/{vc}`; file download URLs extend it */
  fileUrlBase: string;
  baseCurrency: string;
}

export async function readTransaction(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  opts: ReadOptions,
): Promise<TransactionRead | undefined> {
  return readDocument(tx, companyId, vc, id, opts, 'transaction');
}

/** The read shape of one document of a type; invoices (modules/invoices/reads.ts) add their items to it. */
export async function readDocument(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  opts: ReadOptions,
  type: DocumentType,
): Promise<TransactionRead | undefined> {
  const { rows } = await tx.raw<{ rows: DocumentRow[] }>(
    `select t.*, p.number as party_number, p.name as party_name, ra.accno as record_accno,
       (select coalesce(json_agg(json_build_object(
           'accno', a.accno, 'description', l.description, 'amount', l.amount::text, 'tax_accno', ta.accno,
           'tax_rate', l.tax_rate::text, 'tax_amount', l.tax_amount::text, 'net', l.net::text,
           'dimensions', l.dimensions)
           order by l.position), '[]')
          from arap_lines l join accounts a on a.id = l.account_id
          left join accounts ta on ta.id = l.tax_account_id
         where l.transaction_id = t.id) as lines,
       (select coalesce(json_agg(json_build_object(
           'accno', a.accno, 'amount', e.amount::text, 'fx_amount', e.fx_amount::text) order by e.id), '[]')
          from ledger_entries e join accounts a on a.id = e.account_id
         where e.transaction_id = t.id and e.payment_id is null) as postings,
       (select coalesce(json_agg(json_build_object(
           'id', f.id, 'name', f.name, 'media_type', f.media_type, 'size', f.size) order by f.id), '[]')
          from arap_files f where f.transaction_id = t.id) as files
     from arap_transactions t
     join parties p on p.id = t.party_id and p.company_id = t.company_id
     join accounts ra on ra.id = t.record_account_id and ra.company_id = t.company_id
     where t.company_id = ? and t.id = ? and t.vc = ? and t.type = ?`,
    [companyId, id, vc, type],
  );
  const row = rows[0];
  return row && toReadShape(row, opts.fileUrlBase, opts.baseCurrency);
}

/** `taxes` of the read shape: the stored lines summed per tax account, as posting summed them. */
function taxesOf(lines: LineRow[]) {
  const totals = taxTotals(
    lines.map((l) => ({
      taxAccount: l.tax_accno,
      rate: l.tax_rate === null ? null : new Money(l.tax_rate),
      net: l.net,
      tax: l.tax_amount,
    })),
  );
  return totals.map((t) =>
    compact({
      taxAccount: t.taxAccount,
      rate: t.rate === null ? null : toJsonNumber(t.rate),
      base: toJsonNumber(t.base),
      amount: toJsonNumber(t.amount),
    }),
  );
}

function toReadShape(row: DocumentRow, fileUrlBase: string, baseCurrency: string): TransactionRead {
  const vc = row.vc;
  const currency = row.currency.trim();
  const gross = new Money(row.amount);
  return compact({
    id: row.id,
    type: row.type,
    vc,
    [`${vc}_id`]: row.party_id,
    [`${vc}number`]: row.party_number,
    name: row.party_name,
    invNumber: row.inv_number,
    documentNumber: row.document_number,
    invDate: row.inv_date,
    dueDate: row.due_date,
    currency,
    exchangerate: toJsonNumber(row.exchangerate),
    recordAccount: row.record_accno,
    description: row.description,
    taxincluded: row.taxincluded,
    status: row.status,
    ...(vc === 'vendor'
      ? { payment_file: row.payment_file ? 1 : 0, vc_bank_id: row.vc_bank_id, paymentReference: row.payment_reference }
      : {}),
    reversalOf: row.reversal_of_id,
    reversedBy: row.reversed_by_id,
    lines: row.lines.map((l) => {
      const net = new Money(l.net);
      return compact({
        account: l.accno,
        description: l.description,
        amount: toJsonNumber(l.amount),
        taxAccount: l.tax_accno,
        taxRate: l.tax_rate === null ? null : toJsonNumber(l.tax_rate),
        taxAmount: toJsonNumber(l.tax_amount),
        net: toJsonNumber(net),
        gross: toJsonNumber(net.plus(l.tax_amount)),
        dimensions: l.dimensions ?? undefined,
      });
    }),
    taxes: taxesOf(row.lines),
    netAmount: toJsonNumber(row.net_amount),
    taxAmount: toJsonNumber(row.tax_amount),
    grossAmount: toJsonNumber(gross),
    baseGrossAmount: toJsonNumber(baseGross(row, baseCurrency)),
    ...paymentFields(row),
    postings: row.postings.map((p) => ({
      account: p.accno,
      amount: toJsonNumber(p.amount),
      fxAmount: toJsonNumber(p.fx_amount),
    })),
    files: row.files.map((f) => ({
      id: f.id,
      name: f.name,
      mediaType: f.media_type,
      size: f.size,
      url: `${fileUrlBase}/${row.id}/files/${f.id}`,
    })),
  }) as TransactionRead;
}

/** paid, open (gross − paid) and payment_status, in the document currency: every read of a document carries them. */
function paymentFields(row: Pick<HeaderRow, 'amount' | 'paid'>) {
  return {
    paid: toJsonNumber(row.paid),
    open: toJsonNumber(new Money(row.amount).minus(row.paid)),
    payment_status: paymentStatus(row.amount, row.paid),
  };
}

/**
 * Gross in the base currency, rounded to its minor unit, with the document's sign (a
 * reversal or credit note is negative in both currencies). Rounding is half away from zero,
 * so a reversal's base gross is exactly the negation of the original's.
 */
function baseGross(row: DocumentRow, baseCurrency: string): Decimal {
  return roundTo(new Money(row.amount).times(row.exchangerate), baseCurrency);
}

export interface ListFilter {
  document_number?: string;
  inv_number?: string;
  status?: string;
  from?: string;
  to?: string;
  vendor_id?: number;
  customer_id?: number;
  vendornumber?: string;
  customernumber?: string;
  payment_file?: 0 | 1;
  sort: string;
  limit: number;
  offset: number;
}

const TRANSACTION_ORDER = { inv_date: 't.inv_date', id: 't.id' };

type ListedRow = HeaderRow & { party_number: string; party_name: string };
type Query = ReturnType<Tx>;

/**
 * One page of AR/AP documents of one type with the filters every kind shares; `narrow` adds
 * a kind's own filters, `columns` its own select list entries. The count runs on the same
 * filtered query, so X-Total-Count matches the pages.
 */
export async function listDocumentRows<R extends object = object>(
  tx: Tx,
  companyId: number,
  vc: Vc,
  type: DocumentType,
  f: ListFilter,
  order: Record<string, string>,
  kind: { narrow?: (q: Query) => void; columns?: ReturnType<Tx['raw']>[] } = {},
): Promise<ListPage<ListedRow & R>> {
  const q = tx('arap_transactions as t')
    .join('parties as p', (j) => j.on('p.id', 't.party_id').andOn('p.company_id', 't.company_id'))
    .where({ 't.company_id': companyId, 't.vc': vc, 't.type': type });
  if (f.document_number !== undefined) q.where('t.document_number', f.document_number);
  if (f.inv_number !== undefined) q.where('t.inv_number', f.inv_number);
  if (f.status !== undefined) q.where('t.status', f.status);
  if (f.from !== undefined) q.where('t.inv_date', '>=', f.from);
  if (f.to !== undefined) q.where('t.inv_date', '<=', f.to);
  const partyId = vc === 'vendor' ? f.vendor_id : f.customer_id;
  const partyNumber = vc === 'vendor' ? f.vendornumber : f.customernumber;
  if (partyId !== undefined) q.where('t.party_id', partyId);
  if (partyNumber !== undefined) q.where('p.number', partyNumber);
  if (f.payment_file !== undefined) q.where('t.payment_file', f.payment_file === 1);
  kind.narrow?.(q);
  const counted = await q.clone().count({ n: '*' }).first();
  const rows = (await q
    .orderByRaw(orderBySql(f.sort, order, 't.id'))
    .limit(f.limit)
    .offset(f.offset)
    .select('t.*', 'p.number as party_number', 'p.name as party_name', ...(kind.columns ?? []))) as (ListedRow & R)[];
  return { rows, total: Number(counted?.n ?? 0) };
}

/** The header fields of a list row, as every kind shows them. */
export function listRowHeader(vc: Vc, r: ListedRow): Record<string, unknown> {
  return compact({
    id: r.id,
    [`${vc}_id`]: r.party_id,
    [`${vc}number`]: r.party_number,
    name: r.party_name,
    invNumber: r.inv_number,
    documentNumber: r.document_number,
    invDate: r.inv_date,
    dueDate: r.due_date,
    currency: r.currency.trim(),
    exchangerate: toJsonNumber(r.exchangerate),
    description: r.description,
    status: r.status,
    netAmount: toJsonNumber(r.net_amount),
    taxAmount: toJsonNumber(r.tax_amount),
    grossAmount: toJsonNumber(r.amount),
    ...paymentFields(r),
    ...(vc === 'vendor'
      ? { payment_file: r.payment_file ? 1 : 0, vc_bank_id: r.vc_bank_id, paymentReference: r.payment_reference }
      : {}),
  });
}

export async function listTransactions(
  tx: Tx,
  companyId: number,
  vc: Vc,
  f: ListFilter,
): Promise<ListPage<Record<string, unknown>>> {
  const { rows, total } = await listDocumentRows(tx, companyId, vc, 'transaction', f, TRANSACTION_ORDER);
  return { rows: rows.map((r) => listRowHeader(vc, r)), total };
}

/** An attachment's row with where its bytes are (readFile). */
interface FileRow {
  name: string;
  media_type: string;
  data: Buffer | null;
  company_id: number;
  document_id: number | null;
  sha256: string;
  storage: StorageKind;
}

export async function readFile(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  fileId: number,
  type: DocumentType = 'transaction',
) {
  const row = await tx('arap_files as f')
    .join('arap_transactions as t', (j) => j.on('t.id', 'f.transaction_id').andOn('t.company_id', 'f.company_id'))
    .leftJoin('documents as d', (j) => j.on('d.id', 'f.document_id').andOn('d.company_id', 'f.company_id'))
    .where({ 'f.company_id': companyId, 'f.id': fileId, 'f.transaction_id': id, 't.vc': vc, 't.type': type })
    .first<FileRow | undefined>(
      'f.name',
      'f.media_type',
      'f.data',
      'f.company_id',
      'd.id as document_id',
      'd.sha256',
      'd.storage',
    );
  if (!row) return undefined;
  // the bytes live in the document store (modules/files, migration 013), once per company
  const data =
    row.data ??
    (await documentBytes(tx, row.company_id, { id: row.document_id!, sha256: row.sha256, storage: row.storage }));
  return { name: row.name, media_type: row.media_type, data };
}

// --- the messages about a document ------------------------------------------------------
// Written by the outbox (modules/outbox/store.ts); read here because they are part of a document's read shape
// (an invoice's `emails` and `reminder_level`), and the core does not depend on the kinds built on it.

/** One row of an invoice's `emails` list. */
/** A document's currency (trimmed), when the company has a document of that side with that id. */
export async function documentCurrency(tx: Tx, companyId: number, vc: Vc, id: number): Promise<string | undefined> {
  const row = await tx('arap_transactions').where({ company_id: companyId, id, vc }).first('currency');
  return row?.currency.trim();
}

export interface MessageSummary {
  id: number;
  to: string;
  at: string;
  status: MessageStatus;
}

interface MessageRow {
  id: number;
  to_addresses: string[];
  status: MessageStatus;
  created_at: Date;
  sent_at: Date | null;
}

/** The messages about one document, oldest first (the invoice's `emails`). */
export async function listDocumentMessages(
  tx: Tx,
  companyId: number,
  transactionId: number,
): Promise<MessageSummary[]> {
  const rows = await tx('messages')
    .where({ company_id: companyId, transaction_id: transactionId })
    .orderBy('id')
    .select<MessageRow[]>('id', 'to_addresses', 'status', 'created_at', 'sent_at');
  return rows.map((r) => ({
    id: r.id,
    to: r.to_addresses.join(', '),
    at: (r.sent_at ?? r.created_at).toISOString(),
    status: r.status,
  }));
}

/** SQL of the number of reminders queued for the document `t.id` (its `reminder_level`). */
export const REMINDER_COUNT_SQL =
  "(select count(*) from messages m where m.transaction_id = t.id and m.kind = 'reminder')::int";

/** The reminders queued for one document, whatever their sending status (the invoice's `reminder_level`). */
export async function countReminders(tx: Tx, companyId: number, transactionId: number): Promise<number> {
  const row = await tx('messages')
    .where({ company_id: companyId, transaction_id: transactionId, kind: 'reminder' })
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}
