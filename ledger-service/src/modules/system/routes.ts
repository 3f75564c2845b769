import { contracts } from '@ledger/shared';
import { listAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import { listApiKeys } from '../../db/apiKeys.ts';
import { wholeList } from '../../db/listOrder.ts';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addApiKey, closeBooks, removeApiKey } from './service.ts';
import { listAccounts, listTaxes } from './store.ts';

/** Chart of accounts, taxes (cacheable), API keys, the audit log and the books' closing date. */
export const systemRoutes = [
  route(contracts.listChartAccounts, async (req) => wholeList(await listAccounts(req.tx))),
  route(contracts.listTaxes, async (req) => wholeList(await listTaxes(req.tx))),
  route(contracts.listApiKeys, async (req) => wholeList(await listApiKeys(req.tx, req.company.id))),
  route(contracts.createApiKey, async (req) => addApiKey(req, req.body.label)),
  route(contracts.deleteApiKey, async (req) => removeApiKey(req, idParam(req.params.id, 'API key'))),
  route(contracts.listAudit, async (req) => listAudit(req.tx, req.query)),
  route(contracts.getClosingDate, async (req) => ({ date: await closedUntil(req.tx, req.company.id) })),
  route(contracts.closeBooks, async (req) => closeBooks(req, req.body.date, req.body.reopen ?? false)),
];
