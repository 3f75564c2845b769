/** Batches: many documents in one request, all or nothing (docs/batches.md). */
import {
  batchIdsSchema,
  customerTransactionBatchSchema,
  journalBatchSchema,
  MAX_BATCH_DOCUMENTS,
  vendorTransactionBatchSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const createJournalEntries = contract({
  name: 'createJournalEntries',
  method: 'POST',
  path: '/gl/transactions/batch',
  summary: 'Create many journal entries at once',
  description:
    `Create up to ${MAX_BATCH_DOCUMENTS} journal entries (each as POST /gl/transactions takes it, JSON without ` +
    'files) in one transaction: all are written or none. Answers the new ids in input order. A refusal lists every ' +
    'bad entry in error.errors as { index, field, code, message }',
  example: examples.createJournalEntries,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  draftable: true,
  body: journalBatchSchema,
  response: batchIdsSchema,
  errors: ['invalid_currency', 'unbalanced', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const createTransactions = contract({
  name: 'createTransactions',
  method: 'POST',
  path: '/arap/transactions/:vc/batch',
  summary: { vendor: 'Create many vendor transactions at once', customer: 'Create many customer transactions at once' },
  description:
    `Create up to ${MAX_BATCH_DOCUMENTS} AR/AP transactions of one side (each as POST /arap/transaction/{vc} takes ` +
    'it, JSON without files) in one transaction: all are written or none, with the same rules, numbers, audit ' +
    'entries and events as one by one. Answers the new ids in input order. A refusal lists every bad document in ' +
    'error.errors as { index, field, code, message }',
  example: examples.createTransactions,
  permission: { vendor: 'vendors.postings.vendor_transaction', customer: 'customers.postings.customer_transaction' },
  scope: 'invoices:write',
  effect: 'posts',
  draftable: true,
  body: { vendor: vendorTransactionBatchSchema, customer: customerTransactionBatchSchema },
  response: batchIdsSchema,
  errors: ['invalid_currency', 'vc_not_found', 'amount_exceeded', 'conflict', 'closed_period', 'vat_period_filed'],
});
