import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * The company's own bank accounts (`bank_accounts`, under RLS) and the company's profile:
 * address, VAT number, e-mail and the bank account printed on invoices, as columns of
 * `companies`. The accounts the books use (rounding, FX gain/loss, retained earnings,
 * reminder fees) stay in `companies.settings`, where posting already reads them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_accounts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('iban').notNullable(); // electronic format, no spaces
    t.text('qr_iban');
    t.text('bic');
    t.specificType('currency', 'char(3)').notNullable();
    t.bigInteger('account_id').notNullable().references('accounts.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // a bank statement names its account by IBAN or QR-IBAN: each names one account
    t.unique(['company_id', 'iban']);
    t.unique(['company_id', 'qr_iban']);
    // the target of the companies → invoice bank account key (same company)
    t.unique(['company_id', 'id']);
  });
  await enableTenantRls(knex, 'bank_accounts');

  await knex.schema.alterTable('companies', (t) => {
    t.text('street');
    t.text('house_number');
    t.text('zip');
    t.text('city');
    t.specificType('country', 'char(2)');
    t.text('vat_number');
    t.text('email');
    t.bigInteger('invoice_bank_account_id');
  });
  // only a bank account of the same company; a deleted bank account leaves the field empty
  await knex.raw(`alter table companies add constraint companies_invoice_bank_account_fk
    foreign key (id, invoice_bank_account_id) references bank_accounts (company_id, id)
    on delete set null (invoice_bank_account_id)`);
  // 001's default privileges grant these already; stated here so the table does not depend on who ran 001
  await knex.raw('grant select, insert, update, delete on bank_accounts to ledger_app');
  await knex.raw('grant usage, select on sequence bank_accounts_id_seq to ledger_app');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table companies drop constraint if exists companies_invoice_bank_account_fk');
  await knex.schema.alterTable('companies', (t) => {
    for (const c of [
      'street',
      'house_number',
      'zip',
      'city',
      'country',
      'vat_number',
      'email',
      'invoice_bank_account_id',
    ])
      t.dropColumn(c);
  });
  await knex.schema.dropTableIfExists('bank_accounts');
}
