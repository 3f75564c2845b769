import { dateSchema } from './common.ts';

export const apiKeyCreateSchema = {
  type: 'object', additionalProperties: false, required: ['label'],
  properties: { label: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const closeBooksSchema = {
  type: 'object', additionalProperties: false, required: ['date'],
  properties: { date: dateSchema },
} as const;
