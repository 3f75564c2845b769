import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { closeFiscalYear, listFiscalYears } from './service.ts';

/** Fiscal years `/system/fiscal_years` (docs/journal.md). */
export const fiscalYearRoutes = [
  route(contracts.listFiscalYears, async (req) => listFiscalYears(req, req.query)),
  route(contracts.closeFiscalYear, async (req) => closeFiscalYear(req, idParam(req.params.year, 'fiscal year'))),
];
