/**
 * The face of modules/arap: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 *
 * modules/arap is the AR/AP document core: the document-kind workflow (create, change, approve,
 * reverse, files), rule context, rules, posting, tax, the document store and read shape (with
 * payment status and messages), and the JSON/multipart body and route helpers of document
 * endpoints. Transactions, invoices, documents, mail and inbox build on it; it knows none of
 * them.
 */
export { createTransactions } from './batch.ts';
export { collectFiles, transactionBody } from './body.ts';
export { type FileContent, parseDataUri } from './dataUri.ts';
export {
  type ListFilter,
  REMINDER_COUNT_SQL,
  type ReadOptions,
  type TransactionRead,
  compact,
  countReminders,
  documentCurrency,
  listDocumentMessages,
  listDocumentRows,
  listRowHeader,
  listTransactions,
  readDocument,
  readTransaction,
} from './reads.ts';
export { documentContext, documentId, optionalBody } from './routeHelpers.ts';
export { paymentStatus } from './rules.ts';
export {
  type DocumentKind,
  type DocumentWrite,
  type WriteContext,
  approveTransaction,
  createTransaction,
  deleteTransaction,
  deleteTransactionFile,
  reverseTransaction,
  transactionById,
  transactionFile,
  updateTransaction,
} from './service.ts';
export { type ChildRows, lockHeader } from './store.ts';
