/** Journal entries and the general ledger: `/gl/transactions`, `/gl/ledger` (docs/journal.md). */
import {
  createdSchema,
  journalEntrySchema,
  journalListQuerySchema,
  journalListRowSchema,
  journalReadSchema,
  journalReverseSchema,
  ledgerQuerySchema,
  ledgerSchema,
} from '../schemas/index.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

/**
 * multipart/form-data: the JSON entry in the part "entry", one "files" part per attachment. "transaction" and
 * "json", the names it shared with AR/AP transactions before, are still accepted.
 */
const multipart = { jsonPart: 'entry', jsonPartAliases: ['transaction', 'json'], filePart: 'files' } as const;

export const createJournalEntry = contract({
  name: 'createJournalEntry',
  method: 'POST',
  path: '/gl/transactions',
  summary: 'Create a journal entry',
  description:
    'Create a journal entry, booked exactly as sent: each line a debit or a credit, debits = credits (else 400 ' +
    'unbalanced). A draft without pending, posted with pending "0". JSON, or multipart/form-data with the JSON in a ' +
    'part named "entry" (formerly "transaction", still accepted) and one "files" part per attachment',
  example: examples.createJournalEntry,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  draftable: true,
  body: journalEntrySchema,
  multipart,
  status: 201,
  location: '/gl/transactions/{id}',
  response: createdSchema,
  errors: ['invalid_currency', 'unbalanced', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const updateJournalEntry = contract({
  name: 'updateJournalEntry',
  method: 'POST',
  path: '/gl/transactions/:id',
  summary: 'Replace a draft journal entry',
  description:
    'Replace a draft journal entry with the complete entry sent (lines replaced; files sent are added unless an ' +
    'equal file is attached); pending "0" posts it. Posted, reversed and closing entries → 409',
  example: examples.updateJournalEntry,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  draftable: true,
  body: journalEntrySchema,
  multipart,
  response: journalReadSchema,
  errors: ['invalid_currency', 'unbalanced', 'conflict', 'closed_period', 'vat_period_filed'],
});

export const getJournalEntry = contract({
  name: 'getJournalEntry',
  method: 'GET',
  path: '/gl/transactions/:id',
  summary: 'Read a journal entry',
  description:
    'One journal entry: lines with debit/credit in its currency and the base currency, status, reversal links, files',
  example: examples.getJournalEntry,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  response: journalReadSchema,
  errors: [],
});

export const deleteJournalEntry = contract({
  name: 'deleteJournalEntry',
  method: 'DELETE',
  path: '/gl/transactions/:id',
  summary: 'Delete a draft journal entry',
  description: 'Delete a draft journal entry (409 for posted or reversed entries: reverse them)',
  example: examples.deleteJournalEntry,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const reverseJournalEntry = contract({
  name: 'reverseJournalEntry',
  method: 'POST',
  path: '/gl/transactions/:id/reverse',
  summary: 'Reverse a posted journal entry',
  description:
    'Reverse a posted journal entry: a new posted entry dated `date` (default today) with debits and credits ' +
    'swapped; the original becomes reversed. The body is optional. Closing entries are reversed by reopening their ' +
    'year',
  example: examples.reverseJournalEntry,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  body: journalReverseSchema,
  status: 201,
  // the reversal is a new entry of its own
  location: '/gl/transactions/{id}',
  response: createdSchema,
  errors: ['conflict', 'closed_period', 'vat_period_filed'],
});

export const listJournalEntries = contract({
  name: 'listJournalEntries',
  method: 'GET',
  path: '/gl/transactions',
  summary: 'List journal entries',
  description:
    'List journal entries by date range (from/to), reference or status; ordered by transdate, then id, unless `sort` ' +
    'says otherwise',
  example: examples.listJournalEntries,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  query: journalListQuerySchema,
  response: { type: 'array', items: journalListRowSchema },
  list: true,
  errors: [],
});

export const downloadJournalFile = contract({
  name: 'downloadJournalFile',
  method: 'GET',
  path: '/gl/transactions/:id/files/:fileId',
  summary: 'Download a file attached to a journal entry',
  description: 'Download one file attached to a journal entry (its bytes with its own media type)',
  example: examples.downloadJournalFile,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  download: ['*/*'],
  errors: [],
});

export const getLedger = contract({
  name: 'getLedger',
  method: 'GET',
  path: '/gl/ledger',
  summary: 'General ledger of one account',
  description:
    'The general ledger of one account: opening balance before `from`, the posted lines from `from` to `to` ordered ' +
    'by date then id with their running balance and source document (kind, id, number), and the closing balance. ' +
    'Paged with limit/offset (X-Total-Count, Link); page_opening is the balance before the page',
  example: examples.getLedger,
  permission: 'gl.journal_entries',
  scope: 'accounting:read',
  query: ledgerQuerySchema,
  response: ledgerSchema,
  errors: [],
});
