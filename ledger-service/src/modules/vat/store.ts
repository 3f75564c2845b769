import { Money } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { VatReturnLinesRow, VatReturnsRow } from '../../db/tables.ts';
import type { ReturnLine } from './rules.ts';

/** The VAT returns' SQL (docs/vat.md): the frozen lines collected from the ledger, the returns themselves. */

/**
 * Collects the return's lines from the ledger in one statement, frozen into vat_return_lines:
 * - per posted (or reversed) AR/AP document dated in the period, one line per tax account and
 *   revenue account: base = its lines' net in the base currency; tax = the tax ledger line of
 *   that tax account (the first line of a tax account takes the rounding of the conversion,
 *   so the lines of one tax account sum to its ledger line); lines without a tax account give
 *   one line without a code;
 * - every other ledger line on a tax account dated in the period (journal entries, payments'
 *   differences), base 0, except the settlements of VAT returns.
 * Signs as on the form: sales, purchases and their tax positive (their reversals negative).
 */
const COLLECT_SQL = `
with docs as (
  select t.id, t.vc, t.type, t.inv_number, t.inv_date, t.exchangerate
    from arap_transactions t
   where t.company_id = :company and t.status in ('posted', 'reversed') and t.inv_date between :from and :to
),
doc_lines as (
  select d.id, d.vc, d.type, d.inv_number, d.inv_date, l.tax_account_id, l.account_id,
         round(sum(l.net) * d.exchangerate, :scale) as base,
         round(sum(l.tax_amount) * d.exchangerate, :scale) as line_tax,
         row_number() over (partition by d.id, l.tax_account_id order by l.account_id) as nth
    from docs d join arap_lines l on l.company_id = :company and l.transaction_id = d.id
   group by d.id, d.vc, d.type, d.inv_number, d.inv_date, d.exchangerate, l.tax_account_id, l.account_id
),
doc_tax as (
  select e.transaction_id as id, e.account_id, sum(e.amount) as amount
    from ledger_entries e join docs d on d.id = e.transaction_id
   where e.company_id = :company and e.kind = 'tax'
   group by e.transaction_id, e.account_id
),
split as (
  select dl.*,
         case when dl.tax_account_id is null then 0
              else dl.line_tax + case when dl.nth = 1
                     then (case when dl.vc = 'vendor' then 1 else -1 end) * coalesce(x.amount, 0)
                          - sum(dl.line_tax) over (partition by dl.id, dl.tax_account_id)
                     else 0 end
         end as tax
    from doc_lines dl left join doc_tax x on x.id = dl.id and x.account_id = dl.tax_account_id
),
codes as (
  select distinct on (account_id) account_id, code, kind, figure
    from taxes where company_id = :company order by account_id, valid_from desc
),
settlements as (
  select settlement_id as id from vat_returns where company_id = :company and settlement_id is not null
)
insert into vat_return_lines
  (company_id, return_id, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
   base, tax)
select cast(:company as bigint), cast(:return as bigint), s.vc, s.type, s.id, s.inv_number, s.inv_date,
       c.code, c.kind, c.figure, ta.accno, ra.accno, s.base, s.tax
  from split s
  left join codes c on c.account_id = s.tax_account_id
  left join accounts ta on ta.company_id = :company and ta.id = s.tax_account_id
  join accounts ra on ra.company_id = :company and ra.id = s.account_id
union all
select cast(:company as bigint), cast(:return as bigint), 'ledger', case when e.journal_id is not null then 'journal'
                                         when e.payment_id is not null then 'payment' else 'transaction' end,
       coalesce(e.journal_id, e.payment_id, e.transaction_id, e.id), g.reference, e.date, c.code,
       coalesce(c.kind, case when a.link ~ '(^|:)AP_tax(:|$)' then 'input' else 'output' end), c.figure, a.accno, null,
       0::numeric,
       case when coalesce(c.kind, case when a.link ~ '(^|:)AP_tax(:|$)' then 'input' else 'output' end) = 'input'
            then e.amount else -e.amount end
  from ledger_entries e
  join accounts a on a.company_id = :company and a.id = e.account_id
  left join codes c on c.account_id = e.account_id
  left join gl_transactions g on g.company_id = :company and g.id = e.journal_id
 where e.company_id = :company and e.date between :from and :to
   and (c.code is not null or a.link ~ '(^|:)(AR_tax|AP_tax)(:|$)')
   and not (e.kind = 'tax' and e.transaction_id is not null)
   and (e.journal_id is null or e.journal_id not in (select id from settlements))`;

export async function collectLines(
  tx: Tx,
  companyId: number,
  returnId: number,
  range: { from: string; to: string },
  scale: number,
): Promise<void> {
  await tx.raw(COLLECT_SQL, { company: companyId, return: returnId, from: range.from, to: range.to, scale });
}

/** A correction: the original's lines, negated, beside the period's lines as they are now. */
export async function copyNegated(tx: Tx, companyId: number, fromId: number, toId: number): Promise<void> {
  await tx.raw(
    `insert into vat_return_lines
       (company_id, return_id, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
        base, tax)
     select company_id, ?, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
            -base, -tax
       from vat_return_lines where company_id = ? and return_id = ?`,
    [toId, companyId, fromId],
  );
}

export async function returnLines(tx: Tx, companyId: number, returnId: number): Promise<ReturnLine[]> {
  const rows: VatReturnLinesRow[] = await tx('vat_return_lines')
    .where({ company_id: companyId, return_id: returnId })
    .orderBy(['date', 'source_id', 'id'])
    .select('*');
  return rows.map((r) => ({
    side: r.side,
    kind: r.kind,
    sourceId: Number(r.source_id),
    number: r.number,
    date: r.date,
    code: r.code,
    codeKind: r.code_kind,
    figure: r.figure,
    taxAccno: r.tax_accno,
    revenueAccno: r.revenue_accno,
    base: new Money(r.base),
    tax: new Money(r.tax),
  }));
}

export type ReturnHeader = Omit<VatReturnsRow, 'id' | 'created_at' | 'settled_at' | 'settlement_id'>;

export async function insertReturn(tx: Tx, header: ReturnHeader): Promise<number> {
  const [row] = await tx('vat_returns')
    .insert({
      ...header,
      figures: tx.raw('?::jsonb', [JSON.stringify(header.figures)]),
      net_tax_rates: tx.raw('?::jsonb', [JSON.stringify(header.net_tax_rates)]),
    })
    .returning('id');
  return Number(row!.id);
}

export async function writeFigures(
  tx: Tx,
  companyId: number,
  id: number,
  figures: Record<string, string>,
  payable: string,
): Promise<void> {
  await tx('vat_returns')
    .where({ company_id: companyId, id })
    .update({ figures: tx.raw('?::jsonb', [JSON.stringify(figures)]), payable });
}

export async function findReturn(tx: Tx, companyId: number, id: number, lock = false) {
  const q = tx('vat_returns').where({ company_id: companyId, id });
  return (lock ? q.forUpdate() : q).first();
}

export async function findOriginal(tx: Tx, companyId: number, from: string) {
  return tx('vat_returns').where({ company_id: companyId, from_date: from, type: 'original' }).forUpdate().first();
}

export async function listReturns(tx: Tx, companyId: number, page: { limit: number; offset: number }) {
  const rows = await tx('vat_returns')
    .where({ company_id: companyId })
    .orderBy([
      { column: 'from_date', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset)
    .select('*');
  const total = await tx('vat_returns').where({ company_id: companyId }).count({ n: '*' }).first();
  return { rows, total: Number(total?.n ?? 0) };
}

export async function markSettled(tx: Tx, companyId: number, id: number, settlementId: number): Promise<void> {
  await tx('vat_returns')
    .where({ company_id: companyId, id })
    .update({ status: 'settled', settlement_id: settlementId, settled_at: new Date() });
}

export async function deleteReturnRow(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('vat_returns').where({ company_id: companyId, id }).delete();
}

/** Account ids by number (the settlement's accounts). */
export async function accountIds(tx: Tx, companyId: number, accnos: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx('accounts').where({ company_id: companyId }).whereIn('accno', accnos).select('id', 'accno');
  return new Map(rows.map((r) => [r.accno, Number(r.id)]));
}

/** The settlement's transaction passes the period lock (db/migrations/028_vat_period_lock.ts). */
export async function allowSettlementPosting(tx: Tx): Promise<void> {
  await tx.raw(`select set_config('app.vat_settling', '1', true)`);
}

export async function endSettlementPosting(tx: Tx): Promise<void> {
  await tx.raw(`select set_config('app.vat_settling', '', true)`);
}
