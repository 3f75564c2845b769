import type { Tx } from '../../db/knex.ts';

/**
 * What fiscal years are made of: the span of the posted ledger lines, the closing entries in force, a year's result per
 * account.
 */

/** First and last date of posted ledger lines (min/max over the (company_id, date) index); null without any. */
export async function postedDateSpan(tx: Tx, companyId: number): Promise<{ first: string; last: string } | null> {
  const { rows } = await tx.raw<{ rows: { first: string | null; last: string | null }[] }>(
    `select min(date)::text as first, max(date)::text as last
       from ledger_entries where company_id = ?`,
    [companyId],
  );
  const r = rows[0];
  return r && r.first !== null && r.last !== null ? { first: r.first, last: r.last } : null;
}

export interface ClosingRow {
  id: number;
  fiscal_year: number;
}

/** The closing entries in force (posted, not reversed), by year. */
export async function closingEntries(tx: Tx, companyId: number): Promise<ClosingRow[]> {
  return await tx('gl_transactions')
    .where({ company_id: companyId, closing: true, status: 'posted' })
    .whereNull('reversal_of_id')
    .orderBy('fiscal_year')
    .select('id', 'fiscal_year');
}

/**
 * Income and expense accounts with a balance from `start` to `end` (base currency, debit positive), by account number.
 */
export async function resultBalances(
  tx: Tx,
  companyId: number,
  start: string,
  end: string,
): Promise<{ account_id: number; accno: string; balance: string }[]> {
  const { rows } = await tx.raw<{ rows: { account_id: number; accno: string; balance: string }[] }>(
    `select a.id as account_id, a.accno, sum(e.amount)::text as balance
       from ledger_entries e join accounts a on a.company_id = e.company_id and a.id = e.account_id
      where e.company_id = ? and a.category in ('I', 'E') and e.date between ?::date and ?::date
      group by a.id, a.accno
     having sum(e.amount) <> 0
      order by a.accno`,
    [companyId, start, end],
  );
  return rows;
}

/** The account named by accno, if it exists. */
export async function accountByNumber(
  tx: Tx,
  companyId: number,
  accno: string,
): Promise<{ id: number; category: string } | undefined> {
  return await tx('accounts').where({ company_id: companyId, accno }).first('id', 'category');
}
