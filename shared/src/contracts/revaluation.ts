/** Revaluation of foreign-currency items at closing rates (docs/year-end.md "Revaluation"). */
import { revaluationResultSchema, revaluationSchema } from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const revalue = contract({
  name: 'revalue',
  method: 'POST',
  path: '/system/revaluation',
  summary: 'Revalue foreign-currency items at closing rates',
  description:
    'Revalue the open foreign-currency AR/AP documents and the foreign-currency bank accounts at `date` with the ' +
    "closing `rates`: one journal entry books each difference against the company's FX account, reversed on the " +
    'next day when reverse_next_day. Idempotent per date: a second request for the date answers the first result. ' +
    'A currency in use without a rate is 400',
  example: examples.revalue,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  body: revaluationSchema,
  response: revaluationResultSchema,
  errors: ['closed_period'],
});
