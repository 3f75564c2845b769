import type { Knex } from 'knex';
import { Money, minorUnits } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { categoryOf, splitRange, type BucketSums, type Category, type DateRange, type VatGroup } from './rules.ts';

/**
 * The SQL of the reports (docs/reports.md "Performance"). Every figure is a sum computed by
 * Postgres: whole months come from ledger_balances (one row per account and month once
 * compacted, kept by the triggers of migration 011), the days outside whole months from
 * ledger_entries through the (company_id, date) covering index. No ledger line is loaded
 * into Node; what comes back is one row per account and bucket.
 */

interface Part {
  sql: string;
  bindings: Knex.RawBinding[];
}

/**
 * Company id as an explicit condition as well: RLS filters the same rows, this lets the
 * planner use the indexes' first column. `accountId` narrows the sums to one account.
 */
function rangeParts(
  companyId: number,
  bucket: string,
  range: DateRange,
  excludeClosing: boolean,
  accountId?: number,
): Part[] {
  const split = splitRange(range);
  const parts: Part[] = [];
  // the closing entries of fiscal years (ledger_entries.closing, migration 010)
  const notClosing = excludeClosing ? ' and not closing' : '';
  const ofAccount =
    accountId === undefined ? { sql: '', bindings: [] } : { sql: ' and account_id = ?', bindings: [accountId] };
  if (split.months) {
    const from = split.months.from;
    parts.push({
      sql: `select account_id, ?::text as bucket, debit, credit from ledger_balances
             where company_id = ? and month <= ?${from === null ? '' : ' and month >= ?'}${notClosing}${ofAccount.sql}`,
      bindings: [bucket, companyId, split.months.to, ...(from === null ? [] : [from]), ...ofAccount.bindings],
    });
  }
  for (const days of split.days) {
    parts.push({
      sql: `select account_id, ?::text as bucket, greatest(amount, 0) as debit, least(amount, 0) as credit
        from ledger_entries
             where company_id = ? and date between ? and ?${notClosing}${ofAccount.sql}`,
      bindings: [bucket, companyId, days.from, days.to, ...ofAccount.bindings],
    });
  }
  return parts;
}

/**
 * Debit and credit sums per account and bucket: each bucket is a date range. Accounts with
 * no line in any bucket are absent. `excludeClosing` leaves the closing entries of fiscal
 * years out (the income statement).
 */
export async function bucketSums(
  tx: Tx,
  companyId: number,
  buckets: Readonly<Record<string, DateRange>>,
  opts: { excludeClosing?: boolean; categories?: readonly Category[] } = {},
): Promise<BucketSums[]> {
  const parts = Object.entries(buckets).flatMap(([bucket, range]) =>
    rangeParts(companyId, bucket, range, opts.excludeClosing ?? false),
  );
  if (parts.length === 0) return [];
  const categories = opts.categories ?? ['A', 'L', 'Q', 'I', 'E'];
  const { rows } = await tx.raw<{
    rows: { accno: string; description: string; category: Category; bucket: string; debit: string; credit: string }[];
  }>(
    `select a.accno, a.description, a.category, s.bucket, s.debit, s.credit
       from (select account_id, bucket, sum(debit) as debit, sum(credit) as credit
               from (${parts.map((p) => p.sql).join('\n union all ')}) as parts
              group by account_id, bucket) as s
       join accounts a on a.id = s.account_id
      where a.category = any(?::text[])`,
    [...parts.flatMap((p) => p.bindings), [...categories]],
  );
  return rows.map((r) => ({
    ...r,
    category: categoryOf(r.category),
    debit: new Money(r.debit),
    credit: new Money(r.credit),
  }));
}

/**
 * The balance of one account over `range` (debits positive, credits negative), read as the
 * reports read it: whole months from ledger_balances, the days outside them from the lines.
 * GET /gl/ledger takes its opening balance from here instead of summing every earlier line.
 */
export async function accountBalance(tx: Tx, companyId: number, accountId: number, range: DateRange): Promise<Money> {
  const parts = rangeParts(companyId, 'balance', range, false, accountId);
  if (parts.length === 0) return new Money(0);
  const { rows } = await tx.raw<{ rows: { balance: string }[] }>(
    `select coalesce(sum(debit + credit), 0)::text as balance from ` +
      `(${parts.map((p) => p.sql).join('\n union all ')}) as parts`,
    parts.flatMap((p) => p.bindings),
  );
  return new Money(rows[0]!.balance);
}

/**
 * Merges the trigger's delta rows of ledger_balances into one row per account, month and
 * closing flag, when there are many of them: at least 2,000 and a quarter of the merged
 * rows. Deleting and inserting in the request's transaction takes no lock a posting waits
 * for (postings only insert); a concurrent merge waits for this one and then merges only
 * what it still finds, so no delta is counted twice or lost. Returns whether it merged.
 */
export async function compactBalances(tx: Tx, companyId: number): Promise<boolean> {
  const { rows } = await tx.raw<{ rows: { fresh: string; total: string }[] }>(
    `select count(*) filter (where not compacted) as fresh, count(*) as total from ledger_balances where ` +
      `company_id = ?`,
    [companyId],
  );
  const fresh = Number(rows[0]!.fresh);
  const merged = Number(rows[0]!.total) - fresh;
  if (fresh < Math.max(2000, merged / 4)) return false;
  await tx.raw(
    `with gone as (delete from ledger_balances where company_id = ? returning company_id, account_id, month, closing,
       debit, credit)
     insert into ledger_balances (company_id, account_id, month, closing, debit, credit, compacted)
     select company_id, account_id, month, closing, sum(debit), sum(credit), true from gone
      group by company_id, account_id, month, closing
     having sum(debit) <> 0 or sum(credit) <> 0`,
    [companyId],
  );
  return true;
}

// --- VAT -----------------------------------------------------------------------------------

export interface VatReads {
  groups: VatGroup[];
  untaxedSales: Money;
  materialInputTax: Money;
  otherMovements: { account: string; description: string; amount: Money }[];
}

/**
 * The VAT figures of the posted AR/AP documents dated in the period (reversals included, with
 * their negated lines): per side, tax account and rate the base (the lines' net, converted
 * and rounded per document and tax account) and the tax (the document's tax ledger lines,
 * so the tax always equals what the tax accounts received); and the other movements of the
 * tax accounts in the period (journal entries).
 */
export async function vatReads(
  tx: Tx,
  companyId: number,
  range: { from: string; to: string },
  currency: string,
): Promise<VatReads> {
  const scale = minorUnits(currency);
  const docs = `select t.id, t.vc, t.exchangerate from arap_transactions t
                 where t.company_id = ? and t.status in ('posted', 'reversed') and t.inv_date between ? and ?`;
  const docBindings = [companyId, range.from, range.to];
  const { rows } = await tx.raw<{
    rows: {
      vc: 'vendor' | 'customer';
      accno: string | null;
      rate: string | null;
      base: string;
      tax: string;
      code: string | null;
      description: string | null;
    }[];
  }>(
    `with docs as (${docs}),
     per_doc as (
       select d.id, d.vc, l.tax_account_id, min(l.tax_rate) as rate, round(sum(l.net) * d.exchangerate, ?) as base
         from docs d join arap_lines l on l.transaction_id = d.id
        group by d.id, d.vc, d.exchangerate, l.tax_account_id
     ),
     doc_tax as (
       select e.transaction_id as id, e.account_id, sum(e.amount) as amount
         from ledger_entries e join docs d on d.id = e.transaction_id
        where e.kind = 'tax'
        group by e.transaction_id, e.account_id
     ),
     groups as (
       select p.vc, p.tax_account_id, p.rate, sum(p.base) as base, coalesce(sum(x.amount), 0) as tax
         from per_doc p left join doc_tax x on x.id = p.id and x.account_id = p.tax_account_id
        group by p.vc, p.tax_account_id, p.rate
     )
     select g.vc, a.accno, g.rate, g.base, g.tax, c.code, c.description
       from groups g
       left join accounts a on a.id = g.tax_account_id
       left join lateral (
         select code, description from taxes x
          where x.account_id = g.tax_account_id and (g.rate is null or x.rate = g.rate)
          order by (x.rate = g.rate) desc nulls last, x.valid_from desc limit 1
       ) c on true`,
    [...docBindings, scale],
  );

  const groups: VatGroup[] = [];
  let untaxedSales = new Money(0);
  for (const r of rows) {
    if (r.accno === null) {
      if (r.vc === 'customer') untaxedSales = untaxedSales.plus(r.base);
      continue;
    }
    // output tax is credited (negative in the ledger), shown positive as on the form
    const tax = r.vc === 'customer' ? new Money(r.tax).negated() : new Money(r.tax);
    groups.push({
      side: r.vc === 'customer' ? 'output' : 'input',
      account: r.accno,
      rate: r.rate === null ? null : new Money(r.rate),
      code: r.code,
      description: r.description,
      base: new Money(r.base),
      tax,
    });
  }

  const material = await tx.raw<{ rows: { tax: string }[] }>(
    `with docs as (${docs})
     select coalesce(sum(round(l.tax_amount * d.exchangerate, ?)), 0) as tax
       from docs d join arap_lines l on l.transaction_id = d.id join accounts a on a.id = l.account_id
      where d.vc = 'vendor' and l.tax_account_id is not null and a.accno like '4%'`,
    [...docBindings, scale],
  );

  const other = await tx.raw<{ rows: { accno: string; description: string; amount: string }[] }>(
    `select a.accno, a.description, sum(e.amount) as amount
       from ledger_entries e join accounts a on a.id = e.account_id
      where e.company_id = ? and e.date between ? and ?
        and (a.link ~ '(^|:)(AR_tax|AP_tax)(:|$)' or exists (select 1 from taxes x where x.account_id = a.id))
        and not (e.kind = 'tax' and e.transaction_id is not null)
      group by a.accno, a.description
      order by a.accno`,
    [companyId, range.from, range.to],
  );

  return {
    groups,
    untaxedSales,
    materialInputTax: new Money(material.rows[0]!.tax),
    otherMovements: other.rows.map((r) => ({
      account: r.accno,
      description: r.description,
      amount: new Money(r.amount),
    })),
  };
}

// --- by dimension --------------------------------------------------------------------------

/** Sums of one account, bucket and value of the dimension (null: lines without it). */
export interface ValueBucketSums extends BucketSums {
  value: string | null;
}

/**
 * bucketSums by the value a dimension has on each ledger line (`ledger_entries.dimensions`,
 * migration 039): read from the lines themselves, as ledger_balances knows no dimension.
 * `value` narrows the lines to those naming it.
 */
export async function dimensionBucketSums(
  tx: Tx,
  companyId: number,
  buckets: Readonly<Record<string, DateRange>>,
  dimension: { code: string; value?: string },
  opts: { excludeClosing?: boolean; categories?: readonly Category[] } = {},
): Promise<ValueBucketSums[]> {
  const notClosing = opts.excludeClosing ? ' and not closing' : '';
  const ofValue = dimension.value === undefined ? '' : ' and dimensions ->> ? = ?';
  const parts = Object.entries(buckets).map(([bucket, range]) => ({
    sql: `select account_id, ?::text as bucket, dimensions ->> ? as value, amount from ledger_entries
           where company_id = ? and date <= ?${range.from === null ? '' : ' and date >= ?'}${notClosing}${ofValue}`,
    bindings: [
      bucket,
      dimension.code,
      companyId,
      range.to,
      ...(range.from === null ? [] : [range.from]),
      ...(dimension.value === undefined ? [] : [dimension.code, dimension.value]),
    ],
  }));
  if (parts.length === 0) return [];
  const categories = opts.categories ?? ['A', 'L', 'Q', 'I', 'E'];
  const { rows } = await tx.raw<{
    rows: {
      accno: string;
      description: string;
      category: Category;
      bucket: string;
      value: string | null;
      debit: string;
      credit: string;
    }[];
  }>(
    `select a.accno, a.description, a.category, s.bucket, s.value, s.debit, s.credit
       from (select account_id, bucket, value, sum(greatest(amount, 0)) as debit, sum(least(amount, 0)) as credit
               from (${parts.map((p) => p.sql).join('\n union all ')}) as parts
              group by account_id, bucket, value) as s
       join accounts a on a.company_id = ? and a.id = s.account_id
      where a.category = any(?::text[])`,
    [...parts.flatMap((p) => p.bindings), companyId, [...categories]],
  );
  return rows.map((r) => ({
    ...r,
    category: categoryOf(r.category),
    debit: new Money(r.debit),
    credit: new Money(r.credit),
  }));
}

/** Each account's name in `language` where the chart template gave it names (accounts.names), by accno. */
export async function accountNames(tx: Tx, companyId: number, language: string): Promise<Map<string, string>> {
  const { rows } = await tx.raw<{ rows: { accno: string; name: string }[] }>(
    `select accno, names ->> ? as name from accounts
      where company_id = ? and names ->> ? is not null`,
    [language, companyId, language],
  );
  return new Map(rows.map((r) => [r.accno, r.name]));
}
