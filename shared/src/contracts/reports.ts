/**
 * The four reports (docs/reports.md): JSON by default, and the same report
 * as CSV or PDF when the request's Accept asks for `text/csv` or `application/pdf`
 * (`download` lists the alternatives; an Accept that allows none of the three → 406).
 */
import {
  balanceSheetQuerySchema,
  dimensionPeriodQuerySchema,
  balanceSheetSchema,
  incomeStatementQuerySchema,
  incomeStatementSchema,
  periodQuerySchema,
  trialBalanceSchema,
  vatReportSchema,
} from '../schemas/reports.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

// the representations besides JSON, in the order the server prefers them when Accept ties
// (not exported: every export of a contracts file is taken for a contract)
const REPORT_FORMATS = ['text/csv', 'application/pdf'] as const;

export const trialBalance = contract({
  name: 'trialBalance',
  method: 'GET',
  path: '/reports/trial_balance',
  summary: 'Trial balance',
  description:
    'Trial balance from `from` to `to`: per account the opening balance, the debit and credit lines of the period ' +
    'and the closing balance (ledger signs: debit positive, credit negative), closing entries included; the totals ' +
    'sum to zero. `dimension` (and `value`): by cost centre or project, see docs/year-end.md. Accept: text/csv or ' +
    'application/pdf for the same report as a file',
  example: examples.trialBalance,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: dimensionPeriodQuerySchema,
  response: trialBalanceSchema,
  download: REPORT_FORMATS,
  errors: ['not_acceptable'],
});

export const incomeStatement = contract({
  name: 'incomeStatement',
  method: 'GET',
  path: '/reports/income_statement',
  summary: 'Income statement',
  description:
    'Income statement from `from` to `to`: income and expense accounts with their movement in the period (closing ' +
    'entries left out) and net_income (a profit is positive). `dimension` (and `value`): by cost centre or ' +
    "project. `language`: the accounts' names in de, fr, it or en; `layout=or`: the items of Art. 959b CO. Accept: " +
    'text/csv or application/pdf for a file',
  example: examples.incomeStatement,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: incomeStatementQuerySchema,
  response: incomeStatementSchema,
  download: REPORT_FORMATS,
  errors: ['not_acceptable'],
});

export const balanceSheet = contract({
  name: 'balanceSheet',
  method: 'GET',
  path: '/reports/balance_sheet',
  summary: 'Balance sheet',
  description:
    "Balance sheet at `date`: assets, liabilities and equity accounts, the current year's result and the results of " +
    'earlier years not yet closed as their own lines; total assets = total liabilities and equity. `language`: the ' +
    "accounts' names in de, fr, it or en; `layout=or`: the items of Art. 959a CO. Accept: text/csv or " +
    'application/pdf for a file',
  example: examples.balanceSheet,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: balanceSheetQuerySchema,
  response: balanceSheetSchema,
  download: REPORT_FORMATS,
  errors: ['not_acceptable'],
});

export const vatReport = contract({
  name: 'vatReport',
  method: 'GET',
  path: '/reports/vat',
  summary: 'VAT report (with the Swiss VAT return figures)',
  description:
    'VAT report from `from` to `to`: per tax code and rate the taxable base and the tax, output and input ' +
    'separately, the net amount due; for CHF companies the figures of the Swiss VAT return (effective method). ' +
    'Accept: text/csv or application/pdf for a file',
  example: examples.vatReport,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: periodQuerySchema,
  response: vatReportSchema,
  download: REPORT_FORMATS,
  errors: ['not_acceptable'],
});
