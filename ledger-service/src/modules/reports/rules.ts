import type { Decimal } from 'decimal.js';
import { amountJson, Money } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The pure parts of the reports (docs/reports.md): periods, the split of a date range into
 * whole months (read from ledger_balances) and single days (read from ledger_entries), and
 * turning per-account sums into the report shapes. Amounts stay Decimal until the answer.
 */

export type Category = 'A' | 'L' | 'Q' | 'I' | 'E';
const CATEGORIES: readonly Category[] = ['A', 'L', 'Q', 'I', 'E'];

/** An account's category as the database gives it (char(1), maybe padded). */
export function categoryOf(text: string): Category {
  const found = CATEGORIES.find((c) => c === text.trim());
  if (!found) throw new Error(`unknown account category ${text}`);
  return found;
}

/** A date range, both ends included; `from` null = since the first line. */
export interface DateRange {
  from: string | null;
  to: string;
}

/** Whole months (first days, both included) and the days outside them. */
export interface RangeSplit {
  months: { from: string | null; to: string } | null;
  days: { from: string; to: string }[];
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (s: string) => new Date(`${s}T00:00:00Z`);

export function addDays(date: string, n: number): string {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

function addMonths(first: string, n: number): string {
  const d = utc(first);
  d.setUTCMonth(d.getUTCMonth() + n);
  return iso(d);
}

export function monthEnd(date: string): string {
  return addDays(addMonths(monthStart(date), 1), -1);
}

/** The calendar year's first day (the VAT report's default start: VAT periods are calendar periods). */
export function calendarYearStart(date: string): string {
  return `${date.slice(0, 4)}-01-01`;
}

export function splitRange(range: DateRange): RangeSplit {
  const { from, to } = range;
  // the last whole month: to's own when `to` is its last day, else the one before
  const lastFull = to === monthEnd(to) ? monthStart(to) : addMonths(monthStart(to), -1);
  const firstFull = from === null ? null : from === monthStart(from) ? from : addMonths(monthStart(from), 1);
  if (firstFull !== null && firstFull > lastFull)
    return { months: null, days: from! <= to ? [{ from: from!, to }] : [] };
  const days: RangeSplit['days'] = [];
  if (from !== null && firstFull !== null && from < firstFull) days.push({ from, to: addDays(firstFull, -1) });
  const afterFull = addMonths(lastFull, 1);
  if (afterFull <= to) days.push({ from: afterFull, to });
  return { months: { from: firstFull, to: lastFull }, days };
}

/**
 * `from`/`to` of a period report: to defaults to today, from to the first day of to's fiscal year (`yearStart`, the
 * company's fiscal years); from after to → 400.
 */
export function period(
  query: { from?: string; to?: string },
  today: string,
  yearStart: (date: string) => string,
): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? yearStart(to);
  if (from > to) throw ruleInvalid(`from (${from}) is after to (${to}).`, '/from');
  return { from, to };
}

// --- per-account sums → report shapes -----------------------------------------------------

export interface AccountRef {
  accno: string;
  description: string;
  category: Category;
}

/** Sums of one account in one bucket of a report: the debit lines (≥ 0) and the credit lines (≤ 0). */
export interface BucketSums extends AccountRef {
  bucket: string;
  debit: Decimal;
  credit: Decimal;
}

interface Sums {
  debit: Decimal;
  credit: Decimal;
}

/** rows → accno → bucket → sums, accounts in account-number order. */
function byAccount(rows: readonly BucketSums[]): Map<string, { account: AccountRef; buckets: Map<string, Sums> }> {
  const out = new Map<string, { account: AccountRef; buckets: Map<string, Sums> }>();
  for (const r of [...rows].sort((a, b) => a.accno.localeCompare(b.accno, 'en', { numeric: true }))) {
    const entry = out.get(r.accno) ?? {
      account: { accno: r.accno, description: r.description, category: r.category },
      buckets: new Map(),
    };
    const sums = entry.buckets.get(r.bucket) ?? { debit: new Money(0), credit: new Money(0) };
    entry.buckets.set(r.bucket, { debit: sums.debit.plus(r.debit), credit: sums.credit.plus(r.credit) });
    out.set(r.accno, entry);
  }
  return out;
}

const ZERO: Sums = { debit: new Money(0), credit: new Money(0) };
const net = (s: Sums | undefined) => (s ?? ZERO).debit.plus((s ?? ZERO).credit);
const sum = (xs: readonly Decimal[]) => xs.reduce((a, b) => a.plus(b), new Money(0));

/** `keepZero`: every account with a row stays, even at zero (a report by dimension, whose columns may not be). */
export function trialBalanceOf(
  rows: readonly BucketSums[],
  range: { from: string; to: string },
  currency: string,
  keepZero = false,
) {
  const accounts = [];
  const totals = { opening: new Money(0), debit: new Money(0), credit: new Money(0) };
  for (const { account, buckets } of byAccount(rows).values()) {
    const opening = net(buckets.get('opening'));
    const { debit, credit } = buckets.get('period') ?? ZERO;
    // a line and its deletion (a posted document changed) leave no trace
    if (!keepZero && opening.isZero() && debit.isZero() && credit.isZero()) continue;
    totals.opening = totals.opening.plus(opening);
    totals.debit = totals.debit.plus(debit);
    totals.credit = totals.credit.plus(credit);
    accounts.push({
      ...account,
      opening: amountJson(opening, currency),
      debit: amountJson(debit, currency),
      credit: amountJson(credit, currency),
      closing: amountJson(opening.plus(debit).plus(credit), currency),
    });
  }
  return {
    ...range,
    currency,
    accounts,
    totals: {
      opening: amountJson(totals.opening, currency),
      debit: amountJson(totals.debit, currency),
      credit: amountJson(totals.credit, currency),
      closing: amountJson(totals.opening.plus(totals.debit).plus(totals.credit), currency),
    },
  };
}

// a type, not an interface: the contract's read shapes are open objects (index signature)
type Section = {
  accounts: { accno: string; description: string; amount: number }[];
  total: number;
};

function sectionOf(entries: readonly { account: AccountRef; amount: Decimal }[], currency: string): Section {
  return {
    accounts: entries.map(({ account, amount }) => ({
      accno: account.accno,
      description: account.description,
      amount: amountJson(amount, currency),
    })),
    total: amountJson(sum(entries.map((e) => e.amount)), currency),
  };
}

/** Rows of bucket 'period' over income and expense accounts, closing entries already left out. */
export function incomeStatementOf(
  rows: readonly BucketSums[],
  range: { from: string; to: string },
  currency: string,
  keepZero = false,
) {
  const income: { account: AccountRef; amount: Decimal }[] = [];
  const expenses: { account: AccountRef; amount: Decimal }[] = [];
  for (const { account, buckets } of byAccount(rows).values()) {
    const s = buckets.get('period') ?? ZERO;
    if (!keepZero && s.debit.isZero() && s.credit.isZero()) continue;
    if (account.category === 'I') income.push({ account, amount: net(s) });
    else if (account.category === 'E') expenses.push({ account, amount: net(s) });
  }
  const result = sum([...income, ...expenses].map((e) => e.amount)).negated();
  return {
    ...range,
    currency,
    income: sectionOf(income, currency),
    expenses: sectionOf(expenses, currency),
    net_income: amountJson(result, currency),
  };
}

/**
 * Rows of buckets 'earlier' (before the fiscal year) and 'current' (fiscal year start to
 * the date), closing entries included: a closed year's closing entry has moved its result
 * to equity, so what is left on income and expense accounts is what no closing booked.
 */
export function balanceSheetOf(rows: readonly BucketSums[], date: string, fiscalYearStart: string, currency: string) {
  const sections: Record<'A' | 'L' | 'Q', { account: AccountRef; amount: Decimal }[]> = { A: [], L: [], Q: [] };
  let current = new Money(0);
  let earlier = new Money(0);
  for (const { account, buckets } of byAccount(rows).values()) {
    const balance = net(buckets.get('earlier')).plus(net(buckets.get('current')));
    if (account.category === 'I' || account.category === 'E') {
      current = current.plus(net(buckets.get('current')));
      earlier = earlier.plus(net(buckets.get('earlier')));
    } else if (!balance.isZero()) sections[account.category].push({ account, amount: balance });
  }
  const assets = sectionOf(sections.A, currency);
  const liabilities = sectionOf(sections.L, currency);
  const equityAccounts = sectionOf(sections.Q, currency);
  const equityTotal = sum(sections.Q.map((e) => e.amount))
    .plus(current)
    .plus(earlier);
  const rightHandSide = sum(sections.L.map((e) => e.amount))
    .plus(equityTotal)
    .negated();
  return {
    date,
    currency,
    fiscal_year_start: fiscalYearStart,
    assets,
    liabilities,
    equity: {
      accounts: equityAccounts.accounts,
      current_year_result: amountJson(current, currency),
      earlier_years_result: amountJson(earlier, currency),
      total: amountJson(equityTotal, currency),
    },
    total_assets: assets.total,
    total_liabilities_and_equity: amountJson(rightHandSide, currency),
  };
}

// --- VAT ----------------------------------------------------------------------------------

export type VatSide = 'output' | 'input';

/**
 * Base and tax of one tax account and rate on one side, in base currency, signs as on the form (sales and purchases
 * positive).
 */
export interface VatGroup {
  side: VatSide;
  account: string;
  rate: Decimal | null;
  code: string | null;
  description: string | null;
  base: Decimal;
  tax: Decimal;
}

/** Swiss VAT return figures 302 / 312 / 342 by rate (docs/reports.md); any other rate is 382. */
const SWISS_RATE_FIGURES: readonly (readonly [string, '302' | '312' | '342'])[] = [
  ['0.081', '302'],
  ['0.026', '312'],
  ['0.038', '342'],
];

export function swissRateFigure(rate: Decimal | null): '302' | '312' | '342' | '382' {
  const hit = rate === null ? undefined : SWISS_RATE_FIGURES.find(([r]) => new Money(r).equals(rate));
  return hit ? hit[1] : '382';
}

export interface SwissInputs {
  groups: readonly VatGroup[];
  /** sales (net, base currency) of customer-document lines without a tax account */
  untaxedSales: Decimal;
  /** input tax of vendor-document lines on accounts of class 4 (material, goods, services) */
  materialInputTax: Decimal;
}

/** The figures of the Swiss VAT return (effective method), docs/reports.md "Swiss VAT return". */
export function swissVatReturn(inputs: SwissInputs, currency: string) {
  const rated = { '302': ZERO, '312': ZERO, '342': ZERO, '382': ZERO } as Record<'302' | '312' | '342' | '382', Sums>;
  // Sums reused as { debit: base, credit: tax }
  for (const g of inputs.groups.filter((x) => x.side === 'output')) {
    const figure = swissRateFigure(g.rate);
    rated[figure] = { debit: rated[figure].debit.plus(g.base), credit: rated[figure].credit.plus(g.tax) };
  }
  const taxable = sum(Object.values(rated).map((s) => s.debit));
  const tax399 = sum(Object.values(rated).map((s) => s.credit));
  const input479 = sum(inputs.groups.filter((g) => g.side === 'input').map((g) => g.tax));
  const input400 = inputs.materialInputTax;
  const due = tax399.minus(input479);
  const n = (v: Decimal) => amountJson(v, currency);
  const pair = (s: Sums) => ({ base: n(s.debit), tax: n(s.credit) });
  return {
    '200': n(taxable.plus(inputs.untaxedSales)),
    '289': n(inputs.untaxedSales),
    '299': n(taxable),
    '302': pair(rated['302']),
    '312': pair(rated['312']),
    '342': pair(rated['342']),
    '382': pair(rated['382']),
    '399': n(tax399),
    '400': n(input400),
    // the remainder, so that 400 + 405 is the input tax booked (per-line rounding of 400 aside)
    '405': n(input479.minus(input400)),
    '479': n(input479),
    '500': n(due.isPositive() && !due.isZero() ? due : new Money(0)),
    '510': n(due.isNegative() && !due.isZero() ? due.negated() : new Money(0)),
  };
}

export function vatReportOf(
  range: { from: string; to: string },
  currency: string,
  groups: readonly VatGroup[],
  otherMovements: readonly { account: string; description: string; amount: Decimal }[],
  swiss: SwissInputs | null,
) {
  const n = (v: Decimal) => amountJson(v, currency);
  const sorted = [...groups].sort((a, b) =>
    a.side !== b.side
      ? a.side === 'output'
        ? -1
        : 1
      : (a.code ?? '').localeCompare(b.code ?? '') ||
        a.account.localeCompare(b.account) ||
        (a.rate ?? new Money(-1)).comparedTo(b.rate ?? new Money(-1)),
  );
  const side = (s: VatSide) => ({
    base: n(sum(groups.filter((g) => g.side === s).map((g) => g.base))),
    tax: n(sum(groups.filter((g) => g.side === s).map((g) => g.tax))),
  });
  const outputTax = sum(groups.filter((g) => g.side === 'output').map((g) => g.tax));
  const inputTax = sum(groups.filter((g) => g.side === 'input').map((g) => g.tax));
  return {
    ...range,
    currency,
    codes: sorted.map((g) => ({
      code: g.code,
      description: g.description,
      account: g.account,
      rate: g.rate === null ? null : g.rate.toNumber(),
      side: g.side,
      base: n(g.base),
      tax: n(g.tax),
    })),
    output: side('output'),
    input: side('input'),
    net_due: n(outputTax.minus(inputTax)),
    other_movements: otherMovements
      .filter((m) => !m.amount.isZero())
      .map((m) => ({ account: m.account, description: m.description, amount: n(m.amount) })),
    swiss_vat_return: swiss ? swissVatReturn(swiss, currency) : null,
  };
}
