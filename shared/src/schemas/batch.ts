import type { FromSchema } from 'json-schema-to-ts';
import { idSchema } from './common.ts';
import { journalEntrySchema } from './journal.ts';
import { customerTransactionSchema, vendorTransactionSchema } from './transaction.ts';

/**
 * Batches (`POST /gl/transactions/batch`, `POST /arap/transactions/{vc}/batch`, docs/batches.md): up to MAX_BATCH_DOCUMENTS documents
 * in the single-document shape, written all or nothing; the answer lists the new ids in input
 * order. A refusal names every bad document: `error.errors` holds one `{ index, field, code,
 * message }` per problem (index into `transactions`, field a JSON pointer inside that document).
 */
export const MAX_BATCH_DOCUMENTS = 1000;

/**
 * A document of a batch takes the single document's schema without files (attach them to the
 * document afterwards): its properties but `files`.
 */
function omitFiles<P extends { files: unknown }>(properties: P): Omit<P, 'files'> {
  const { files: _files, ...rest } = properties;
  return rest;
}

/** The body of a batch endpoint: `transactions`, 1 to MAX_BATCH_DOCUMENTS documents of the shape `entry`. */
function batchOf<E extends object>(entry: E, description: string) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['transactions'],
    properties: {
      transactions: { type: 'array', minItems: 1, maxItems: MAX_BATCH_DOCUMENTS, items: entry, description },
    },
  } as const;
}

export const journalBatchEntrySchema = { ...journalEntrySchema, properties: omitFiles(journalEntrySchema.properties) };
export const journalBatchSchema = batchOf(
  journalBatchEntrySchema,
  `1 to ${MAX_BATCH_DOCUMENTS} journal entries, each as POST /gl/transactions takes it (without files)`,
);

export const vendorTransactionBatchEntrySchema = {
  ...vendorTransactionSchema,
  properties: omitFiles(vendorTransactionSchema.properties),
};
export const customerTransactionBatchEntrySchema = {
  ...customerTransactionSchema,
  properties: omitFiles(customerTransactionSchema.properties),
};
/** An AR/AP batch: documents of one side, each as that side's single endpoint takes it. */
const transactionBatchOf = <E extends object>(entry: E, side: string) =>
  batchOf(
    entry,
    `1 to ${MAX_BATCH_DOCUMENTS} ${side} transactions, each as POST /arap/transaction/${side} takes it ` +
      '(JSON, without files)',
  );
export const vendorTransactionBatchSchema = transactionBatchOf(vendorTransactionBatchEntrySchema, 'vendor');
export const customerTransactionBatchSchema = transactionBatchOf(customerTransactionBatchEntrySchema, 'customer');

export const batchIdsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: {
    ids: { type: 'array', items: idSchema, description: 'the new documents’ ids, in the order they were sent' },
  },
} as const;

export type JournalBatchEntryInput = FromSchema<typeof journalBatchEntrySchema>;
export type JournalBatchInput = FromSchema<typeof journalBatchSchema>;
