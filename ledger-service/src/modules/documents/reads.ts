import { parseSort, type DocumentKindName, type Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import { notFound } from '../../domain/errors.ts';
import { listInvoices, readInvoice } from '../invoices/index.ts';
import {
  listTransactions,
  readTransaction,
  type ListFilter,
  type ReadOptions,
  type TransactionRead,
} from '../arap/index.ts';

/**
 * Documents of both kinds on one side (docs/invoices.md "Documents of both kinds"): AR/AP transactions and invoices
 * with items, each in the read shape of its kind plus `kind`. No SQL of its own: the two modules' read functions
 * answer, and this module only merges.
 */

/** Where each kind's file download URLs point (its own REST resource). */
export interface DocumentReadOptions {
  transaction: ReadOptions;
  invoice: ReadOptions;
}

/** One document by id: the transaction or the invoice with that id on the side; 404 for neither. */
export async function readAnyDocument(
  tx: Tx,
  companyId: number,
  vc: Vc,
  id: number,
  opts: DocumentReadOptions,
): Promise<TransactionRead> {
  const transaction = await readTransaction(tx, companyId, vc, id, opts.transaction);
  if (transaction) return { kind: 'transaction', ...transaction };
  // invoices carry kind "invoice" in their own read shape
  const invoice = await readInvoice(tx, companyId, vc, id, opts.invoice);
  if (invoice) return invoice;
  throw notFound(`No ${vc} document (transaction or invoice) with id ${id}.`);
}

export type DocumentListFilter = ListFilter & { kind?: DocumentKindName };

type Row = Record<string, unknown>;

/** The order both lists use: the sort key, then id in the same direction (ids are unique over both kinds). */
function comparator(sort: string): (a: Row, b: Row) => number {
  const { key, descending } = parseSort(sort);
  const field = key === 'inv_date' ? 'invDate' : 'id';
  const cmp = (x: unknown, y: unknown) => (x === y ? 0 : String(x ?? '') < String(y ?? '') ? -1 : 1);
  const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);
  const asc = (a: Row, b: Row) => (field === 'id' ? byId(a, b) : cmp(a[field], b[field]) || byId(a, b));
  return descending ? (a, b) => asc(b, a) : asc;
}

/** Merges two lists sorted by `compare` into one sorted list. */
function mergeSorted(a: Row[], b: Row[], compare: (x: Row, y: Row) => number): Row[] {
  const out: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  return out.concat(a.slice(i), b.slice(j));
}

const EMPTY: ListPage<Row> = { rows: [], total: 0 };

/**
 * One page of both kinds in one order. Each kind's list answers its first offset + limit
 * rows in that order; merged, the page is the slice [offset, offset + limit), and the total
 * the sum of both totals. (Deep pages read offset + limit rows of each kind.)
 */
export async function listAnyDocuments(
  tx: Tx,
  companyId: number,
  vc: Vc,
  f: DocumentListFilter,
  today: string,
): Promise<ListPage<Row>> {
  const { kind, limit, offset, ...filters } = f;
  const window = { ...filters, limit: offset + limit, offset: 0 };
  const transactions = kind === 'invoice' ? EMPTY : await listTransactions(tx, companyId, vc, window);
  const invoices = kind === 'transaction' ? EMPTY : await listInvoices(tx, companyId, vc, window, today);
  const merged = mergeSorted(
    transactions.rows.map((r) => ({ kind: 'transaction', ...r })),
    invoices.rows,
    comparator(f.sort),
  );
  return { rows: merged.slice(offset, offset + limit), total: transactions.total + invoices.total };
}
