/**
 * Accounting area, year end (docs/year-end.md): the dimensions postings and reports name.
 * The posting tools take `dimensions` per line from their contracts; the report tools take
 * `dimension` and `value` the same way.
 */
import { contracts } from '@ledger/shared';
import type { ToolDeclaration } from './declare.ts';
import { countOf, plural } from './summaries.ts';

export const yearEndTools: ToolDeclaration[] = [
  {
    name: 'list_dimensions',
    title: 'Dimensions (cost centres, projects)',
    description:
      'Cost centres, projects and other dimensions with their value codes: a line names them as dimensions ' +
      '{ "<dimension code>": "<value code>" }; trial_balance and income_statement take dimension (and value).',
    area: 'accounting',
    access: 'read',
    contract: contracts.listDimensions,
    listKey: 'dimensions',
    summary: (result) => `${plural(countOf(result), 'dimension')}.`,
  },
];
