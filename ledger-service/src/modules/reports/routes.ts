import { contracts, type Contract } from '@ledger/shared';
import { route, type RouteRequest } from '../../kernel/route.ts';
import { negotiate } from '../../kernel/negotiate.ts';
import { today } from '../../domain/period.ts';
import { balanceSheet, incomeStatement, trialBalance, vatReport, type ReportContext } from './service.ts';
import {
  balanceSheetTable,
  incomeStatementTable,
  trialBalanceTable,
  vatReportTable,
  type ReportTable,
} from './tables.ts';
import { renderCsv, renderPdf } from './render.ts';

/**
 * `/reports/*` (docs/reports.md): JSON, or the same report as CSV or PDF
 * when Accept asks for it (kernel/negotiate.ts; 406 when Accept allows none of the three).
 */
function reportRoute<C extends Contract, R>(
  contract: C,
  build: (c: ReportContext, req: RouteRequest<C>) => Promise<R>,
  table: (r: R) => ReportTable,
) {
  return route(contract, async (req) => {
    const type = negotiate(req.ctx, contract);
    const report = await build({ tx: req.tx, company: req.company, today: today() }, req);
    if (type === 'application/json') return report;
    const t = table(report);
    req.ctx.type = type;
    if (type === 'text/csv') {
      req.ctx.attachment(`${t.fileName}.csv`, { type: 'attachment' });
      req.ctx.type = 'text/csv; charset=utf-8';
      return renderCsv(t);
    }
    req.ctx.attachment(`${t.fileName}.pdf`, { type: 'inline' });
    req.ctx.type = 'application/pdf';
    return renderPdf(t, req.company.name);
  });
}

export const reportRoutes = [
  reportRoute(contracts.trialBalance, (c, req) => trialBalance(c, req.query), trialBalanceTable),
  reportRoute(contracts.incomeStatement, (c, req) => incomeStatement(c, req.query), incomeStatementTable),
  reportRoute(contracts.balanceSheet, (c, req) => balanceSheet(c, req.query), balanceSheetTable),
  reportRoute(contracts.vatReport, (c, req) => vatReport(c, req.query), vatReportTable),
];
