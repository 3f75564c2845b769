import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Dunning runs (docs/invoices.md "Dunning runs"): each run that sent reminders, and each
 * invoice it reminded with the level reached, the fee and its booking, and the message. One
 * row per invoice and level (a unique key), so a second run on the same day — or two at once —
 * sends nothing twice. Books tables: keys and foreign keys carry `company_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dunning_runs', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.date('date').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'date']);
  });
  await knex.schema.createTable('dunning_items', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('run_id').notNullable();
    t.bigInteger('invoice_id').notNullable();
    t.integer('level').notNullable();
    t.decimal('fee', 20, 6).notNullable();
    t.decimal('open', 20, 6).notNullable();
    t.bigInteger('fee_transaction_id');
    t.bigInteger('message_id');
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'invoice_id', 'level']);
    t.index(['company_id', 'run_id']);
    t.foreign(['company_id', 'run_id']).references(['company_id', 'id']).inTable('dunning_runs').onDelete('CASCADE');
    t.foreign(['company_id', 'invoice_id']).references(['company_id', 'id']).inTable('arap_transactions');
  });
  await knex.raw(`alter table dunning_items add constraint dunning_items_level_check check (level between 1 and 3)`);
  for (const table of ['dunning_runs', 'dunning_items']) {
    await enableTenantRls(knex, table);
    await knex.raw(`grant select, insert, update, delete on ?? to ledger_app`, [table]);
    await knex.raw(`grant usage, select on sequence ?? to ledger_app`, [`${table}_id_seq`]);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dunning_items');
  await knex.schema.dropTable('dunning_runs');
}
