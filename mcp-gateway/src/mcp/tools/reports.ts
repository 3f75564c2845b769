/** Accounting area: the four reports (REST `/reports/...`, JSON; docs/reports.md). */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { isRecord } from './isRecord.ts';

const SIGNS = 'Amounts in the base currency with ledger signs: debit positive, credit negative (revenue, payables and equity are negative).';

/** `12.50 CHF` from a report's number and currency, for the one-line summaries. */
function money(result: unknown, value: unknown): string {
  const currency = isRecord(result) && typeof result.currency === 'string' ? result.currency : '';
  return typeof value === 'number' ? `${value.toFixed(2)} ${currency}`.trim() : '?';
}

const field = (result: unknown, name: string): unknown => (isRecord(result) ? result[name] : undefined);

export const reportTools: ToolDeclaration[] = [
  {
    name: 'trial_balance',
    title: 'Trial balance',
    description:
      `Trial balance from \`from\` to \`to\` (default: 1 January to today): per account the opening balance, the period's debit and credit lines and the closing balance; the totals sum to zero. ${SIGNS} Closing entries of fiscal years are included.`,
    area: 'accounting',
    access: 'read',
    contract: contracts.trialBalance,
    summary: (result) => {
      const accounts = field(result, 'accounts');
      return `Trial balance ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: ${Array.isArray(accounts) ? accounts.length : 0} accounts.`;
    },
  },
  {
    name: 'income_statement',
    title: 'Income statement',
    description:
      `Income statement from \`from\` to \`to\` (default: 1 January to today): income and expense accounts with their movement in the period, closing entries left out. ${SIGNS} net_income is the result with a profit positive.`,
    area: 'accounting',
    access: 'read',
    contract: contracts.incomeStatement,
    summary: (result) => `Net income ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: ${money(result, field(result, 'net_income'))}.`,
  },
  {
    name: 'balance_sheet',
    title: 'Balance sheet',
    description:
      `Balance sheet at \`date\` (default today): assets, liabilities and equity accounts, with the current year's result and the results of earlier years not yet closed as their own equity lines. ${SIGNS} total_assets equals total_liabilities_and_equity.`,
    area: 'accounting',
    access: 'read',
    contract: contracts.balanceSheet,
    summary: (result) => `Balance sheet at ${String(field(result, 'date'))}: total assets ${money(result, field(result, 'total_assets'))}.`,
  },
  {
    name: 'vat_report',
    title: 'VAT report',
    description:
      'VAT report from `from` to `to` (default: 1 January to today): per tax code and rate the taxable base and the tax, output (sales) and input (purchases) separately, both positive as on the tax form, and net_due = output tax − input tax. For CHF companies also the figures of the Swiss VAT return, effective method (200 … 500/510).',
    area: 'accounting',
    access: 'read',
    contract: contracts.vatReport,
    summary: (result) => `VAT ${String(field(result, 'from'))} – ${String(field(result, 'to'))}: net amount due ${money(result, field(result, 'net_due'))}.`,
  },
];
