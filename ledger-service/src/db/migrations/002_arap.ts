import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * AR/AP transactions, their lines and files, the posted ledger lines, and vendor bank
 * accounts. Money is NUMERIC; every table carries company_id and is under RLS.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vendor_bank_accounts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('party_id').notNullable().references('parties.id').onDelete('CASCADE');
    t.text('iban').notNullable();
    t.text('bic');
    t.text('name');
    t.text('description');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['company_id', 'party_id']);
  });

  await knex.schema.createTable('arap_transactions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('vc').notNullable();
    // no cascade: a party with documents cannot be deleted (the party delete answers 409)
    t.bigInteger('party_id').notNullable().references('parties.id');
    t.text('inv_number').notNullable();
    t.text('document_number');
    t.date('inv_date').notNullable();
    t.date('due_date');
    t.specificType('currency', 'char(3)').notNullable();
    t.decimal('exchangerate', 20, 10).notNullable().defaultTo(1);
    t.bigInteger('record_account_id').notNullable().references('accounts.id');
    t.text('description');
    t.boolean('taxincluded').notNullable().defaultTo(false);
    t.text('status').notNullable();
    t.bigInteger('reversal_of_id').references('arap_transactions.id');
    t.bigInteger('reversed_by_id').references('arap_transactions.id');
    t.boolean('payment_file').notNullable().defaultTo(false);
    t.bigInteger('vc_bank_id').references('vendor_bank_accounts.id');
    t.decimal('net_amount', 20, 6).notNullable();
    t.decimal('tax_amount', 20, 6).notNullable();
    t.decimal('amount', 20, 6).notNullable(); // gross, document currency
    // paid so far (document currency); the payments issue maintains it
    t.decimal('paid', 20, 6).notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('posted_at', { useTz: true });
    t.unique(['company_id', 'vc', 'inv_number']);
    t.index(['company_id', 'vc', 'document_number']);
    t.index(['company_id', 'vc', 'inv_date', 'id']); // the list's order
    t.index(['company_id', 'party_id']);
  });
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_vc_check check (vc in ('vendor','customer'))`,
  );
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_status_check check (status in ` +
      `('draft','posted','reversed'))`,
  );

  await knex.schema.createTable('arap_lines', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('transaction_id').notNullable().references('arap_transactions.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.bigInteger('account_id').notNullable().references('accounts.id');
    t.text('description');
    t.decimal('amount', 20, 6).notNullable(); // as written (net, or gross with taxincluded)
    t.bigInteger('tax_account_id').references('accounts.id');
    t.decimal('tax_rate', 10, 6);
    t.decimal('tax_amount', 20, 6).notNullable();
    t.boolean('tax_override').notNullable().defaultTo(false);
    t.decimal('net', 20, 6).notNullable();
    t.index(['transaction_id']);
  });

  await knex.schema.createTable('arap_files', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('transaction_id').notNullable().references('arap_transactions.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('media_type').notNullable();
    t.integer('size').notNullable();
    t.binary('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['transaction_id']);
  });

  await knex.schema.createTable('ledger_entries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('transaction_id').references('arap_transactions.id').onDelete('CASCADE');
    t.bigInteger('account_id').notNullable().references('accounts.id');
    t.date('date').notNullable();
    t.decimal('amount', 20, 6).notNullable(); // base currency, debit positive
    t.decimal('fx_amount', 20, 6).notNullable(); // document currency
    t.specificType('currency', 'char(3)').notNullable();
    t.text('kind').notNullable(); // amount | tax | control | rounding
    t.index(['transaction_id']);
    t.index(['company_id', 'account_id', 'date']);
    t.index(['company_id', 'date']);
  });

  for (const table of ['vendor_bank_accounts', 'arap_transactions', 'arap_lines', 'arap_files', 'ledger_entries']) {
    await enableTenantRls(knex, table);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['ledger_entries', 'arap_files', 'arap_lines', 'arap_transactions', 'vendor_bank_accounts']) {
    await knex.schema.dropTableIfExists(t);
  }
}
