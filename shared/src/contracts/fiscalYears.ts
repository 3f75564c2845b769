/** Fiscal years and closing them: `/system/fiscal_years` (docs/journal.md). */
import { fiscalYearSchema, pageQuerySchema } from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listFiscalYears = contract({
  name: 'listFiscalYears',
  method: 'GET',
  path: '/system/fiscal_years',
  summary: 'List fiscal years',
  description:
    "Fiscal years (the company's: any start month, a first year of its own; numbered by the calendar year they end " +
    'in) from the first posted line to the current year, oldest first, each with whether ' +
    'it is closed',
  example: examples.listFiscalYears,
  permission: 'system.fiscal_years',
  scope: 'accounting:read',
  query: pageQuerySchema,
  response: { type: 'array', items: fiscalYearSchema },
  list: true,
  errors: [],
});

export const closeFiscalYear = contract({
  name: 'closeFiscalYear',
  method: 'POST',
  path: '/system/fiscal_years/:year/close',
  summary: 'Close a fiscal year',
  description:
    "Close a fiscal year: one closing journal entry dated the year's last day books its income and expense balances " +
    "to the company's retained_earnings_account, and the books are closed up to the year's end (never moved back). " +
    'An already closed year or one not yet over → 409. Reopening: POST /system/close_books with an earlier date and ' +
    'reopen: true reverses the closing entry',
  example: examples.closeFiscalYear,
  permission: 'system.close_books',
  scope: null,
  response: fiscalYearSchema,
  errors: ['conflict'],
});
