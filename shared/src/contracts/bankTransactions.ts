/**
 * Bank transactions (docs/bank.md): statement import (camt.053 / camt.054
 * .001.04 and .001.08, CSV), the imported transactions, and booking them by hand.
 */
import {
  bankBookSchema,
  bankImportQuerySchema,
  bankImportResultSchema,
  bankTransactionListQuerySchema,
  bankTransactionSchema,
  STATEMENT_MEDIA_TYPES,
} from '../schemas/bank.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const importBankTransactions = contract({
  name: 'importBankTransactions',
  method: 'POST',
  path: '/bank/transactions/import',
  summary: 'Import a bank statement (camt.053/054, CSV)',
  description:
    'Import a bank statement: the file as the body (application/xml camt.053/camt.054 .001.04/.001.08, or text/csv ' +
    'date,amount,currency,counterparty,iban,reference,description); duplicates skipped, balances checked, payments ' +
    'matched and booked',
  example: examples.importBankTransactions,
  permission: 'bank.import',
  scope: null,
  query: bankImportQuerySchema,
  textBody: STATEMENT_MEDIA_TYPES,
  response: bankImportResultSchema,
  errors: ['payload_too_large', 'unsupported_media_type', 'closed_period'],
});

export const listBankTransactions = contract({
  name: 'listBankTransactions',
  method: 'GET',
  path: '/bank/transactions',
  summary: 'List imported bank transactions',
  description:
    'Imported bank transactions with IBANs and counterparties; filters account, from, to, status, counterparty, amount',
  example: examples.listBankTransactions,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  query: bankTransactionListQuerySchema,
  response: { type: 'array', items: bankTransactionSchema },
  list: true,
  errors: [],
});

export const getBankTransaction = contract({
  name: 'getBankTransaction',
  method: 'GET',
  path: '/bank/transactions/:id',
  summary: 'Read a bank transaction',
  description:
    'One imported bank transaction: date, signed amount, counterparty and IBAN, references, status and the document ' +
    'it was booked to.',
  example: examples.getBankTransaction,
  permission: 'bank.bank_accounts',
  scope: 'bank:read',
  response: bankTransactionSchema,
  errors: [],
});

export const bookBankTransaction = contract({
  name: 'bookBankTransaction',
  method: 'POST',
  path: '/bank/transactions/:id/book',
  summary: 'Book a bank transaction by hand',
  description:
    "Book an unmatched bank transaction: { document_id } as that document's payment, { account } against a chart " +
    'account, or { proposal } accepting one of its proposals; 409 when already booked or the proposal no longer ' +
    'applies',
  example: examples.bookBankTransaction,
  permission: 'bank.import',
  scope: 'bank:write',
  effect: 'posts',
  body: bankBookSchema,
  response: bankTransactionSchema,
  errors: ['conflict', 'overpayment', 'closed_period', 'amount_exceeded'],
});
