/**
 * Fixed assets (`/assets`, docs/year-end.md "Fixed assets"): the register, depreciation runs
 * (one journal entry per run), disposal and the asset schedule (`/reports/assets`).
 */
import {
  assetCreateSchema,
  assetDisposalResultSchema,
  assetDisposalSchema,
  assetReadSchema,
  assetScheduleQuerySchema,
  assetScheduleSchema,
  assetUpdateSchema,
  depreciationRunResultSchema,
  depreciationRunSchema,
  dimensionCreatedSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const listAssets = contract({
  name: 'listAssets',
  method: 'GET',
  path: '/assets',
  summary: 'List fixed assets',
  description:
    'The asset register: every fixed asset with its accounts, method, depreciation booked so far and book value, ' +
    'disposed ones included, by acquisition date',
  example: examples.listAssets,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  response: { type: 'array', items: assetReadSchema },
  errors: [],
});

export const createAsset = contract({
  name: 'createAsset',
  method: 'POST',
  path: '/assets',
  summary: 'Add a fixed asset to the register',
  description:
    'Add a fixed asset: its accounts, acquisition date and cost, residual value, method (linear over life_months, ' +
    'or declining at rate) and frequency. Posts nothing: the acquisition is booked by its bill or journal entry',
  example: examples.createAsset,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'none',
  body: assetCreateSchema,
  status: 201,
  location: '/assets/{id}',
  response: dimensionCreatedSchema,
  errors: [],
});

export const getAsset = contract({
  name: 'getAsset',
  method: 'GET',
  path: '/assets/:id',
  summary: 'Read a fixed asset',
  description: 'One fixed asset with the depreciation booked so far and its book value',
  example: examples.getAsset,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  response: assetReadSchema,
  errors: [],
});

export const updateAsset = contract({
  name: 'updateAsset',
  method: 'POST',
  path: '/assets/:id',
  summary: 'Change a fixed asset',
  description:
    'Change the fields sent. Once depreciation is booked (or the asset disposed of) only the name may change: 409 ' +
    'for anything else',
  example: examples.updateAsset,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'none',
  body: assetUpdateSchema,
  response: assetReadSchema,
  errors: ['conflict'],
});

export const deleteAsset = contract({
  name: 'deleteAsset',
  method: 'DELETE',
  path: '/assets/:id',
  summary: 'Remove a fixed asset from the register',
  description: 'Remove an asset nothing was booked for (409 once depreciation or its disposal is booked)',
  example: examples.deleteAsset,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});

export const runDepreciation = contract({
  name: 'runDepreciation',
  method: 'POST',
  path: '/assets/depreciation_run',
  summary: 'Book depreciation up to a date',
  description:
    'Depreciate every asset for the periods of its frequency ending on or before `to`: one journal entry dated `to` ' +
    '(expense debit, accumulated depreciation or the asset credit). Running it again to the same date books nothing ' +
    '(journal_id null). A `to` in the closed period is 422',
  example: examples.runDepreciation,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  body: depreciationRunSchema,
  response: depreciationRunResultSchema,
  errors: ['closed_period'],
});

export const disposeAsset = contract({
  name: 'disposeAsset',
  method: 'POST',
  path: '/assets/:id/dispose',
  summary: 'Dispose of a fixed asset',
  description:
    'Sell or scrap an asset: one journal entry dated `date` takes the asset and its accumulated depreciation out, ' +
    'books the proceeds to `account` and the gain or loss to result_account (default the expense account). Book ' +
    'depreciation up to the date first (runDepreciation)',
  example: examples.disposeAsset,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  body: assetDisposalSchema,
  response: assetDisposalResultSchema,
  errors: ['conflict', 'closed_period'],
});

export const assetSchedule = contract({
  name: 'assetSchedule',
  method: 'GET',
  path: '/reports/assets',
  summary: 'Asset schedule',
  description:
    'Per asset and in total: book value at the start, additions, depreciation, disposals and book value at the end ' +
    'of the period, and the tie-out of each asset account with the ledger',
  example: examples.assetSchedule,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: assetScheduleQuerySchema,
  response: assetScheduleSchema,
  errors: [],
});
