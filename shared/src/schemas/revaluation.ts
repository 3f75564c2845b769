import type { FromSchema } from 'json-schema-to-ts';
import { dateSchema } from './common.ts';

/**
 * Revaluation of foreign-currency items at closing rates (`POST /system/revaluation`,
 * docs/year-end.md "Revaluation"). Which currencies need a rate is checked by the ledger.
 */

export const revaluationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'rates'],
  properties: {
    date: { ...dateSchema, description: 'the closing date: items as of this day; the entry is dated on it' },
    rates: {
      type: 'object',
      minProperties: 1,
      maxProperties: 50,
      additionalProperties: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
      description: 'closing rate per currency in use, base currency per unit, e.g. { "EUR": 0.93 }',
    },
    reverse_next_day: {
      type: 'boolean',
      description: 'true: the entry is reversed on the next day (the usual unrealised differences)',
    },
  },
} as const;

export const revaluationResultSchema = {
  type: 'object',
  required: ['journal_id', 'items'],
  properties: {
    date: dateSchema,
    journal_id: { type: ['integer', 'null'], description: 'null when no item changed value' },
    reversal_journal_id: { type: ['integer', 'null'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['customer', 'vendor', 'bank'] },
          id: { type: 'integer', description: 'the AR/AP document or the bank account' },
          currency: { type: 'string' },
          open: { type: 'number', description: 'open amount in the currency' },
          old_value: { type: 'number', description: 'its value in the base currency as booked' },
          new_value: { type: 'number', description: 'open × the closing rate, rounded' },
          difference: { type: 'number', description: 'new_value − old_value' },
        },
      },
    },
  },
} as const;

export type RevaluationInput = FromSchema<typeof revaluationSchema>;
