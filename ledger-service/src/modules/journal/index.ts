/**
 * The face of modules/journal: all that other modules may import from it (the rule and the module
 * order are in modules/order.ts, checked by kernel/imports.test.ts; docs/architecture.md).
 */
export { createJournalEntries, createJournalEntry, postEntry, reverseEntry } from './service.ts';
export { type JournalLineRow, lockJournal } from './store.ts';
export { journalRoutes } from './routes.ts';
