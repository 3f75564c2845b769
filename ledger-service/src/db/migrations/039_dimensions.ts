import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Dimensions (docs/year-end.md "Dimensions"): a company's cost centres, projects and the like,
 * each with its values. A posting names them per line as `{ "<dimension code>": "<value code>" }`;
 * the codes never change (names do), so the lines keep the codes themselves in a `dimensions`
 * jsonb column: gl_lines, arap_lines and invoice_items as written, ledger_entries as posted (the
 * reports group the ledger lines by it). A value a posting used is never deleted, only
 * deactivated, so there is no delete at all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dimensions', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('code').notNullable();
    t.text('name').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'code']);
  });
  await knex.schema.createTable('dimension_values', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('dimension_id').notNullable();
    t.text('code').notNullable();
    t.text('name').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'dimension_id', 'code']);
    t.foreign(['company_id', 'dimension_id']).references(['company_id', 'id']).inTable('dimensions');
  });
  for (const table of ['dimensions', 'dimension_values']) {
    await enableTenantRls(knex, table);
    await knex.raw(`grant select, insert, update, delete on ?? to ledger_app`, [table]);
    await knex.raw(`grant usage, select on sequence ?? to ledger_app`, [`${table}_id_seq`]);
  }
  for (const table of ['gl_lines', 'arap_lines', 'invoice_items', 'ledger_entries']) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('dimensions');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['gl_lines', 'arap_lines', 'invoice_items', 'ledger_entries']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('dimensions');
    });
  }
  await knex.schema.dropTableIfExists('dimension_values');
  await knex.schema.dropTableIfExists('dimensions');
}
