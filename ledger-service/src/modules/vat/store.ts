import { Money } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { VatReturnLinesRow, VatReturnsRow } from '../../db/tables.ts';
import type { ReturnLine } from './rules.ts';

/** The VAT returns' SQL (docs/vat.md): the frozen lines collected from the ledger, the returns themselves. */

/**
 * The form figure of a line (docs/vat.md "Figures"): a code names its rate's figure (302, 312,
 * 342, 382); the ESTV's form since the 2024 rates reports supplies at the rates valid from
 * 2024-01-01 under the figure after it (303, 313, 343, 383), so a line dated from then on
 * moves to that one. `date` is the SQL expression of the line's document date.
 */
const formFigure = (figure: string, date: string) =>
  `case when ${figure} in ('302', '312', '342', '382') and ${date} >= date '2024-01-01'
        then (${figure}::int + 1)::text else ${figure} end`;

/** The rate of the code on the tax account `account` on `date` (SQL expressions), frozen with the line. */
const rateOn = (account: string, date: string) =>
  `(select r.rate from taxes r where r.company_id = :company and r.account_id = ${account}
       and ${date} >= r.valid_from and (r.valid_to is null or ${date} <= r.valid_to)
     order by r.valid_from desc limit 1)`;

/**
 * Collects the return's lines from the ledger in one statement, frozen into vat_return_lines:
 * - the documents' lines: on agreed considerations every posted (or reversed) AR/AP document
 *   dated in the period, whole; on received considerations every payment (or allocation) of
 *   one dated in the period, as its share of the document (payment ÷ the document's gross; a
 *   payment's reversal dated in the period negated), dated the payment's date. Per document
 *   (and payment) one line per tax account and revenue account: base = its lines' net in the
 *   base currency × share; tax = the tax ledger line of that tax account × share (the first
 *   line of a tax account takes the rounding, so the lines of one tax account sum to its
 *   ledger line, or to its rounded share); lines without a tax account give a line without a code;
 * - every other ledger line on a tax account dated in the period (journal entries, payments'
 *   differences), base 0, except the settlements of VAT returns.
 * Signs as on the form: sales, purchases and their tax positive (their reversals negative).
 */
const COLLECT_SQL = `
with docs as (
  select t.id, 0::bigint as event, t.vc, t.type, t.inv_number, t.inv_date, t.inv_date as date, t.exchangerate,
         t.currency, 1::numeric as share
    from arap_transactions t
   where :basis = 'agreed' and t.company_id = :company and t.status in ('posted', 'reversed')
     and t.inv_date between :from and :to
  union all
  select t.id, p.id * 2 + ev.reversal, t.vc, t.type, t.inv_number, t.inv_date, ev.date, t.exchangerate,
         t.currency, (1 - 2 * ev.reversal) * p.amount / t.amount
    from arap_payments p
    join arap_transactions t on t.company_id = :company and t.id = p.transaction_id
    cross join lateral (values (p.date, 0), (p.reversal_date, 1)) as ev(date, reversal)
   where :basis = 'received' and p.company_id = :company and t.status in ('posted', 'reversed') and t.amount <> 0
     and ev.date between :from and :to
     and (p.date between :from and :to or p.reversal_date between :from and :to)
),
-- per document (and payment), tax account and revenue account: the net, the tax, the rate the lines used
doc_lines as (
  select d.id, d.event, l.tax_account_id, l.account_id, sum(l.net) as net, sum(l.tax_amount) as tax,
         max(l.tax_rate) as rate
    from docs d join arap_lines l on l.company_id = :company and l.transaction_id = d.id
   group by d.id, d.event, l.tax_account_id, l.account_id
),
lines as (
  select d.id, d.event, d.vc, d.type, d.inv_number, d.inv_date, d.date, d.share, dl.tax_account_id, dl.account_id,
         dl.rate, round(dl.net * d.exchangerate * d.share, :scale) as base,
         round(dl.tax * d.exchangerate * d.share, :scale) as line_tax, dl.tax as doc_tax,
         -- the tax ledger line of a document in the base currency at rate 1 is the sum of its lines' tax
         -- (arap/posting.ts); only a converted document's ledger line carries a rounding of its own
         (d.exchangerate <> 1 or d.currency <> :base) as converted
    from doc_lines dl join docs d on d.id = dl.id and d.event = dl.event
),
-- per document (and payment) and tax account whose lines' rounded tax may miss what they must sum to
-- (a converted document's tax ledger line, or the rounded share of a payment): that target
per_tax as (
  select ln.id, ln.event, ln.tax_account_id, min(ln.account_id) as first_account, sum(ln.line_tax) as line_tax,
         case when bool_or(ln.converted)
              then round((case when min(ln.vc) = 'vendor' then 1 else -1 end) * coalesce(min(x.amount), 0)
                         * min(ln.share), :scale)
              else round(sum(ln.doc_tax) * min(ln.share), :scale) end as target
    from lines ln
    left join (select e.transaction_id, e.account_id, sum(e.amount) as amount
                 from ledger_entries e
                where e.company_id = :company and e.kind = 'tax' and e.transaction_id is not null
                  and e.transaction_id in (select id from docs where exchangerate <> 1 or currency <> :base)
                group by e.transaction_id, e.account_id) x
           on x.transaction_id = ln.id and x.account_id = ln.tax_account_id
   where ln.tax_account_id is not null and (ln.converted or ln.share <> 1)
   group by ln.id, ln.event, ln.tax_account_id
),
codes as (
  select distinct on (account_id) account_id, code, kind, figure
    from taxes where company_id = :company order by account_id, valid_from desc
),
tax_accounts as materialized (
  select a.id, a.accno, c.code, coalesce(c.kind, case when a.link ~ '(^|:)AP_tax(:|$)' then 'input' else 'output' end)
         as kind, c.figure
    from accounts a left join codes c on c.account_id = a.id
   where a.company_id = :company and (c.code is not null or a.link ~ '(^|:)(AR_tax|AP_tax)(:|$)')
),
settlements as (
  select settlement_id as id from vat_returns where company_id = :company and settlement_id is not null
)
insert into vat_return_lines
  (company_id, return_id, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
   base, tax, rate)
select cast(:company as bigint), cast(:return as bigint), ln.vc, ln.type, ln.id, ln.inv_number, ln.date,
       c.code, c.kind, ${formFigure('c.figure', 'ln.inv_date')}, ta.accno, ra.accno, ln.base,
       case when ln.tax_account_id is null then 0
            when ln.account_id = pt.first_account then ln.line_tax + pt.target - pt.line_tax
            else ln.line_tax end,
       case when ln.tax_account_id is not null then coalesce(ln.rate, ${rateOn('ln.tax_account_id', 'ln.inv_date')}) end
  from lines ln
  left join per_tax pt on pt.id = ln.id and pt.event = ln.event and pt.tax_account_id = ln.tax_account_id
  left join codes c on c.account_id = ln.tax_account_id
  left join accounts ta on ta.company_id = :company and ta.id = ln.tax_account_id
  join accounts ra on ra.company_id = :company and ra.id = ln.account_id
union all
select cast(:company as bigint), cast(:return as bigint), 'ledger', case when e.journal_id is not null then 'journal'
                                         when e.payment_id is not null then 'payment' else 'transaction' end,
       coalesce(e.journal_id, e.payment_id, e.transaction_id, e.id), g.reference, e.date, a.code, a.kind,
       ${formFigure('a.figure', 'e.date')}, a.accno, null, 0::numeric,
       case when a.kind = 'input' then e.amount else -e.amount end,
       ${rateOn('e.account_id', 'e.date')}
  from tax_accounts a
  -- per tax account through its index: the few tax accounts first, not every line of the period
  cross join lateral (
    select e.* from ledger_entries e
     where e.company_id = :company and e.account_id = a.id and e.date between :from and :to
       and not (e.kind = 'tax' and e.transaction_id is not null)) e
  left join gl_transactions g on g.company_id = :company and g.id = e.journal_id
 where e.journal_id is null or e.journal_id not in (select id from settlements)`;

export async function collectLines(
  tx: Tx,
  companyId: number,
  returnId: number,
  range: { from: string; to: string; basis: 'agreed' | 'received' },
  base: { currency: string; scale: number },
): Promise<void> {
  // the statement sorts and hashes a quarter's documents: room for that in memory, not on disk
  await tx.raw(`set local work_mem = '64MB'`);
  await tx.raw(COLLECT_SQL, {
    company: companyId,
    return: returnId,
    from: range.from,
    to: range.to,
    basis: range.basis,
    base: base.currency,
    scale: base.scale,
  });
}

/** A correction: the original's lines, negated, beside the period's lines as they are now. */
export async function copyNegated(tx: Tx, companyId: number, fromId: number, toId: number): Promise<void> {
  await tx.raw(
    `insert into vat_return_lines
       (company_id, return_id, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
        base, tax, rate)
     select company_id, ?, side, kind, source_id, number, date, code, code_kind, figure, tax_accno, revenue_accno,
            -base, -tax, rate
       from vat_return_lines where company_id = ? and return_id = ?`,
    [toId, companyId, fromId],
  );
}

export async function returnLines(tx: Tx, companyId: number, returnId: number): Promise<ReturnLine[]> {
  const rows: VatReturnLinesRow[] = await tx('vat_return_lines')
    .where({ company_id: companyId, return_id: returnId })
    // a stable order: by date and source; a payment and its reversal (same date and source) the
    // payment first, as the lines are written in no fixed order by the collecting statement
    .orderBy(['date', 'source_id', 'kind', { column: 'base', order: 'desc' }, 'id'])
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
    rate: r.rate === null ? null : new Money(r.rate),
  }));
}

/**
 * The return's lines summed by what the figures, the settlement and the eCH-0217 file read
 * (side, code, kind, figure, tax and revenue account, rate): the same figures as the single lines, a few rows instead
 * of one per document, so preparing and settling a quarter of 100,000 ledger lines stays fast.
 */
export async function returnLineSums(tx: Tx, companyId: number, returnId: number): Promise<ReturnLine[]> {
  const { rows } = await tx.raw<{
    rows: Pick<
      VatReturnLinesRow,
      'side' | 'code' | 'code_kind' | 'figure' | 'tax_accno' | 'revenue_accno' | 'base' | 'tax' | 'rate'
    >[];
  }>(
    `select side, code, code_kind, figure, tax_accno, revenue_accno, rate, sum(base) as base, sum(tax) as tax
       from vat_return_lines where company_id = ? and return_id = ?
      group by side, code, code_kind, figure, tax_accno, revenue_accno, rate
      order by side, code, tax_accno, revenue_accno, rate`,
    [companyId, returnId],
  );
  return rows.map((r) => ({
    side: r.side,
    kind: 'sum',
    sourceId: 0,
    number: null,
    date: '',
    code: r.code,
    codeKind: r.code_kind,
    figure: r.figure,
    taxAccno: r.tax_accno,
    revenueAccno: r.revenue_accno,
    base: new Money(r.base),
    tax: new Money(r.tax),
    rate: r.rate === null ? null : new Money(r.rate),
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
