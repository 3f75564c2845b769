/**
 * The declared order of the ledger's modules, written once: a module may import another only
 * through that module's face (`modules/<name>/index.ts`) and only if the other comes EARLIER in
 * this list (further down the dependency order). Dependencies point one way, so no module can
 * reach into an area built on it — the AR/AP document core (`arap`) knows no document kind, the
 * kinds (invoices, mail, documents, inbox, transactions) come after it. Checked by
 * `kernel/imports.test.ts`; described in docs/architecture.md ("Module order"). A new module is
 * added here, after everything it uses.
 */
export const MODULE_ORDER = [
  // foundations every service may call
  'files', // the document store (bytes by SHA-256)
  'outbox', // the e-mail outbox and its sending worker
  'events', // the events outbox: services record their changes (a disabled webhook is told by e-mail)
  // master data
  'bank', // the company's own bank accounts
  'company', // company settings (its invoice bank account)
  'parties', // vendors and customers
  'bankAccounts', // vendors' bank accounts
  'services', // the services catalogue
  'members', // company members
  'dimensions', // cost centres, projects and their values (posting lines name them)
  // the AR/AP document core and what books
  'arap', // workflow, rules, posting, tax, document store and read shape
  'reports', // balances (the journal's ledger reads them)
  'journal', // journal entries
  'fiscalYears', // closing a year (posts journal entries)
  'assets', // fixed assets: the register, depreciation runs and disposal (post journal entries)
  'payments', // payments of AR/AP documents
  'vat', // VAT returns: prepared from the ledger, settled by a journal entry
  'revaluation', // foreign-currency items at closing rates (posts journal entries)
  // the document kinds and their channels, built on the core
  'invoices',
  'mail', // e-mailing invoices and reminders (on the outbox)
  'quotes', // quotes to customers (become draft invoices)
  'dunning', // dunning runs (reminders with fees, on the outbox)
  'recurring', // recurring invoices and the job that makes them
  'documents', // transactions and invoices read together
  'inbox', // uploads that become bills
  'transactions', // the /arap/transaction/{vc} routes
  // bank files and the system area
  'bankRules', // bank rules (their matching is pure; bankTransactions applies them)
  'bankTransactions',
  'paymentFiles',
  'system',
  // the HTTP-only areas
  'auth',
  'internal',
  'meta',
] as const;

export type ModuleName = (typeof MODULE_ORDER)[number];
