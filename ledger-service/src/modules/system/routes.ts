import { contracts } from '@ledger/shared';
import { listAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import { apiKeyPage } from '../../db/apiKeys.ts';
import { accnoParam, idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addApiKey, addChartAccount, changeChartAccount, closeBooks, removeApiKey } from './service.ts';
import { listAccounts } from './store.ts';
import { addTaxCode, changeTaxCode, removeTaxCode, taxCodePage, taxCodeRead } from './taxService.ts';

/** A tax code from the path (anything longer than a code is none). */
const taxCodeParam = (raw: string | undefined): string => (raw ?? '').slice(0, 31);

/** Chart of accounts (read, add, change), taxes (cacheable), API keys, the audit log and the books' closing date. */
export const systemRoutes = [
  route(contracts.listChartAccounts, async (req) => listAccounts(req.tx, req.company.id, req.query)),
  route(contracts.createChartAccount, async (req) => addChartAccount(req, req.body)),
  route(contracts.updateChartAccount, async (req) => changeChartAccount(req, accnoParam(req.params.accno), req.body)),
  route(contracts.listTaxes, async (req) => taxCodePage(req, req.query)),
  route(contracts.getTax, async (req) => taxCodeRead(req, taxCodeParam(req.params.code))),
  route(contracts.createTax, async (req) => addTaxCode(req, req.body)),
  route(contracts.updateTax, async (req) => changeTaxCode(req, taxCodeParam(req.params.code), req.body)),
  route(contracts.deleteTax, async (req) => removeTaxCode(req, taxCodeParam(req.params.code))),
  route(contracts.listApiKeys, async (req) => apiKeyPage(req.tx, req.company.id, req.query)),
  route(contracts.createApiKey, async (req) => addApiKey(req, req.body.label)),
  route(contracts.deleteApiKey, async (req) => removeApiKey(req, idParam(req.params.id, 'API key'))),
  route(contracts.listAudit, async (req) => listAudit(req.tx, req.query)),
  route(contracts.getClosingDate, async (req) => ({ date: await closedUntil(req.tx, req.company.id) })),
  route(contracts.closeBooks, async (req) => closeBooks(req, req.body.date, req.body.reopen ?? false)),
];
