/**
 * Accounting area, year end (docs/year-end.md): the dimensions postings and reports name, the
 * fixed-asset register and its depreciation runs.
 * The posting tools take `dimensions` per line from their contracts; the report tools take
 * `dimension` and `value` the same way.
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { isRecord } from './isRecord.ts';
import { countOf, plural } from './summaries.ts';

export const yearEndTools: ToolDeclaration[] = [
  {
    name: 'list_dimensions',
    title: 'Dimensions (cost centres, projects)',
    description:
      'Cost centres, projects and other dimensions with their value codes: a line names them as ' +
      'dimensions { "<dimension code>": "<value code>" }; reports take dimension (and value).',
    area: 'accounting',
    access: 'read',
    contract: contracts.listDimensions,
    listKey: 'dimensions',
    summary: (result) => `${plural(countOf(result), 'dimension')}.`,
  },
];

/** The asset register and its depreciation runs (a run posts: the person confirms it). */
export const assetTools: ToolDeclaration[] = [
  {
    name: 'list_assets',
    title: 'Fixed assets',
    description:
      'The fixed-asset register: accounts, acquisition, cost, method, depreciation booked so far and book value.',
    area: 'accounting',
    access: 'read',
    contract: contracts.listAssets,
    listKey: 'assets',
    summary: (result) => `${plural(countOf(result), 'fixed asset')}.`,
  },
  {
    name: 'create_asset',
    title: 'Add fixed asset',
    description:
      'Add a fixed asset to the register (posts nothing; its bill books the purchase): linear with life_months ' +
      'or declining with rate (0.4 = 40 %/year).',
    area: 'accounting',
    access: 'write',
    destructive: false,
    idempotent: false,
    contract: contracts.createAsset,
    summary: (result) => `Added fixed asset ${isRecord(result) ? String(result.id) : '?'}.`,
  },
  {
    name: 'run_depreciation',
    title: 'Book depreciation',
    description:
      'Book the depreciation of every fixed asset up to a date as one journal entry dated on it; again to the same ' +
      'date books nothing. The person confirms the posting.',
    area: 'accounting',
    access: 'write',
    destructive: false,
    idempotent: true,
    contract: contracts.runDepreciation,
    summary: (result) =>
      isRecord(result) && result.journal_id !== null
        ? `Depreciation booked as journal entry ${String(result.journal_id)}.`
        : 'Nothing was due: no entry booked.',
  },
];

/** Revaluation at closing rates (posts: the person confirms it). */
export const revaluationTools: ToolDeclaration[] = [
  {
    name: 'revalue',
    title: 'Revalue foreign currency',
    description:
      'Revalue open foreign-currency invoices, bills and bank accounts at closing rates ({ "EUR": 0.93 }); ' +
      'books the differences (reversed next day with reverse_next_day). Once per date. The person confirms.',
    area: 'accounting',
    access: 'write',
    destructive: false,
    idempotent: true,
    contract: contracts.revalue,
    summary: (result) =>
      isRecord(result) && result.journal_id !== null
        ? `Revaluation booked as journal entry ${String(result.journal_id)}.`
        : 'No item changed value: nothing booked.',
  },
];
