/** Chart of accounts, taxes, closing the books, API keys, the audit log, and the key check. */
import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeySchema,
  auditEntrySchema,
  auditQuerySchema,
  cachedListQuerySchema,
  chartAccountCreateSchema,
  chartAccountSchema,
  chartAccountUpdateSchema,
  closeBooksSchema,
  closeBooksStateSchema,
  pageQuerySchema,
} from '../schemas/index.ts';
import { taxCodeCreateSchema, taxCodeSchema, taxCodeUpdateSchema } from '../schemas/vat.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const validateApiKey = contract({
  name: 'validateApiKey',
  method: 'POST',
  path: '/auth/validate_api',
  summary: 'Check an API key',
  description: 'Check an API key: {"success": 1} when it is valid for the dataset',
  example: examples.validateApiKey,
  permission: null,
  scope: null,
  response: { type: 'object', required: ['success'], properties: { success: { const: 1 } } },
  errors: [],
});

export const listChartAccounts = contract({
  name: 'listChartAccounts',
  method: 'GET',
  path: '/system/chart/accounts',
  summary: 'List the chart of accounts',
  description:
    'Chart of accounts with link attributes and attached tax rates, by account number (ETag, cache for an hour; ' +
    'pages of up to 1000, the default)',
  example: examples.listChartAccounts,
  permission: 'system.chart_of_accounts',
  scope: 'accounting:read',
  query: cachedListQuerySchema,
  response: { type: 'array', items: chartAccountSchema },
  cacheable: true,
  list: true,
  errors: [],
});

export const createChartAccount = contract({
  name: 'createChartAccount',
  method: 'POST',
  path: '/system/chart/accounts',
  summary: 'Add an account to the chart',
  description:
    'Add an account to the chart: accno (unique; 409 when taken), description, category and link attributes; answers ' +
    'the account',
  example: examples.createChartAccount,
  permission: 'system.add_account',
  scope: null,
  body: chartAccountCreateSchema,
  status: 201,
  // no read of one account: the URL is the one its changes are sent to
  location: '/system/chart/accounts/{accno}',
  response: chartAccountSchema,
  errors: ['conflict'],
});

export const updateChartAccount = contract({
  name: 'updateChartAccount',
  method: 'POST',
  path: '/system/chart/accounts/:accno',
  summary: 'Change an account of the chart',
  description:
    'Change an account: description, category, links (the fields sent). 409 for a change that would alter what its ' +
    'postings mean (category, control or tax links while it has postings) or make it unfit for a use the company ' +
    'gives it (a setting, bank account, service or tax rate)',
  example: examples.updateChartAccount,
  permission: 'system.add_account',
  scope: null,
  body: chartAccountUpdateSchema,
  response: chartAccountSchema,
  errors: ['conflict'],
});

export const listTaxes = contract({
  name: 'listTaxes',
  method: 'GET',
  path: '/system/taxes',
  summary: 'List tax codes',
  description:
    'Tax codes with their tax account, kind, return figure, current rate and rate history (ETag, cache for an hour; ' +
    'pages of up to 1000, the default), docs/vat.md',
  example: examples.listTaxes,
  permission: 'system.taxes',
  scope: 'accounting:read',
  query: cachedListQuerySchema,
  response: { type: 'array', items: taxCodeSchema },
  cacheable: true,
  list: true,
  errors: [],
});

export const getTax = contract({
  name: 'getTax',
  method: 'GET',
  path: '/system/taxes/:code',
  summary: 'Read one tax code',
  description: 'One tax code with its current rate and its rate history',
  example: examples.getTax,
  permission: 'system.taxes',
  scope: 'accounting:read',
  response: taxCodeSchema,
  errors: [],
});

export const createTax = contract({
  name: 'createTax',
  method: 'POST',
  path: '/system/taxes',
  summary: 'Add a tax code',
  description:
    'Add a tax code: code (unique; 409 when taken), description, tax account (one code per account), kind, return ' +
    'figure and rate history (periods must not overlap: 400)',
  example: examples.createTax,
  permission: 'system.add_account',
  scope: null,
  body: taxCodeCreateSchema,
  status: 201,
  location: '/system/taxes/{code}',
  response: taxCodeSchema,
  errors: ['conflict'],
});

export const updateTax = contract({
  name: 'updateTax',
  method: 'POST',
  path: '/system/taxes/:code',
  summary: 'Change a tax code or its rate history',
  description:
    'Change a tax code (the fields sent). `rates` replaces the history: periods must not overlap (400), and a period ' +
    'posted lines use stays as it was (409), so a new rate from a date is a new period. The account of a used code ' +
    'cannot change (409)',
  example: examples.updateTax,
  permission: 'system.add_account',
  scope: null,
  body: taxCodeUpdateSchema,
  response: taxCodeSchema,
  errors: ['conflict'],
});

export const deleteTax = contract({
  name: 'deleteTax',
  method: 'DELETE',
  path: '/system/taxes/:code',
  summary: 'Delete an unused tax code',
  description: 'Delete a tax code no document line uses; a used one → 409 naming how many lines use it',
  example: examples.deleteTax,
  permission: 'system.add_account',
  scope: null,
  status: 204,
  errors: ['conflict'],
});

export const getClosingDate = contract({
  name: 'getClosingDate',
  method: 'GET',
  path: '/system/close_books',
  summary: 'Read the closing date of the books',
  description: 'The date the books are closed up to (null when never closed)',
  example: examples.getClosingDate,
  permission: 'system.fiscal_years',
  scope: 'accounting:read',
  response: closeBooksStateSchema,
  errors: [],
});

export const closeBooks = contract({
  name: 'closeBooks',
  method: 'POST',
  path: '/system/close_books',
  summary: 'Close the books up to a date',
  description:
    'Close the books up to and including a date (writes dated on or before it → 422 closed_period). ' +
    'An earlier date than the current one → 409 unless reopen: true (owners only)',
  example: examples.closeBooks,
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
  summary: 'List API keys',
  description: "The company's API keys (never the keys themselves), oldest first",
  example: examples.listApiKeys,
  permission: 'system.management.api_keys',
  scope: null,
  query: pageQuerySchema,
  response: { type: 'array', items: apiKeySchema },
  list: true,
  errors: [],
});

export const createApiKey = contract({
  name: 'createApiKey',
  method: 'POST',
  path: '/system/api_keys',
  summary: 'Create an API key',
  description: 'Create an API key for the calling user; the key is shown only in this response',
  example: examples.createApiKey,
  permission: 'system.management.api_keys',
  scope: null,
  body: apiKeyCreateSchema,
  status: 201,
  // no read of one key: the URL is the one DELETE revokes
  location: '/system/api_keys/{id}',
  response: apiKeyCreatedSchema,
  errors: [],
});

export const deleteApiKey = contract({
  name: 'deleteApiKey',
  method: 'DELETE',
  path: '/system/api_keys/:id',
  summary: 'Delete an API key',
  description: 'Delete an API key; it is refused from the next request on',
  example: examples.deleteApiKey,
  permission: 'system.management.api_keys',
  scope: null,
  status: 204,
  errors: [],
});

export const listAudit = contract({
  name: 'listAudit',
  method: 'GET',
  path: '/system/audit',
  summary: 'Read the audit log',
  description:
    'Audit log, newest first unless `sort` says otherwise: who changed what, via which API key, CLI or AI connection',
  example: examples.listAudit,
  permission: 'system.audit_log',
  scope: null,
  query: auditQuerySchema,
  response: { type: 'array', items: auditEntrySchema },
  list: true,
  errors: [],
});
