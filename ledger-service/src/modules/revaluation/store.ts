import type { Tx } from '../../db/knex.ts';
import type { RevaluationItem, RevaluationsRow } from '../../db/tables.ts';

/** The SQL of revaluations: the open foreign-currency items at a date, and the revaluations kept. */

export interface OpenItemRow {
  kind: 'customer' | 'vendor' | 'bank';
  id: number;
  currency: string;
  /** the item's account (control account of the document, the bank account's ledger account) */
  account_id: number;
  /** sums of its lines up to the date, ledger signs: in its currency and in the base currency */
  fx: string;
  base: string;
}

/**
 * Posted AR/AP documents in a foreign currency dated on or before `date` (reversed ones and
 * reversals left out) with their control lines (document and payments) up to `date`; and the
 * bank accounts in a foreign currency with their ledger account's lines up to `date` (the
 * currency's lines for the amount in it, every line for the base value).
 */
export async function openItems(tx: Tx, companyId: number, date: string, base: string): Promise<OpenItemRow[]> {
  const { rows } = await tx.raw<{ rows: OpenItemRow[] }>(
    `select t.vc as kind, t.id, t.currency, t.record_account_id as account_id,
            coalesce(sum(e.fx_amount), 0)::text as fx, coalesce(sum(e.amount), 0)::text as base
       from arap_transactions t
       join ledger_entries e on e.company_id = t.company_id and e.transaction_id = t.id and e.kind = 'control'
        and e.date <= ?
      where t.company_id = ? and t.status = 'posted' and t.reversal_of_id is null and t.inv_date <= ?
        and t.currency <> ?
      group by t.vc, t.id, t.currency, t.record_account_id
     union all
     select 'bank' as kind, b.id, b.currency, b.account_id,
            coalesce(sum(e.fx_amount) filter (where e.currency = b.currency), 0)::text as fx,
            coalesce(sum(e.amount), 0)::text as base
       from bank_accounts b
       left join ledger_entries e on e.company_id = b.company_id and e.account_id = b.account_id and e.date <= ?
      where b.company_id = ? and b.currency <> ?
      group by b.id, b.currency, b.account_id
      order by 1, 2`,
    [date, companyId, date, base, date, companyId, base],
  );
  return rows;
}

/** The revaluation of `date`, if there is one. */
export async function revaluationOn(tx: Tx, companyId: number, date: string): Promise<RevaluationsRow | undefined> {
  return tx('revaluations').where({ company_id: companyId, date }).first();
}

/** The items of earlier revaluations whose entry still stands (posted, not reversed). */
export async function standingItems(tx: Tx, companyId: number, before: string): Promise<RevaluationItem[]> {
  const rows = await tx('revaluations as r')
    .join('gl_transactions as g', function () {
      this.on('g.company_id', 'r.company_id').andOn('g.id', 'r.journal_id');
    })
    .where('r.company_id', companyId)
    .andWhere('r.date', '<', before)
    .andWhere('g.status', 'posted')
    .select<{ items: RevaluationItem[] }[]>('r.items');
  return rows.flatMap((r) => r.items);
}

/** Keeps a revaluation (jsonb travels as JSON text: an array would otherwise become a Postgres array). */
export async function insertRevaluation(
  tx: Tx,
  companyId: number,
  row: Omit<RevaluationsRow, 'id' | 'company_id' | 'created_at'>,
): Promise<void> {
  await tx.raw(
    `insert into revaluations (company_id, date, rates, items, journal_id, reversal_journal_id)
     values (?, ?, ?::jsonb, ?::jsonb, ?, ?)`,
    [
      companyId,
      row.date,
      JSON.stringify(row.rates),
      JSON.stringify(row.items),
      row.journal_id,
      row.reversal_journal_id,
    ],
  );
}

/** The company's FX account by number (settings.fx_gain_loss_account). */
export async function fxAccount(tx: Tx, companyId: number, accno: string): Promise<{ id: number } | undefined> {
  return tx('accounts').where({ company_id: companyId, accno }).first('id');
}

/** Locks the company row: revaluations of one company run one after the other. */
export async function lockCompany(tx: Tx, companyId: number): Promise<void> {
  await tx('companies').where({ id: companyId }).forUpdate().first('id');
}
