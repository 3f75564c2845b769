/**
 * The ledger's tables as TypeScript sees them: one row type per table, registered in knex's
 * `Tables` (`knex/types/tables`), so `tx('parties')` is a builder of `PartiesRow`: `where({...})`,
 * `insert` and `update` refuse a column the table has not, and what `first()`, `select('a', 'b')`
 * and `returning(...)` give back carries the columns' types. A renamed or dropped column then fails
 * `npm run typecheck` wherever it is still used, instead of reading `undefined` at run time
 * (docs/architecture.md "Typed rows"; tables.test.ts holds the compiler to it).
 *
 * The types are what the driver returns (db/knex.ts): bigint and integer as number, numeric as its
 * exact decimal text, date as 'yyyy-mm-dd' text, timestamptz as Date, jsonb parsed. A migration that
 * adds, renames or drops a column changes the row type here in the same commit. Row types are `type`
 * aliases, not interfaces, so a row is also a `Record<string, unknown>` where a store reads columns
 * by a list of names. What knex cannot type (a string `where('col', v)`, `orderBy`, aliased or joined
 * tables `tx('parties as p')`, `tx.raw`) gives its result row a named type beside the query.
 */
import type { Side } from '@ledger/shared';
import type { DocumentSource } from '@ledger/shared/schemas/files';

/** `companies.settings` (jsonb): the book accounts by number and the number formats. */
export interface CompanySettings {
  ap_account?: string;
  ar_account?: string;
  rounding_account?: string;
  number_formats?: Record<string, string>;
  [k: string]: unknown;
}

export type AssistantConfirmationsRow = {
  company_id: number;
  token_hash: string;
  connection_id: string;
  tool: string;
  used_at: Date;
  expires_at: Date;
};

export type AccountsRow = {
  id: number;
  company_id: number;
  accno: string;
  description: string;
  category: string;
  link: string;
  names: Record<string, string> | null;
};

export type ApiKeysRow = {
  id: number;
  company_id: number;
  user_id: number;
  label: string;
  key_hash: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
};

export type ArapFilesRow = {
  id: number;
  company_id: number;
  transaction_id: number;
  name: string;
  media_type: string;
  size: number;
  data: Buffer | null;
  created_at: Date;
  sha256: string;
  document_id: number | null;
};

/** A line's dimensions (migration 039): dimension code → value code. */
export type Dimensions = Record<string, string>;

export type DimensionsRow = {
  id: number;
  company_id: number;
  code: string;
  name: string;
  active: boolean;
  created_at: Date;
};

export type DimensionValuesRow = {
  id: number;
  company_id: number;
  dimension_id: number;
  code: string;
  name: string;
  active: boolean;
  created_at: Date;
};

export type AssetsRow = {
  id: number;
  company_id: number;
  name: string;
  asset_account_id: number;
  expense_account_id: number;
  accumulated_account_id: number | null;
  acquired: string;
  cost: string;
  residual: string;
  method: string;
  life_months: number | null;
  rate: string | null;
  frequency: string;
  disposed: string | null;
  disposal_journal_id: number | null;
  created_at: Date;
};

export type AssetDepreciationsRow = {
  id: number;
  company_id: number;
  asset_id: number;
  journal_id: number;
  date: string;
  amount: string;
};

/** One revalued item as stored (and answered). */
export type RevaluationItem = {
  kind: 'customer' | 'vendor' | 'bank';
  id: number;
  currency: string;
  open: string;
  old_value: string;
  new_value: string;
  difference: string;
};

export type RevaluationsRow = {
  id: number;
  company_id: number;
  date: string;
  rates: Record<string, number>;
  items: RevaluationItem[];
  journal_id: number | null;
  reversal_journal_id: number | null;
  created_at: Date;
};

export type ArapLinesRow = {
  id: number;
  company_id: number;
  transaction_id: number;
  position: number;
  account_id: number;
  description: string | null;
  amount: string;
  tax_account_id: number | null;
  tax_rate: string | null;
  tax_amount: string;
  tax_override: boolean;
  net: string;
  dimensions: Dimensions | null;
};

export type ArapPaymentsRow = {
  id: number;
  company_id: number;
  vc: Side;
  transaction_id: number;
  date: string;
  amount: string;
  currency: string;
  exchangerate: string;
  account_id: number;
  base_amount: string;
  cleared_base: string;
  memo: string | null;
  source: string | null;
  reversal_date: string | null;
  reversed_at: Date | null;
  created_at: Date;
  /** check constraint arap_payments_kind_check: a payment, or a credit note's allocation (no cash line) */
  kind: 'payment' | 'allocation';
  /** an allocation's other document */
  allocated_with_id: number | null;
};

export type ArapTransactionsRow = {
  id: number;
  company_id: number;
  vc: Side;
  party_id: number;
  inv_number: string;
  document_number: string | null;
  inv_date: string;
  due_date: string | null;
  currency: string;
  exchangerate: string;
  record_account_id: number;
  description: string | null;
  taxincluded: boolean;
  status: string;
  reversal_of_id: number | null;
  reversed_by_id: number | null;
  payment_file: boolean;
  vc_bank_id: number | null;
  net_amount: string;
  tax_amount: string;
  amount: string;
  paid: string;
  created_at: Date;
  updated_at: Date;
  posted_at: Date | null;
  type: string;
  notes: string | null;
  terms: number | null;
  shippingpoint: string | null;
  ord_number: string | null;
  po_number: string | null;
  qr_reference: string | null;
  payment_reference: string | null;
  /** a credit note's invoice */
  credit_of_id: number | null;
  /** a credit note's reason */
  reason: string | null;
  /** the recurring invoice that made it and the schedule's date it stands for (migration 042) */
  recurring_id: number | null;
  recurring_date: string | null;
};

export type AuditLogRow = {
  id: number;
  company_id: number;
  at: Date;
  user_id: number | null;
  via: string;
  via_id: string | null;
  via_label: string | null;
  entity: string;
  entity_id: string | null;
  action: string;
  details: unknown | null;
};

export type BankAccountsRow = {
  id: number;
  company_id: number;
  name: string;
  iban: string;
  qr_iban: string | null;
  bic: string | null;
  currency: string;
  account_id: number;
  created_at: Date;
  updated_at: Date;
};

export type BankTransactionsRow = {
  id: number;
  company_id: number;
  bank_account_id: number;
  entry_key: string;
  date: string;
  value_date: string | null;
  amount: string;
  currency: string;
  counterparty: string | null;
  iban: string | null;
  reference: string | null;
  end_to_end_id: string | null;
  text: string | null;
  bank_reference: string | null;
  reversal: boolean;
  source: string;
  status: string;
  document_id: number | null;
  payment_id: number | null;
  journal_id: number | null;
  booked_account_id: number | null;
  booked_at: Date | null;
  created_at: Date;
  rule_id: number | null;
  reconciled_on: string | null;
};

/** `bank_rules.conditions` / `action` (jsonb): the API's shapes (schemas/bankRules.ts), checked before stored. */
export type BankRulesRow = {
  id: number;
  company_id: number;
  name: string;
  priority: number;
  auto: boolean;
  conditions: unknown;
  action: unknown;
  created_at: Date;
  updated_at: Date;
};

export type BankStatementsRow = {
  id: number;
  company_id: number;
  bank_account_id: number;
  statement_id: string;
  date: string;
  closing: string;
  currency: string;
  created_at: Date;
};

export type BankReconciliationsRow = {
  id: number;
  company_id: number;
  bank_account_id: number;
  date: string;
  statement_balance: string;
  lines: number;
  created_by: number | null;
  created_at: Date;
};

export type CompaniesRow = {
  id: number;
  dataset: string;
  name: string;
  base_currency: string;
  closed_until: string | null;
  ai_connections_enabled: boolean;
  settings: CompanySettings;
  created_at: Date;
  street: string | null;
  house_number: string | null;
  zip: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  email: string | null;
  invoice_bank_account_id: number | null;
};

export type DocumentContentsRow = {
  document_id: number;
  company_id: number;
  data: Buffer;
};

export type DocumentsRow = {
  id: number;
  company_id: number;
  sha256: string;
  name: string;
  media_type: string;
  size: number;
  /** check constraint documents_source_check */
  source: DocumentSource;
  /** where the bytes are: modules/files/storage.ts (StorageKind) */
  storage: 'postgres' | 'directory';
  created_at: Date;
};

export type GlFilesRow = {
  id: number;
  company_id: number;
  journal_id: number;
  name: string;
  media_type: string;
  size: number;
  sha256: string;
  created_at: Date;
  document_id: number;
};

export type GlLinesRow = {
  id: number;
  company_id: number;
  journal_id: number;
  position: number;
  account_id: number;
  description: string | null;
  debit: string;
  credit: string;
  base_amount: string;
  dimensions: Dimensions | null;
};

export type GlTransactionsRow = {
  id: number;
  company_id: number;
  reference: string;
  transdate: string;
  description: string | null;
  currency: string;
  exchangerate: string;
  status: string;
  reversal_of_id: number | null;
  reversed_by_id: number | null;
  closing: boolean;
  fiscal_year: number | null;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
  posted_at: Date | null;
};

export type IdempotencyKeysRow = {
  company_id: number;
  caller: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  status: number;
  headers: unknown;
  body: string;
  created_at: Date;
};

export type InboxEntriesRow = {
  id: number;
  company_id: number;
  document_id: number;
  name: string;
  status: string;
  reason: string | null;
  text: string | null;
  extracted: unknown | null;
  transaction_id: number | null;
  created_by: number | null;
  created_at: Date;
  extracted_at: Date | null;
  updated_at: Date;
};

export type InvoiceItemsRow = {
  id: number;
  company_id: number;
  transaction_id: number;
  position: number;
  service_id: number | null;
  partnumber: string | null;
  description: string | null;
  quantity: string;
  unit: string | null;
  price: string;
  discount: string;
  dimensions: Dimensions | null;
};

export type LedgerBalancesRow = {
  company_id: number;
  account_id: number;
  month: string;
  closing: boolean;
  debit: string;
  credit: string;
  compacted: boolean;
};

export type LedgerEntriesRow = {
  id: number;
  company_id: number;
  transaction_id: number | null;
  account_id: number;
  date: string;
  amount: string;
  fx_amount: string;
  currency: string;
  kind: string;
  payment_id: number | null;
  journal_id: number | null;
  closing: boolean;
  dimensions: Dimensions | null;
};

export type InvitationsRow = {
  id: number;
  company_id: number;
  email: string;
  role: string;
  approval_limit: string | null;
  token_hash: string;
  invited_by: number | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_by: number | null;
  withdrawn_at: Date | null;
};

export type MembershipsRow = {
  company_id: number;
  user_id: number;
  role: string;
  approval_limit: string | null;
  created_at: Date;
};

export type MessageAttachmentsRow = {
  id: number;
  company_id: number;
  message_id: number;
  position: number;
  filename: string;
  media_type: string;
  /** null while the file is still to be rendered by the mail sender (migration 046) */
  document_id: number | null;
  /** the renderer that makes the file when the message is sent (modules/outbox/render.ts) */
  render_kind: string | null;
  render_ref: Record<string, unknown> | null;
};

export type MessagesRow = {
  id: number;
  company_id: number;
  transaction_id: number | null;
  kind: string;
  from_address: string | null;
  to_addresses: string[];
  cc_addresses: string[];
  subject: string;
  body: string;
  status: string;
  attempts: number;
  last_error: string | null;
  message_id: string;
  created_at: Date;
  sent_at: Date | null;
  sending_at: Date | null;
};

export type RecurringInvoicesRow = {
  id: number;
  company_id: number;
  party_id: number;
  /** the invoice write body without its date (shared/src/schemas/sales.ts recurringTemplateSchema) */
  template: Record<string, unknown>;
  /** shared/src/schemas/sales.ts recurringScheduleSchema */
  schedule: Record<string, unknown>;
  /** check constraint recurring_invoices_mode_check */
  mode: 'draft' | 'post' | 'post_and_email';
  /** check constraint recurring_invoices_status_check (ended is read from next_date) */
  status: 'active' | 'paused';
  currency: string;
  amount: string;
  next_date: string | null;
  last_date: string | null;
  invoice_count: number;
  last_error: string | null;
  acting_user_id: number;
  created_at: Date;
  updated_at: Date;
};

export type DunningRunsRow = {
  id: number;
  company_id: number;
  date: string;
  created_at: Date;
};

export type DunningItemsRow = {
  id: number;
  company_id: number;
  run_id: number;
  invoice_id: number;
  /** check constraint dunning_items_level_check: 1–3 */
  level: number;
  fee: string;
  open: string;
  fee_transaction_id: number | null;
  message_id: number | null;
  /** what the reminder prints (migration 046); null in runs before it */
  due_date: string | null;
  /** check constraint dunning_items_language_check */
  language: 'de' | 'fr' | 'it' | 'en' | null;
  level_text: string | null;
};

export type QuotesRow = {
  id: number;
  company_id: number;
  number: string;
  party_id: number;
  quote_date: string;
  valid_until: string;
  /** check constraint quotes_status_check (expired is read from valid_until) */
  status: 'draft' | 'sent' | 'accepted' | 'declined' | 'invoiced';
  currency: string;
  net_amount: string;
  tax_amount: string;
  amount: string;
  /** the invoice write body the quote becomes (shared/src/schemas/sales.ts) */
  body: Record<string, unknown>;
  /** items with amounts and tax, taxes and totals as computed at the last write */
  computed: Record<string, unknown>;
  invoice_id: number | null;
  created_at: Date;
  updated_at: Date;
};

export type PartiesRow = {
  id: number;
  company_id: number;
  vc: Side;
  number: string;
  name: string;
  address1: string | null;
  street: string | null;
  zipcode: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  phone: string | null;
  currency: string | null;
  taxnumber: string | null;
  terms: number | null;
  /** check constraint parties_language_check; null: the company's language */
  language: 'de' | 'fr' | 'it' | 'en' | null;
  created_at: Date;
  updated_at: Date;
};

export type PaymentFileItemsRow = {
  id: number;
  company_id: number;
  payment_file_id: number;
  document_id: number;
  end_to_end_id: string;
  amount: string;
  currency: string;
};

export type PaymentFilesRow = {
  id: number;
  company_id: number;
  bank_account_id: number;
  execution_date: string;
  message_id: string;
  count: number;
  total: string;
  xml: string;
  created_by: number | null;
  created_at: Date;
};

export type SequencesRow = {
  company_id: number;
  kind: string;
  next_value: number;
};

export type ServicesRow = {
  id: number;
  company_id: number;
  partnumber: string;
  description: string;
  unit: string | null;
  price: string;
  currency: string;
  income_account_id: number | null;
  expense_account_id: number | null;
  tax_account_id: number | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
};

export type TaxesRow = {
  id: number;
  company_id: number;
  account_id: number;
  code: string;
  kind: 'output' | 'input' | 'acquisition' | 'zero';
  figure: string;
  description: string;
  rate: string;
  valid_from: string;
  valid_to: string | null;
};

export type VatReturnsRow = {
  id: number;
  company_id: number;
  from_date: string;
  to_date: string;
  type: 'original' | 'correction';
  method: 'effective' | 'net_tax';
  basis: 'agreed' | 'received';
  status: 'draft' | 'settled';
  currency: string;
  figures: Record<string, string>;
  payable: string;
  net_tax_rates: { rate: number; description: string; activity_code?: string; accounts?: string[] }[];
  settlement_id: number | null;
  created_by: number | null;
  created_at: Date;
  settled_at: Date | null;
};

export type VatReturnLinesRow = {
  id: number;
  company_id: number;
  return_id: number;
  side: 'customer' | 'vendor' | 'ledger';
  kind: string;
  source_id: number;
  number: string | null;
  date: string;
  code: string | null;
  code_kind: string | null;
  figure: string | null;
  tax_accno: string | null;
  revenue_accno: string | null;
  base: string;
  tax: string;
  /** the code's rate on the document's date (migration 043); null for lines without a code */
  rate: string | null;
};

export type UsersRow = {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  totp_secret_enc: string;
  active: boolean;
  created_at: Date;
  totp_last_step: number;
  demo: boolean;
};

export type VendorBankAccountsRow = {
  id: number;
  company_id: number;
  party_id: number;
  iban: string;
  bic: string | null;
  name: string | null;
  description: string | null;
  created_at: Date;
};

/** `events` (migration 019): one event of the change feed (modules/events). */
export type EventsRow = {
  company_id: number;
  seq: number;
  type: string;
  time: Date;
  subject: string;
  resource_type: string;
  resource_id: string;
  actor: { via: string; id: string | null; label: string | null; user_id: number | null };
  data: Record<string, unknown>;
};

export type WebhookSubscriptionsRow = {
  id: number;
  company_id: number;
  url: string;
  events: string[];
  secret: string;
  status: 'active' | 'disabled' | 'deleted';
  disabled_reason: string | null;
  disabled_at: Date | null;
  queue: string;
  created_by: number | null;
  created_at: Date;
  lease_token: string | null;
  lease_until: Date | null;
};

export type WebhookDeliveriesRow = {
  id: number;
  company_id: number;
  subscription_id: number;
  event_seq: number;
  reason: 'event' | 'redelivery' | 'replay';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  first_failed_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
};

export type WebhookAttemptsRow = {
  id: number;
  company_id: number;
  delivery_id: number;
  at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
};

/** Every table of the ledger's schema and its row type (tables.test.ts compares them with the migrated database). */
export interface LedgerTables {
  accounts: AccountsRow;
  api_keys: ApiKeysRow;
  assistant_confirmations: AssistantConfirmationsRow;
  arap_files: ArapFilesRow;
  arap_lines: ArapLinesRow;
  arap_payments: ArapPaymentsRow;
  arap_transactions: ArapTransactionsRow;
  audit_log: AuditLogRow;
  revaluations: RevaluationsRow;
  assets: AssetsRow;
  asset_depreciations: AssetDepreciationsRow;
  dimensions: DimensionsRow;
  dimension_values: DimensionValuesRow;
  bank_accounts: BankAccountsRow;
  bank_transactions: BankTransactionsRow;
  bank_rules: BankRulesRow;
  bank_statements: BankStatementsRow;
  bank_reconciliations: BankReconciliationsRow;
  companies: CompaniesRow;
  document_contents: DocumentContentsRow;
  documents: DocumentsRow;
  events: EventsRow;
  gl_files: GlFilesRow;
  gl_lines: GlLinesRow;
  gl_transactions: GlTransactionsRow;
  idempotency_keys: IdempotencyKeysRow;
  inbox_entries: InboxEntriesRow;
  invoice_items: InvoiceItemsRow;
  ledger_balances: LedgerBalancesRow;
  ledger_entries: LedgerEntriesRow;
  invitations: InvitationsRow;
  memberships: MembershipsRow;
  message_attachments: MessageAttachmentsRow;
  messages: MessagesRow;
  parties: PartiesRow;
  quotes: QuotesRow;
  recurring_invoices: RecurringInvoicesRow;
  dunning_runs: DunningRunsRow;
  dunning_items: DunningItemsRow;
  payment_file_items: PaymentFileItemsRow;
  payment_files: PaymentFilesRow;
  sequences: SequencesRow;
  services: ServicesRow;
  taxes: TaxesRow;
  vat_returns: VatReturnsRow;
  vat_return_lines: VatReturnLinesRow;
  users: UsersRow;
  vendor_bank_accounts: VendorBankAccountsRow;
  webhook_attempts: WebhookAttemptsRow;
  webhook_deliveries: WebhookDeliveriesRow;
  webhook_subscriptions: WebhookSubscriptionsRow;
}

// knex's own table registry: `tx('<table>')` is typed wherever a ledger knex is used.
declare module 'knex/types/tables.js' {
  interface Tables extends LedgerTables {}
}
