import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Fixed assets (docs/year-end.md "Fixed assets"): the register (`assets`) and what each
 * depreciation run booked per asset (`asset_depreciations`, the run's journal entry beside
 * it). The depreciation due is always computed from the register up to a date, less what the
 * posted runs booked, so a run to the same date books nothing again. A disposal is recorded
 * on the asset with its journal entry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assets', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.bigInteger('asset_account_id').notNullable();
    t.bigInteger('expense_account_id').notNullable();
    t.bigInteger('accumulated_account_id');
    t.date('acquired').notNullable();
    t.decimal('cost', 20, 6).notNullable();
    t.decimal('residual', 20, 6).notNullable().defaultTo(0);
    t.text('method').notNullable();
    t.integer('life_months');
    t.decimal('rate', 12, 10);
    t.text('frequency').notNullable();
    t.date('disposed');
    t.bigInteger('disposal_journal_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
  });
  await knex.raw(`alter table assets add constraint assets_method_check check (method in ('linear', 'declining'))`);
  await knex.raw(
    `alter table assets add constraint assets_frequency_check check (frequency in ('month', 'quarter', 'year'))`,
  );
  await knex.schema.createTable('asset_depreciations', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('asset_id').notNullable();
    t.bigInteger('journal_id').notNullable();
    t.date('date').notNullable();
    t.decimal('amount', 20, 6).notNullable();
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'asset_id']);
    t.foreign(['company_id', 'asset_id']).references(['company_id', 'id']).inTable('assets').onDelete('CASCADE');
  });
  for (const table of ['assets', 'asset_depreciations']) {
    await enableTenantRls(knex, table);
    await knex.raw(`grant select, insert, update, delete on ?? to ledger_app`, [table]);
    await knex.raw(`grant usage, select on sequence ?? to ledger_app`, [`${table}_id_seq`]);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('asset_depreciations');
  await knex.schema.dropTableIfExists('assets');
}
