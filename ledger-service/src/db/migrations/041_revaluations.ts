import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Revaluations of foreign-currency items at closing rates (docs/year-end.md "Revaluation"):
 * one row per company and date (a second request for the date answers the first's result),
 * with the rates, the items and their differences, the journal entry and its reversal on the
 * next day when asked. A later revaluation reads the differences of earlier ones still
 * standing (journal entry posted, not reversed) from `items`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('revaluations', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.date('date').notNullable();
    t.jsonb('rates').notNullable();
    t.jsonb('items').notNullable();
    t.bigInteger('journal_id');
    t.bigInteger('reversal_journal_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'date']);
  });
  await enableTenantRls(knex, 'revaluations');
  await knex.raw(`grant select, insert, update, delete on revaluations to ledger_app`);
  await knex.raw(`grant usage, select on sequence revaluations_id_seq to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('revaluations');
}
