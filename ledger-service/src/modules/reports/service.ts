import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { bucketSums, compactBalances, vatReads } from './reads.ts';
import {
  addDays,
  balanceSheetOf,
  fiscalYearStart,
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

export async function trialBalance(c: ReportContext, query: Period) {
  const range = period(query, c.today);
  await compactBalances(c.tx, c.company.id);
  const rows = await bucketSums(c.tx, c.company.id, {
    opening: { from: null, to: addDays(range.from, -1) },
    period: range,
  });
  return trialBalanceOf(rows, range, c.company.base_currency);
}

export async function incomeStatement(c: ReportContext, query: Period) {
  const range = period(query, c.today);
  await compactBalances(c.tx, c.company.id);
  const rows = await bucketSums(
    c.tx,
    c.company.id,
    { period: range },
    { excludeClosing: true, categories: ['I', 'E'] },
  );
  return incomeStatementOf(rows, range, c.company.base_currency);
}

export async function balanceSheet(c: ReportContext, query: { date?: string }) {
  const date = query.date ?? c.today;
  const start = fiscalYearStart(date);
  await compactBalances(c.tx, c.company.id);
  const rows = await bucketSums(c.tx, c.company.id, {
    earlier: { from: null, to: addDays(start, -1) },
    current: { from: start, to: date },
  });
  return balanceSheetOf(rows, date, c.company.base_currency);
}

export async function vatReport(c: ReportContext, query: Period) {
  const range = period(query, c.today);
  const currency = c.company.base_currency;
  const reads = await vatReads(c.tx, c.company.id, range, currency);
  const swiss =
    currency === 'CHF'
      ? { groups: reads.groups, untaxedSales: reads.untaxedSales, materialInputTax: reads.materialInputTax }
      : null;
  return vatReportOf(range, currency, reads.groups, reads.otherMovements, swiss);
}
