/** Accounting area: the four reports (REST `/reports/...`, JSON; docs/reports.md). */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration, ToolInput, ToolLink } from './declare.ts';
import { isRecord } from './isRecord.ts';

/** `12.50 CHF` from a report's number and currency, for the one-line summaries. */
function money(result: unknown, value: unknown): string {
  const currency = isRecord(result) && typeof result.currency === 'string' ? result.currency : '';
  return typeof value === 'number' ? `${value.toFixed(2)} ${currency}`.trim() : '?';
}

const field = (result: unknown, name: string): unknown => (isRecord(result) ? result[name] : undefined);

/** The same report as CSV (resources.ts `reports/{name}.csv`), for the period the call asked. */
function csvOf(report: string, title: string) {
  return (input: ToolInput): ToolLink => {
    const query = new URLSearchParams();
    for (const key of ['from', 'to', 'date', 'language', 'layout'])
      if (typeof input[key] === 'string') query.set(key, input[key]);
    const q = query.toString();
    return {
      path: `reports/${report}.csv${q ? `?${q}` : ''}`,
      name: `${report}.csv`,
      title: `${title} (CSV)`,
      mimeType: 'text/csv',
    };
  };
}

export const reportTools: ToolDeclaration[] = [
  {
    name: 'trial_balance',
    title: 'Trial balance',
    description:
      'Per account: opening, debit, credit, closing of a period (default: fiscal year to date). Debit positive. ' +
      'dimension: a column per value plus unassigned; value: that one only.',
    area: 'accounting',
    access: 'read',
    contract: contracts.trialBalance,
    link: csvOf('trial_balance', 'Trial balance'),
    summary: (result) => {
      const accounts = field(result, 'accounts');
      return (
        `Trial balance ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: ` +
        `${Array.isArray(accounts) ? accounts.length : 0} accounts.`
      );
    },
  },
  {
    name: 'income_statement',
    title: 'Income statement',
    description:
      'Income and expenses of a period (default: fiscal year to date), net_income (profit positive). dimension: a ' +
      'column per value plus unassigned; value: that one only. layout "or": Art. 959b CO items; language: names.',
    area: 'accounting',
    access: 'read',
    contract: contracts.incomeStatement,
    link: csvOf('income_statement', 'Income statement'),
    summary: (result) =>
      `Net income ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: ` +
      `${money(result, field(result, 'net_income'))}.`,
  },
  {
    name: 'balance_sheet',
    title: 'Balance sheet',
    description:
      'Assets, liabilities and equity at a date (default today). Debit positive. layout "or": the items of Art. ' +
      '959a CO; language: account names.',
    area: 'accounting',
    access: 'read',
    contract: contracts.balanceSheet,
    link: csvOf('balance_sheet', 'Balance sheet'),
    summary: (result) =>
      `Balance sheet at ${String(field(result, 'date'))}: total assets ` +
      `${money(result, field(result, 'total_assets'))}.`,
  },
  {
    name: 'vat_report',
    title: 'VAT report',
    description:
      'VAT of a period by tax code: output tax, input tax, net_due; for CHF companies the Swiss VAT return figures.',
    area: 'accounting',
    access: 'read',
    contract: contracts.vatReport,
    link: csvOf('vat', 'VAT report'),
    summary: (result) =>
      `VAT ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: net amount due ` +
      `${money(result, field(result, 'net_due'))}.`,
  },
];
