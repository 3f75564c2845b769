import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Bank (docs/bank.md): the payment reference of vendor documents, imported bank
 * transactions, and pain.001 payment files with one item per paid document. Every table
 * carries company_id and is under RLS.
 *
 * - `arap_transactions.payment_reference`: a vendor document's QR or creditor reference
 *   (compact), paid as structured remittance.
 * - `bank_transactions`: one row per transaction detail of a statement entry. `entry_key`
 *   identifies it (the bank's AcctSvcrRef, else a hash of the entry); the unique index on
 *   (company, bank account, entry_key) is what makes a second import of the same file — or
 *   two concurrent imports — write nothing twice.
 * - `payment_files` keep the generated XML as sent (GET answers exactly that file);
 *   `payment_file_items` one row per document, unique per document, so a document can go
 *   into one file only even when two files are created at the same time.
 * - A booked bank transaction names what booked it: the payment (`payment_id`, arap_payments)
 *   or the journal entry (`journal_id`, gl_transactions) of a booking against an account.
 *   No foreign keys to those tables: they belong to other modules' migrations.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.text('payment_reference');
  });

  await knex.schema.createTable('payment_files', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('bank_account_id').notNullable().references('bank_accounts.id');
    t.date('execution_date').notNullable();
    t.text('message_id').notNullable();
    t.integer('count').notNullable();
    // sum of the payments' amounts (ISO 20022 CtrlSum: a plain sum, whatever the currencies)
    t.decimal('total', 20, 6).notNullable();
    t.text('xml').notNullable();
    t.bigInteger('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['company_id', 'message_id']);
  });

  await knex.schema.createTable('payment_file_items', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('payment_file_id').notNullable().references('payment_files.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable().references('arap_transactions.id');
    t.text('end_to_end_id').notNullable();
    t.decimal('amount', 20, 6).notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    // a document goes into one payment file only
    t.unique(['company_id', 'document_id']);
    // the bank reports a paid item's debit with this id (matching)
    t.unique(['company_id', 'end_to_end_id']);
    t.index(['payment_file_id']);
  });

  await knex.schema.createTable('bank_transactions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('bank_account_id').notNullable().references('bank_accounts.id');
    // "ref:<AcctSvcrRef>[#detail]" or "hash:<sha256 of the entry>"
    t.text('entry_key').notNullable();
    t.date('date').notNullable();
    t.date('value_date');
    t.decimal('amount', 20, 6).notNullable(); // signed: credit positive, debit negative
    t.specificType('currency', 'char(3)').notNullable();
    t.text('counterparty');
    t.text('iban');
    t.text('reference'); // QR or creditor reference, compact
    t.text('end_to_end_id');
    t.text('text'); // remittance text
    t.text('bank_reference'); // AcctSvcrRef of the entry
    t.boolean('reversal').notNullable().defaultTo(false);
    t.text('source').notNullable(); // camt.053, camt.054, csv
    t.text('status').notNullable().defaultTo('unmatched');
    // what the transaction was booked against: a document (payment) or an account
    t.bigInteger('document_id').references('arap_transactions.id');
    t.bigInteger('payment_id');
    t.bigInteger('journal_id');
    t.bigInteger('booked_account_id').references('accounts.id');
    t.timestamp('booked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['company_id', 'bank_account_id', 'entry_key']);
    t.index(['company_id', 'date', 'id']); // the list's order
    t.index(['company_id', 'status']);
  });
  await knex.raw(
    `alter table bank_transactions add constraint bank_transactions_status_check check (status in ` +
      `('unmatched','matched','booked'))`,
  );

  for (const table of ['payment_files', 'payment_file_items', 'bank_transactions']) {
    await enableTenantRls(knex, table);
    // 001's default privileges grant these already; stated so the tables do not depend on who ran 001
    await knex.raw(`grant select, insert, update, delete on ${table} to ledger_app`);
    await knex.raw(`grant usage, select on sequence ${table}_id_seq to ledger_app`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['bank_transactions', 'payment_file_items', 'payment_files']) await knex.schema.dropTableIfExists(t);
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.dropColumn('payment_reference');
  });
}
