import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { customerInvoiceContext, mailSettings } from '../mail/index.ts';
import { dunningRun, dunningRuns, runDunning } from './service.ts';

/** Dunning runs: `POST /arap/dunning/run`, `GET /arap/dunning/runs[/{id}]` (docs/invoices.md "Dunning runs"). */
export const dunningRoutes = [
  route(contracts.runDunning, async (req) => runDunning(customerInvoiceContext(req), mailSettings(req), req.body)),
  route(contracts.listDunningRuns, async (req) =>
    dunningRuns(customerInvoiceContext(req), { limit: req.query.limit ?? 100, offset: req.query.offset ?? 0 }),
  ),
  route(contracts.getDunningRun, async (req) =>
    dunningRun(customerInvoiceContext(req), idParam(req.params.id, 'dunning run')),
  ),
];
