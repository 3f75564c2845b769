import { contracts } from '@ledger/shared';
import { listAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import { apiKeyPage } from '../../db/apiKeys.ts';
import { accnoParam, idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addApiKey, addChartAccount, changeChartAccount, closeBooks, removeApiKey } from './service.ts';
import { listAccounts, listTaxes } from './store.ts';

/** Chart of accounts (read, add, change), taxes (cacheable), API keys, the audit log and the books' closing date. */
export const systemRoutes = [
  route(contracts.listChartAccounts, async (req) => listAccounts(req.tx, req.query)),
  route(contracts.createChartAccount, async (req) => addChartAccount(req, req.body)),
  route(contracts.updateChartAccount, async (req) => changeChartAccount(req, accnoParam(req.params.accno), req.body)),
  route(contracts.listTaxes, async (req) => listTaxes(req.tx, req.query)),
  route(contracts.listApiKeys, async (req) => apiKeyPage(req.tx, req.company.id, req.query)),
  route(contracts.createApiKey, async (req) => addApiKey(req, req.body.label)),
  route(contracts.deleteApiKey, async (req) => removeApiKey(req, idParam(req.params.id, 'API key'))),
  route(contracts.listAudit, async (req) => listAudit(req.tx, req.query)),
  route(contracts.getClosingDate, async (req) => ({ date: await closedUntil(req.tx, req.company.id) })),
  route(contracts.closeBooks, async (req) => closeBooks(req, req.body.date, req.body.reopen ?? false)),
];
