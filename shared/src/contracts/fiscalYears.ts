/** Fiscal years and closing them: `/system/fiscal_years` (DESIGN.md §5.4; docs/journal.md). */
import { fiscalYearSchema } from '../schemas/index.ts';
import { contract } from './contract.ts';

export const listFiscalYears = contract({
  name: 'listFiscalYears',
  method: 'GET',
  path: '/system/fiscal_years',
  summary: 'Fiscal years (calendar years) from the first posted line to the current year, oldest first, each with whether it is closed',
  permission: 'system.fiscal_years',
  scope: 'accounting:read',
  response: { type: 'array', items: fiscalYearSchema },
  list: true,
  errors: [],
});

export const closeFiscalYear = contract({
  name: 'closeFiscalYear',
  method: 'POST',
  path: '/system/fiscal_years/:year/close',
  summary:
    "Close a fiscal year: one closing journal entry dated the year's last day books its income and expense balances to " +
    "the company's retained_earnings_account, and the books are closed up to the year's end (never moved back). An already " +
    'closed year or one not yet over → 409. Reopening: POST /system/close_books with an earlier date and reopen: true reverses the closing entry',
  permission: 'system.close_books',
  scope: null,
  response: fiscalYearSchema,
  errors: ['conflict'],
});
