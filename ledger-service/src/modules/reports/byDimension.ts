import { incomeStatementOf, trialBalanceOf } from './rules.ts';
import type { ValueBucketSums } from './reads.ts';

/**
 * The trial balance and income statement by dimension (docs/year-end.md "Reports by
 * dimension"), pure: the company's report, and beside every figure one column per value of
 * the dimension plus one for the lines without it (`value: null`, "unassigned"). Each column
 * is the same report over the lines of that value only, so the columns of every figure add
 * up to the company's figure exactly (ledger lines are in the minor unit; nothing is
 * allocated or rounded).
 */

/** A column: a value code of the dimension, or null for the lines without the dimension. */
export interface DimensionColumn {
  value: string | null;
  name: string;
}

export interface DimensionHead {
  code: string;
  name: string;
}

type Range = { from: string; to: string };

const ofValue = (rows: readonly ValueBucketSums[], value: string | null) => rows.filter((r) => r.value === value);

export function trialBalanceByDimension(
  rows: readonly ValueBucketSums[],
  range: Range,
  currency: string,
  dimension: DimensionHead,
  columns: readonly DimensionColumn[],
) {
  const company = trialBalanceOf(rows, range, currency, true);
  const perColumn = columns.map((c) => ({
    value: c.value,
    report: trialBalanceOf(ofValue(rows, c.value), range, currency, true),
  }));
  const zero = { opening: 0, debit: 0, credit: 0, closing: 0 };
  return {
    ...company,
    dimension: { ...dimension, columns },
    accounts: company.accounts.map((a) => ({
      ...a,
      columns: perColumn.map(({ value, report }) => {
        const row = report.accounts.find((r) => r.accno === a.accno) ?? zero;
        return { value, opening: row.opening, debit: row.debit, credit: row.credit, closing: row.closing };
      }),
    })),
    totals: { ...company.totals, columns: perColumn.map(({ value, report }) => ({ value, ...report.totals })) },
  };
}

export function incomeStatementByDimension(
  rows: readonly ValueBucketSums[],
  range: Range,
  currency: string,
  dimension: DimensionHead,
  columns: readonly DimensionColumn[],
) {
  const company = incomeStatementOf(rows, range, currency, true);
  const perColumn = columns.map((c) => ({
    value: c.value,
    report: incomeStatementOf(ofValue(rows, c.value), range, currency, true),
  }));
  const section = (key: 'income' | 'expenses') => ({
    ...company[key],
    accounts: company[key].accounts.map((a) => ({
      ...a,
      columns: perColumn.map(({ value, report }) => ({
        value,
        amount: report[key].accounts.find((r) => r.accno === a.accno)?.amount ?? 0,
      })),
    })),
    columns: perColumn.map(({ value, report }) => ({ value, total: report[key].total })),
  });
  return {
    ...company,
    dimension: { ...dimension, columns },
    income: section('income'),
    expenses: section('expenses'),
    columns: perColumn.map(({ value, report }) => ({ value, net_income: report.net_income })),
  };
}
