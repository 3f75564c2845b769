import { contracts } from '@ledger/shared';
import { listAccounts, listTaxes } from './store.ts';
import { createApiKey, deleteApiKey, listApiKeys } from '../../db/apiKeys.ts';
import { listAudit, recordAudit } from '../../db/audit.ts';
import { wholeList } from '../../db/listOrder.ts';
import { ApiError } from '../../kernel/errors.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';

/** Chart of accounts, taxes (cacheable), API keys and the audit log. */
export const systemRoutes = [
  route(contracts.listChartAccounts, async (req) => wholeList(await listAccounts(req.tx))),
  route(contracts.listTaxes, async (req) => wholeList(await listTaxes(req.tx))),
  route(contracts.listApiKeys, async (req) => wholeList(await listApiKeys(req.tx, req.company.id))),
  route(contracts.createApiKey, async (req) => {
    const created = await createApiKey(req.tx, req.company.id, req.actor.userId, req.body.label);
    await recordAudit(req.tx, req.company.id, req.actor, 'api_key', created.id, 'create', { label: created.label });
    return created;
  }),
  route(contracts.deleteApiKey, async (req) => {
    const id = idParam(req.params.id, 'API key');
    if (!(await deleteApiKey(req.tx, req.company.id, id))) throw new ApiError('not_found', `No API key with id ${id}.`);
    await recordAudit(req.tx, req.company.id, req.actor, 'api_key', id, 'delete');
    return undefined;
  }),
  route(contracts.listAudit, async (req) => listAudit(req.tx, req.query)),
];
