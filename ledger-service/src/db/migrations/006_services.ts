import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * The services catalogue: what invoice items may name to take description, unit, price and
 * accounts from. `partnumber` is unique per company; the price is NUMERIC (≤ 6 decimals).
 * Invoice items reference services without cascade, so a service in use cannot be deleted
 * (the delete answers 409: deactivate it instead).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('services', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('partnumber').notNullable();
    t.text('description').notNullable();
    t.text('unit');
    t.decimal('price', 20, 6).notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.bigInteger('income_account_id').references('accounts.id');
    t.bigInteger('expense_account_id').references('accounts.id');
    t.bigInteger('tax_account_id').references('accounts.id');
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['company_id', 'partnumber']);
    t.index(['company_id', 'active']);
  });
  await enableTenantRls(knex, 'services');
  // 001's default privileges cover new tables; said again so the role's rights do not hang on who ran 001
  await knex.raw(`grant select, insert, update, delete on services to ledger_app`);
  await knex.raw(`grant usage, select on sequence services_id_seq to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('services');
}
