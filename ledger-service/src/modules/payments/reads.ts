import { Money, toJsonNumber, type PaymentListQuery, type Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import { compact } from '../arap/index.ts';
import type { OpenDocument } from './rules.ts';

/** The read shapes of payments, and the open documents the aging report ages. */

interface PaymentReadRow {
  id: number;
  vc: Vc;
  transaction_id: number;
  document_kind: 'transaction' | 'invoice' | 'credit_note';
  kind: 'payment' | 'allocation';
  allocated_with_id: number | null;
  inv_number: string;
  party_id: number;
  party_number: string;
  party_name: string;
  date: string;
  amount: string;
  currency: string;
  exchangerate: string;
  accno: string;
  base_amount: string;
  cleared_base: string;
  memo: string | null;
  source: string | null;
  reversal_date: string | null;
  postings: { accno: string; amount: string; fx_amount: string; kind: 'payment' | 'fx'; date: string }[];
}

export type PaymentRead = Record<string, unknown> & { id: number; status: 'posted' | 'reversed' };

const SELECT = `select p.id, p.vc, p.transaction_id, t.type as document_kind, t.inv_number, t.party_id,
    pa.number as party_number, pa.name as party_name, p.date::text as date, p.amount::text as amount, p.currency,
    p.exchangerate::text as exchangerate, a.accno, p.base_amount::text as base_amount,
    p.cleared_base::text as cleared_base, p.kind, p.allocated_with_id, p.memo, p.source,
    p.reversal_date::text as reversal_date,
    (select coalesce(json_agg(json_build_object('accno', ea.accno, 'amount', e.amount::text,
         'fx_amount', e.fx_amount::text, 'kind', e.kind, 'date', e.date::text) order by e.id), '[]')
       from ledger_entries e join accounts ea on ea.company_id = e.company_id and ea.id = e.account_id
      where e.company_id = p.company_id and e.payment_id = p.id) as postings
  from arap_payments p
  join arap_transactions t on t.company_id = p.company_id and t.id = p.transaction_id
  join parties pa on pa.company_id = t.company_id and pa.id = t.party_id
  join accounts a on a.company_id = p.company_id and a.id = p.account_id`;

function toReadShape(r: PaymentReadRow): PaymentRead {
  const s = r.vc === 'customer' ? 1 : -1;
  return compact({
    id: Number(r.id),
    vc: r.vc,
    document_id: Number(r.transaction_id),
    document_kind: r.document_kind,
    invNumber: r.inv_number,
    [`${r.vc}_id`]: Number(r.party_id),
    [`${r.vc}number`]: r.party_number,
    name: r.party_name,
    date: r.date,
    amount: toJsonNumber(r.amount),
    currency: r.currency.trim(),
    exchangerate: toJsonNumber(r.exchangerate),
    account: r.accno,
    base_amount: toJsonNumber(r.base_amount),
    cleared_base_amount: toJsonNumber(r.cleared_base),
    // an allocation moves no cash: its difference of rates is on the document's FX line, not a gain of its own
    fx_gain_loss: r.kind === 'allocation' ? 0 : toJsonNumber(new Money(r.base_amount).minus(r.cleared_base).times(s)),
    kind: r.kind,
    allocated_with: r.allocated_with_id === null ? null : Number(r.allocated_with_id),
    memo: r.memo,
    source: r.source,
    status: r.reversal_date === null ? 'posted' : 'reversed',
    reversal_date: r.reversal_date,
    postings: r.postings.map((p) => ({
      account: p.accno,
      amount: toJsonNumber(p.amount),
      fxAmount: toJsonNumber(p.fx_amount),
      kind: p.kind,
      date: p.date,
    })),
  }) as PaymentRead;
}

export async function readPayment(tx: Tx, companyId: number, vc: Vc, id: number): Promise<PaymentRead | undefined> {
  const { rows } = await tx.raw<{ rows: PaymentReadRow[] }>(
    `${SELECT} where p.company_id = ? and p.id = ? and p.vc = ?`,
    [companyId, id, vc],
  );
  return rows[0] && toReadShape(rows[0]);
}

const PAYMENT_ORDER = { date: 'p.date', id: 'p.id' };

export async function listPayments(
  tx: Tx,
  companyId: number,
  vc: Vc,
  f: PaymentListQuery,
): Promise<ListPage<PaymentRead>> {
  const where: string[] = ['p.company_id = ?', 'p.vc = ?'];
  const bindings: unknown[] = [companyId, vc];
  /** a condition with its one parameter */
  const filter1 = (sql: string, value: unknown) => {
    where.push(sql);
    bindings.push(value);
  };
  if (f.document_id !== undefined) filter1('p.transaction_id = ?', f.document_id);
  const party = 'vendor_id' in f ? f.vendor_id : 'customer_id' in f ? f.customer_id : undefined;
  if (party !== undefined) filter1('t.party_id = ?', party);
  if (f.from !== undefined) filter1('p.date >= ?::date', f.from);
  if (f.to !== undefined) filter1('p.date <= ?::date', f.to);
  if (f.status !== undefined)
    where.push(f.status === 'posted' ? 'p.reversal_date is null' : 'p.reversal_date is not null');
  const filter = where.join(' and ');
  const { rows: counted } = await tx.raw<{ rows: { n: string }[] }>(
    `select count(*) as n from arap_payments p
       join arap_transactions t on t.company_id = p.company_id and t.id = p.transaction_id where ${filter}`,
    bindings as never[],
  );
  const { rows } = await tx.raw<{ rows: PaymentReadRow[] }>(
    `${SELECT} where ${filter} order by ${orderBySql(f.sort ?? 'date', PAYMENT_ORDER, 'p.id')} limit ? offset ?`,
    [...bindings, f.limit ?? 100, f.offset ?? 0] as never[],
  );
  return { rows: rows.map(toReadShape), total: Number(counted[0]?.n ?? 0) };
}

/**
 * The documents of a side open on `asOf`, with their open amount in the base currency: the
 * document's control line as posted (customer: receivable debit; vendor: payable credit,
 * sign turned) less what payments dated on or before `asOf` and not reversed by then cleared.
 * Documents dated after `asOf`, reversals, and documents reversed on or before `asOf` do not count.
 */
export async function openDocumentsAsOf(tx: Tx, companyId: number, vc: Vc, asOf: string): Promise<OpenDocument[]> {
  const { rows } = await tx.raw<{
    rows: { party_id: number; party_number: string; party_name: string; due: string; open_base: string }[];
  }>(
    `select t.party_id, pa.number as party_number, pa.name as party_name, coalesce(t.due_date, t.inv_date)::text as due,
        (? * (select coalesce(sum(e.amount), 0) from ledger_entries e
               where e.company_id = t.company_id and e.transaction_id = t.id and e.kind = 'control'
                 and e.payment_id is null)
         - (select coalesce(sum(p.cleared_base), 0) from arap_payments p
             where p.company_id = t.company_id and p.transaction_id = t.id and p.date <= ?::date
               and (p.reversal_date is null or p.reversal_date > ?::date)))::text as open_base
       from arap_transactions t
       join parties pa on pa.company_id = t.company_id and pa.id = t.party_id
       left join arap_transactions r on r.company_id = t.company_id and r.id = t.reversed_by_id
      where t.company_id = ? and t.vc = ? and t.status in ('posted', 'reversed') and t.reversal_of_id is null
        and t.inv_date <= ?::date and (r.id is null or r.inv_date > ?::date)
      order by t.id`,
    [vc === 'customer' ? 1 : -1, asOf, asOf, companyId, vc, asOf, asOf],
  );
  return rows.map((r) => ({
    partyId: Number(r.party_id),
    partyNumber: r.party_number,
    partyName: r.party_name,
    due: r.due,
    openBase: new Money(r.open_base),
  }));
}
