import { Money, type Vc } from '@ledger/shared';
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../db/knex.ts';
import type { PaymentAccount, PaymentLine } from './rules.ts';

/** The SQL that writes payments and their ledger lines. Every function runs inside the caller's transaction. */

export interface PayableRow {
  id: number;
  vc: Vc;
  type: 'transaction' | 'invoice';
  status: 'draft' | 'posted' | 'reversed';
  reversal_of_id: number | null;
  inv_date: string;
  currency: string;
  exchangerate: string;
  amount: string;
  paid: string;
  record_account_id: number;
}

const PAYABLE_COLUMNS = ['id', 'vc', 'type', 'status', 'reversal_of_id', 'inv_date', 'currency', 'exchangerate', 'amount', 'paid', 'record_account_id'];

/**
 * Locks the document row for the rest of the transaction, so two concurrent payments of it
 * queue here and the second sees the first one's `paid` (no overpayment by a race).
 */
export async function lockPayable(tx: Tx, vc: Vc, id: number): Promise<PayableRow | undefined> {
  const row = (await tx('arap_transactions').where({ id, vc }).forUpdate().first(PAYABLE_COLUMNS)) as PayableRow | undefined;
  return row && { ...row, currency: row.currency.trim() };
}

/** The document's own control line(s) in the base currency, as posted (payments' lines left out), as a positive amount. */
export async function controlBase(tx: Tx, documentId: number): Promise<Decimal> {
  const row = (await tx('ledger_entries')
    .where({ transaction_id: documentId, kind: 'control' })
    .whereNull('payment_id')
    .sum({ s: 'amount' })
    .first()) as { s: string | null } | undefined;
  return new Money(row?.s ?? 0).abs();
}

/** What the document's payments that are not reversed cleared on its control account (base currency). */
export async function clearedSoFar(tx: Tx, documentId: number): Promise<Decimal> {
  const row = (await tx('arap_payments')
    .where({ transaction_id: documentId })
    .whereNull('reversal_date')
    .sum({ s: 'cleared_base' })
    .first()) as { s: string | null } | undefined;
  return new Money(row?.s ?? 0);
}

export async function findAccount(tx: Tx, accno: string): Promise<PaymentAccount | undefined> {
  const row = (await tx('accounts').where({ accno }).first('id', 'accno', 'link')) as { id: number; accno: string; link: string } | undefined;
  return row && { id: row.id, accno: row.accno, links: row.link.split(':').filter(Boolean) };
}

export interface NewPayment {
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

export async function insertPayment(tx: Tx, companyId: number, p: NewPayment): Promise<number> {
  const [row] = (await tx('arap_payments').insert({ company_id: companyId, ...p }).returning('id')) as { id: number }[];
  return Number(row!.id);
}

export async function insertPaymentEntries(
  tx: Tx, companyId: number, p: { documentId: number; paymentId: number; date: string; currency: string }, lines: readonly PaymentLine[],
): Promise<void> {
  await tx('ledger_entries').insert(
    lines.map((l) => ({
      company_id: companyId,
      transaction_id: p.documentId,
      payment_id: p.paymentId,
      account_id: l.accountId,
      date: p.date,
      amount: l.amount.toString(),
      fx_amount: l.fxAmount.toString(),
      currency: p.currency,
      kind: l.kind,
    })),
  );
}

/** Adds to the document's `paid` (document currency; negative to take a reversed payment back). */
export async function addPaid(tx: Tx, documentId: number, delta: Decimal): Promise<void> {
  await tx('arap_transactions').where({ id: documentId }).update({ paid: tx.raw('paid + ?::numeric', [delta.toString()]), updated_at: tx.fn.now() });
}

export interface PaymentRow {
  id: number;
  vc: Vc;
  transaction_id: number;
  date: string;
  amount: string;
  currency: string;
  reversal_date: string | null;
}

/** Locks one payment of a side; undefined when it does not exist. */
export async function lockPayment(tx: Tx, vc: Vc, id: number): Promise<PaymentRow | undefined> {
  const row = (await tx('arap_payments')
    .where({ id, vc })
    .forUpdate()
    .first('id', 'vc', 'transaction_id', 'date', 'amount', 'currency', 'reversal_date')) as PaymentRow | undefined;
  return row && { ...row, currency: row.currency.trim() };
}

/** The ledger lines the payment itself posted (not those of its reversal). */
export async function paymentLines(tx: Tx, paymentId: number): Promise<PaymentLine[]> {
  const rows = (await tx('ledger_entries').where({ payment_id: paymentId }).orderBy('id').select('account_id', 'amount', 'fx_amount', 'kind')) as {
    account_id: number; amount: string; fx_amount: string; kind: PaymentLine['kind'];
  }[];
  return rows.map((r) => ({ accountId: r.account_id, amount: new Money(r.amount), fxAmount: new Money(r.fx_amount), kind: r.kind }));
}

export async function markReversed(tx: Tx, paymentId: number, date: string): Promise<void> {
  await tx('arap_payments').where({ id: paymentId }).update({ reversal_date: date, reversed_at: tx.fn.now() });
}
