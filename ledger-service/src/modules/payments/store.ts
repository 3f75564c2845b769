import { Money, type Vc } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import type { PaymentAccount, PaymentLine } from './rules.ts';

/** The SQL that writes payments and their ledger lines. Every function runs inside the caller's transaction. */

export interface PayableRow {
  id: number;
  vc: Vc;
  type: 'transaction' | 'invoice' | 'credit_note';
  status: 'draft' | 'posted' | 'reversed';
  party_id: number;
  reversal_of_id: number | null;
  inv_date: string;
  currency: string;
  exchangerate: string;
  amount: string;
  paid: string;
  record_account_id: number;
}

const PAYABLE_COLUMNS = [
  'id',
  'vc',
  'type',
  'status',
  'reversal_of_id',
  'party_id',
  'inv_date',
  'currency',
  'exchangerate',
  'amount',
  'paid',
  'record_account_id',
];

/**
 * Locks the document row for the rest of the transaction, so two concurrent payments of it
 * queue here and the second sees the first one's `paid` (no overpayment by a race).
 */
export async function lockPayable(tx: Tx, companyId: number, vc: Vc, id: number): Promise<PayableRow | undefined> {
  const row = await tx('arap_transactions')
    .where({ company_id: companyId, id, vc })
    .forUpdate()
    .first<PayableRow | undefined>(PAYABLE_COLUMNS);
  return row && { ...row, currency: row.currency.trim() };
}

/**
 * Locks the documents of a batch of payments (the rows that exist on the side) in one
 * statement, ordered by id so two batches over the same documents lock in the same order and
 * never wait for each other crosswise.
 */
export async function lockPayables(
  tx: Tx,
  companyId: number,
  vc: Vc,
  ids: readonly number[],
): Promise<Map<number, PayableRow>> {
  const rows = await tx('arap_transactions')
    .where({ company_id: companyId, vc })
    .whereIn('id', [...new Set(ids)])
    .orderBy('id')
    .forUpdate()
    .select<PayableRow[]>(PAYABLE_COLUMNS);
  return new Map(rows.map((r) => [Number(r.id), { ...r, currency: r.currency.trim() }]));
}

export interface DocumentCleared {
  /** the document's own control line(s) in the base currency, as posted (payments' lines left out), positive */
  controlBase: Decimal;
  /** what the document's payments that are not reversed cleared on its control account (base currency) */
  clearedSoFar: Decimal;
}

/**
 * Both sums per document in one round trip. Read after the documents are locked (a statement
 * of its own, so it sees what a payment that held the lock before committed).
 */
export async function documentsCleared(
  tx: Tx,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, DocumentCleared>> {
  const { rows } = await tx.raw<{ rows: { id: string | number; control_base: string; cleared_so_far: string }[] }>(
    `
    select d.id,
      (select coalesce(sum(e.amount), 0) from ledger_entries e where e.company_id = c.id
        and e.transaction_id = d.id and e.kind = 'control' and e.payment_id is null)::text as control_base,
      (select coalesce(sum(p.cleared_base), 0) from arap_payments p where p.company_id = c.id
        and p.transaction_id = d.id and p.reversal_date is null)::text as cleared_so_far
    from unnest(?::bigint[]) as d(id), (select ?::bigint as id) as c`,
    [[...new Set(ids)], companyId],
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { controlBase: new Money(r.control_base).abs(), clearedSoFar: new Money(r.cleared_so_far) },
    ]),
  );
}

/** The chart accounts of the given numbers, by number (those that do not exist are absent). */
export async function findAccounts(
  tx: Tx,
  companyId: number,
  accnos: readonly string[],
): Promise<Map<string, PaymentAccount>> {
  const rows = await tx('accounts')
    .where({ company_id: companyId })
    .whereIn('accno', [...new Set(accnos)])
    .select('id', 'accno', 'link');
  return new Map(
    rows.map((r) => [r.accno, { id: Number(r.id), accno: r.accno, links: r.link.split(':').filter(Boolean) }]),
  );
}

export interface NewPayment {
  /** default a payment */
  kind?: 'payment' | 'allocation';
  allocated_with_id?: number;
  vc: Vc;
  transaction_id: number;
  date: string;
  amount: string;
  currency: string;
  exchangerate: string;
  account_id: number;
  base_amount: string;
  cleared_base: string;
  memo: string | null;
  source: string | null;
}

/**
 * `n` new payment ids, drawn from the table's sequence in one round trip, so the payments,
 * their ledger lines and audit entries can be written as whole batches that name them
 * (a multi-row INSERT … RETURNING does not promise its rows' order).
 */
export async function nextPaymentIds(tx: Tx, n: number): Promise<number[]> {
  const { rows } = await tx.raw<{ rows: { id: string | number }[] }>(
    `select nextval(pg_get_serial_sequence('arap_payments', 'id')) as id from generate_series(1, ?::int) order by 1`,
    [n],
  );
  return rows.map((r) => Number(r.id));
}

/** Rows per INSERT: 12 columns × 500 stays far below Postgres's 65,535 bind parameters. */
const INSERT_CHUNK = 500;

/** Inserts rows in statements of INSERT_CHUNK, in order (one statement for any usual batch). */
export async function insertRows(tx: Tx, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx(table).insert(rows.slice(i, i + INSERT_CHUNK));
}

export async function insertPayments(
  tx: Tx,
  companyId: number,
  payments: readonly (NewPayment & { id: number })[],
): Promise<void> {
  await insertRows(
    tx,
    'arap_payments',
    payments.map((p) => ({ company_id: companyId, ...p })),
  );
}

/** The ledger_entries rows of one payment's lines (to insert with other payments' in one statement). */
export function paymentEntryRows(
  companyId: number,
  p: { documentId: number; paymentId: number; date: string; currency: string },
  lines: readonly PaymentLine[],
): Record<string, unknown>[] {
  return lines.map((l) => ({
    company_id: companyId,
    transaction_id: p.documentId,
    payment_id: p.paymentId,
    account_id: l.accountId,
    date: p.date,
    amount: l.amount.toString(),
    fx_amount: l.fxAmount.toString(),
    currency: p.currency,
    kind: l.kind,
  }));
}

/**
 * Adds to each document's `paid` in one statement (document currency). One delta per
 * document: UPDATE … FROM applies only one matching source row to a target row.
 */
export async function addPaidMany(tx: Tx, companyId: number, deltas: ReadonlyMap<number, Decimal>): Promise<void> {
  if (deltas.size === 0) return;
  await tx.raw(
    `
    update arap_transactions a set paid = a.paid + x.delta, updated_at = now()
    from jsonb_to_recordset(?::jsonb) as x(id bigint, delta numeric)
    where a.company_id = ? and a.id = x.id`,
    [JSON.stringify([...deltas].map(([id, delta]) => ({ id, delta: delta.toString() }))), companyId],
  );
}

export async function insertPaymentEntries(
  tx: Tx,
  companyId: number,
  p: { documentId: number; paymentId: number; date: string; currency: string },
  lines: readonly PaymentLine[],
): Promise<void> {
  await tx('ledger_entries').insert(paymentEntryRows(companyId, p, lines));
}

/** Adds to the document's `paid` (document currency; negative to take a reversed payment back). */
export async function addPaid(tx: Tx, companyId: number, documentId: number, delta: Decimal): Promise<void> {
  await tx('arap_transactions')
    .where({ company_id: companyId, id: documentId })
    .update({ paid: tx.raw('paid + ?::numeric', [delta.toString()]), updated_at: tx.fn.now() });
}

export interface PaymentRow {
  id: number;
  vc: Vc;
  transaction_id: number;
  date: string;
  amount: string;
  currency: string;
  reversal_date: string | null;
  kind: 'payment' | 'allocation';
}

/** Locks one payment of a side; undefined when it does not exist. */
export async function lockPayment(tx: Tx, companyId: number, vc: Vc, id: number): Promise<PaymentRow | undefined> {
  const row = await tx('arap_payments')
    .where({ company_id: companyId, id, vc })
    .forUpdate()
    .first('id', 'vc', 'transaction_id', 'date', 'amount', 'currency', 'reversal_date', 'kind');
  return row && { ...row, currency: row.currency.trim() };
}

interface PaymentLineRow {
  account_id: number;
  amount: string;
  fx_amount: string;
  kind: PaymentLine['kind'];
}

/** The ledger lines the payment itself posted (not those of its reversal). */
export async function paymentLines(tx: Tx, companyId: number, paymentId: number): Promise<PaymentLine[]> {
  const rows = await tx('ledger_entries')
    .where({ company_id: companyId, payment_id: paymentId })
    .orderBy('id')
    .select<PaymentLineRow[]>('account_id', 'amount', 'fx_amount', 'kind');
  return rows.map((r) => ({
    accountId: r.account_id,
    amount: new Money(r.amount),
    fxAmount: new Money(r.fx_amount),
    kind: r.kind,
  }));
}

export async function markReversed(tx: Tx, companyId: number, paymentId: number, date: string): Promise<void> {
  await tx('arap_payments')
    .where({ company_id: companyId, id: paymentId })
    .update({ reversal_date: date, reversed_at: tx.fn.now() });
}
