import {
  apiKeyCreatedSchema, apiKeyCreateSchema, apiKeySchema, auditEntrySchema, auditQuerySchema, chartAccountSchema, taxSchema,
} from '@ledger/shared';
import { listAccounts, listTaxes } from '../../db/chart.ts';
import { createApiKey, deleteApiKey, listApiKeys } from '../../db/apiKeys.ts';
import { listAudit, recordAudit } from '../../db/audit.ts';
import { wholeList } from '../../db/listOrder.ts';
import { ApiError } from '../errors.ts';
import type { RouteDef, RouteRequest } from '../route.ts';
import { idParam } from './params.ts';

/** Chart of accounts, taxes (cacheable), API keys and the audit log. */
export const systemRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/system/chart/accounts',
    summary: 'Chart of accounts with link attributes and attached tax rates (ETag, cache for an hour)',
    response: { type: 'array', items: chartAccountSchema },
    cacheable: true,
    list: true,
    handler: async (req) => wholeList(await listAccounts(req.tx)),
  },
  {
    method: 'GET',
    path: '/system/taxes',
    summary: 'Tax rates with their tax accounts and validity dates (ETag, cache for an hour)',
    response: { type: 'array', items: taxSchema },
    cacheable: true,
    list: true,
    handler: async (req) => wholeList(await listTaxes(req.tx)),
  },
  {
    method: 'GET',
    path: '/system/api_keys',
    summary: "The company's API keys (never the keys themselves)",
    response: { type: 'array', items: apiKeySchema },
    list: true,
    handler: async (req) => wholeList(await listApiKeys(req.tx, req.company.id)),
  },
  {
    method: 'POST',
    path: '/system/api_keys',
    summary: 'Create an API key for the calling user; the key is shown only in this response',
    body: apiKeyCreateSchema,
    status: 201,
    response: apiKeyCreatedSchema,
    handler: async (req: RouteRequest<{ label: string }>) => {
      const created = await createApiKey(req.tx, req.company.id, req.actor.userId, req.body.label);
      await recordAudit(req.tx, req.company.id, req.actor, 'api_key', created.id, 'create', { label: created.label });
      return created;
    },
  },
  {
    method: 'DELETE',
    path: '/system/api_keys/:id',
    summary: 'Delete an API key; it is refused from the next request on',
    status: 204,
    handler: async (req) => {
      const id = idParam(req.params.id, 'API key');
      if (!(await deleteApiKey(req.tx, req.company.id, id))) throw new ApiError('not_found', `No API key with id ${id}.`);
      await recordAudit(req.tx, req.company.id, req.actor, 'api_key', id, 'delete');
      return undefined;
    },
  },
  {
    method: 'GET',
    path: '/system/audit',
    summary: 'Audit log, newest first unless `sort` says otherwise: who changed what, via which API key, CLI or AI connection',
    query: auditQuerySchema,
    response: { type: 'array', items: auditEntrySchema },
    list: true,
    handler: async (req: RouteRequest<unknown, { sort: string; limit: number; offset: number; entity?: string; entity_id?: number }>) =>
      listAudit(req.tx, req.query),
  },
];
