/** Chart of accounts, taxes, closing the books, API keys, the audit log, and the key check. */
import {
  apiKeyCreatedSchema, apiKeyCreateSchema, apiKeySchema, auditEntrySchema, auditQuerySchema, chartAccountSchema,
  closeBooksSchema, closeBooksStateSchema, taxSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';

export const validateApiKey = contract({
  name: 'validateApiKey',
  method: 'POST',
  path: '/auth/validate_api',
  summary: 'Check an API key: {"success": 1} when it is valid for the dataset',
  permission: null,
  scope: null,
  response: { type: 'object', required: ['success'], properties: { success: { const: 1 } } },
  errors: [],
});

export const listChartAccounts = contract({
  name: 'listChartAccounts',
  method: 'GET',
  path: '/system/chart/accounts',
  summary: 'Chart of accounts with link attributes and attached tax rates (ETag, cache for an hour)',
  permission: 'system.chart_of_accounts',
  scope: 'accounting:read',
  response: { type: 'array', items: chartAccountSchema },
  cacheable: true,
  list: true,
  errors: [],
});

export const listTaxes = contract({
  name: 'listTaxes',
  method: 'GET',
  path: '/system/taxes',
  summary: 'Tax rates with their tax accounts and validity dates (ETag, cache for an hour)',
  permission: 'system.taxes',
  scope: 'accounting:read',
  response: { type: 'array', items: taxSchema },
  cacheable: true,
  list: true,
  errors: [],
});

export const getClosingDate = contract({
  name: 'getClosingDate',
  method: 'GET',
  path: '/system/close_books',
  summary: 'The date the books are closed up to (null when never closed)',
  permission: 'system.fiscal_years',
  scope: 'accounting:read',
  response: closeBooksStateSchema,
  errors: [],
});

export const closeBooks = contract({
  name: 'closeBooks',
  method: 'POST',
  path: '/system/close_books',
  summary:
    'Close the books up to and including a date (writes dated on or before it → 422 closed_period). ' +
    'An earlier date than the current one → 409 unless reopen: true (owners only)',
  permission: 'system.close_books',
  scope: null,
  body: closeBooksSchema,
  response: closeBooksStateSchema,
  errors: ['conflict'],
});

export const listApiKeys = contract({
  name: 'listApiKeys',
  method: 'GET',
  path: '/system/api_keys',
  summary: "The company's API keys (never the keys themselves)",
  permission: 'system.management.api_keys',
  scope: null,
  response: { type: 'array', items: apiKeySchema },
  list: true,
  errors: [],
});

export const createApiKey = contract({
  name: 'createApiKey',
  method: 'POST',
  path: '/system/api_keys',
  summary: 'Create an API key for the calling user; the key is shown only in this response',
  permission: 'system.management.api_keys',
  scope: null,
  body: apiKeyCreateSchema,
  status: 201,
  response: apiKeyCreatedSchema,
  errors: [],
});

export const deleteApiKey = contract({
  name: 'deleteApiKey',
  method: 'DELETE',
  path: '/system/api_keys/:id',
  summary: 'Delete an API key; it is refused from the next request on',
  permission: 'system.management.api_keys',
  scope: null,
  status: 204,
  errors: [],
});

export const listAudit = contract({
  name: 'listAudit',
  method: 'GET',
  path: '/system/audit',
  summary: 'Audit log, newest first unless `sort` says otherwise: who changed what, via which API key, CLI or AI connection',
  permission: 'system.audit_log',
  scope: null,
  query: auditQuerySchema,
  response: { type: 'array', items: auditEntrySchema },
  list: true,
  errors: [],
});
