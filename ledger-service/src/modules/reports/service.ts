import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { ruleInvalid } from '../../domain/errors.ts';
import { fiscalCalendarOf, fiscalYearOf } from '../../domain/fiscalYear.ts';
import { dimensionByCode } from '../dimensions/index.ts';
import { accountNames, bucketSums, compactBalances, dimensionBucketSums, vatReads } from './reads.ts';
import { balanceSheetOr, incomeStatementOr, type AccountAmount } from './orLayout.ts';
import { DEFAULT_LANGUAGE, isLanguage, Money, type Language } from '@ledger/shared';
import type { BucketSums } from './rules.ts';
import { firstLineDate } from '../company/index.ts';
import { type DimensionColumn, incomeStatementByDimension, trialBalanceByDimension } from './byDimension.ts';
import {
  addDays,
  balanceSheetOf,
  calendarYearStart,
  incomeStatementOf,
  period,
  trialBalanceOf,
  vatReportOf,
} from './rules.ts';

/**
 * The four reports (docs/reports.md): periods and defaults, then the sums
 * from reads.ts shaped by rules.ts. Figures in the company's base currency from posted
 * ledger lines only (drafts have none).
 */
export interface ReportContext {
  tx: Tx;
  company: Company;
  today: string;
}

type Period = { from?: string; to?: string };

/**
 * The first day of the company's fiscal year of a date (domain/fiscalYear.ts); the first posted line is read only
 * when the company has a first year of its own (it begins with the books).
 */
async function yearStartOf(c: ReportContext): Promise<(date: string) => string> {
  const cal = fiscalCalendarOf(c.company.settings);
  const firstLine = cal.firstEnd === null ? null : await firstLineDate(c.tx, c.company.id);
  return (date) => fiscalYearOf(cal, date, firstLine).start;
}

/** A report's language (`?language=`: the accounts' names) and layout (`?layout=or`). */
type Presentation = { language?: Language; layout?: 'or' };

/** The rows with each account's name in `language` where the chart has one (docs/year-end.md); as they are without. */
async function named<R extends BucketSums>(c: ReportContext, rows: R[], language: Language | undefined): Promise<R[]> {
  if (language === undefined) return rows;
  const names = await accountNames(c.tx, c.company.id, language);
  return rows.map((r) => ({ ...r, description: names.get(r.accno) ?? r.description }));
}

/** The language of the layout's items: the one asked for, else the company's. */
const layoutLanguage = (c: ReportContext, language: Language | undefined): Language =>
  language ?? (isLanguage(c.company.settings.language) ? c.company.settings.language : DEFAULT_LANGUAGE);

const amounts = (
  accounts: readonly { accno: string; description: string; amount: number }[],
  category: string,
): AccountAmount[] => accounts.map((a) => ({ ...a, category, amount: new Money(a.amount) }));

/** A report's dimension query: the dimension's code and optionally one of its values. */
type ByDimension = { dimension?: string; value?: string };

/** The dimension a report asks for (400 when unknown, or `value` without `dimension` or unknown). */
async function dimensionOf(c: ReportContext, query: ByDimension) {
  if (query.dimension === undefined) {
    if (query.value !== undefined) throw ruleInvalid('value needs dimension, the code of its dimension.', '/value');
    return undefined;
  }
  const dimension = await dimensionByCode(c.tx, c.company.id, query.dimension);
  if (!dimension) throw ruleInvalid(`There is no dimension "${query.dimension}".`, '/dimension');
  if (query.value !== undefined && !dimension.values.some((v) => v.code === query.value))
    throw ruleInvalid(`The dimension "${query.dimension}" has no value "${query.value}".`, '/value');
  const columns: DimensionColumn[] = [
    ...dimension.values.map((v) => ({ value: v.code, name: v.name })),
    { value: null, name: 'unassigned' },
  ];
  return { head: { code: dimension.code, name: dimension.name }, value: query.value, columns };
}

export async function trialBalance(c: ReportContext, query: Period & ByDimension & Presentation) {
  const range = period(query, c.today, await yearStartOf(c));
  const dimension = await dimensionOf(c, query);
  if (dimension) {
    const buckets = { opening: { from: null, to: addDays(range.from, -1) }, period: range };
    const rows = await named(
      c,
      await dimensionBucketSums(c.tx, c.company.id, buckets, { ...dimension.head, value: dimension.value }),
      query.language,
    );
    if (dimension.value !== undefined) {
      return {
        ...trialBalanceOf(rows, range, c.company.base_currency),
        dimension: { ...dimension.head, value: dimension.value },
      };
    }
    return trialBalanceByDimension(rows, range, c.company.base_currency, dimension.head, dimension.columns);
  }
  await compactBalances(c.tx, c.company.id);
  const rows = await named(
    c,
    await bucketSums(c.tx, c.company.id, { opening: { from: null, to: addDays(range.from, -1) }, period: range }),
    query.language,
  );
  return trialBalanceOf(rows, range, c.company.base_currency);
}

export async function incomeStatement(c: ReportContext, query: Period & ByDimension & Presentation) {
  const report = await incomeStatementPlain(c, query);
  if (query.layout !== 'or') return report;
  const language = layoutLanguage(c, query.language);
  const accounts = [...amounts(report.income.accounts, 'I'), ...amounts(report.expenses.accounts, 'E')];
  return { ...report, or: incomeStatementOr(accounts, language, c.company.base_currency) };
}

async function incomeStatementPlain(c: ReportContext, query: Period & ByDimension & Presentation) {
  const range = period(query, c.today, await yearStartOf(c));
  const dimension = await dimensionOf(c, query);
  if (dimension) {
    const rows = await named(
      c,
      await dimensionBucketSums(
        c.tx,
        c.company.id,
        { period: range },
        { ...dimension.head, value: dimension.value },
        { excludeClosing: true, categories: ['I', 'E'] },
      ),
      query.language,
    );
    if (dimension.value !== undefined) {
      return {
        ...incomeStatementOf(rows, range, c.company.base_currency),
        dimension: { ...dimension.head, value: dimension.value },
      };
    }
    return incomeStatementByDimension(rows, range, c.company.base_currency, dimension.head, dimension.columns);
  }
  await compactBalances(c.tx, c.company.id);
  const rows = await named(
    c,
    await bucketSums(c.tx, c.company.id, { period: range }, { excludeClosing: true, categories: ['I', 'E'] }),
    query.language,
  );
  return incomeStatementOf(rows, range, c.company.base_currency);
}

export async function balanceSheet(c: ReportContext, query: { date?: string } & Presentation) {
  const date = query.date ?? c.today;
  const start = (await yearStartOf(c))(date);
  await compactBalances(c.tx, c.company.id);
  const rows = await named(
    c,
    await bucketSums(c.tx, c.company.id, {
      earlier: { from: null, to: addDays(start, -1) },
      current: { from: start, to: date },
    }),
    query.language,
  );
  const report = balanceSheetOf(rows, date, start, c.company.base_currency);
  if (query.layout !== 'or') return report;
  const or = balanceSheetOr(
    {
      assets: amounts(report.assets.accounts, 'A'),
      liabilities: amounts(report.liabilities.accounts, 'L'),
      equity: amounts(report.equity.accounts, 'Q'),
      currentYearResult: new Money(report.equity.current_year_result),
      earlierYearsResult: new Money(report.equity.earlier_years_result),
    },
    layoutLanguage(c, query.language),
    c.company.base_currency,
  );
  return { ...report, or };
}

export async function vatReport(c: ReportContext, query: Period) {
  const range = period(query, c.today, calendarYearStart);
  const currency = c.company.base_currency;
  const reads = await vatReads(c.tx, c.company.id, range, currency);
  const swiss =
    currency === 'CHF'
      ? { groups: reads.groups, untaxedSales: reads.untaxedSales, materialInputTax: reads.materialInputTax }
      : null;
  return vatReportOf(range, currency, reads.groups, reads.otherMovements, swiss);
}
