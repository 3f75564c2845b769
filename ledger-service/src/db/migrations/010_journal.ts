import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Journal entries (`/gl/transactions`): header, lines as written (debit / credit in the
 * entry's currency, signed base amount), attached files (the columns of arap_files). Posted
 * entries have their ledger lines in ledger_entries (`journal_id`). Closing entries of a
 * fiscal year are journal entries with `closing` and `fiscal_year`; their ledger lines carry
 * `ledger_entries.closing` so the reports can leave them out of the income statement.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('gl_transactions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('reference').notNullable();
    t.date('transdate').notNullable();
    t.text('description');
    t.specificType('currency', 'char(3)').notNullable();
    t.decimal('exchangerate', 20, 10).notNullable().defaultTo(1);
    t.text('status').notNullable();
    t.bigInteger('reversal_of_id').references('gl_transactions.id');
    t.bigInteger('reversed_by_id').references('gl_transactions.id');
    t.boolean('closing').notNullable().defaultTo(false);
    // closing entries: the fiscal (calendar) year they close
    t.integer('fiscal_year');
    t.bigInteger('created_by').references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('posted_at', { useTz: true });
    t.unique(['company_id', 'reference']);
    t.index(['company_id', 'transdate', 'id']); // the list's order
  });
  await knex.raw(
    `alter table gl_transactions add constraint gl_transactions_status_check check (status in ` +
      `('draft','posted','reversed'))`,
  );
  await knex.raw(
    `alter table gl_transactions add constraint gl_transactions_closing_check check (closing = (fiscal_year is ` +
      `not null))`,
  );
  // one closing entry in force per year: concurrent closings of the same year cannot both succeed
  await knex.raw(
    `create unique index gl_transactions_one_closing on gl_transactions (company_id, fiscal_year)
       where closing and reversal_of_id is null and status = 'posted'`,
  );

  await knex.schema.createTable('gl_lines', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('journal_id').notNullable().references('gl_transactions.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.bigInteger('account_id').notNullable().references('accounts.id');
    t.text('description');
    t.decimal('debit', 20, 6).notNullable().defaultTo(0); // entry currency
    t.decimal('credit', 20, 6).notNullable().defaultTo(0);
    t.decimal('base_amount', 20, 6).notNullable(); // base currency, debit positive
    t.index(['journal_id']);
  });
  await knex.raw(
    `alter table gl_lines add constraint gl_lines_one_side check ((debit > 0 and credit = 0) or (credit > 0 ` +
      `and debit = 0))`,
  );

  await knex.schema.createTable('gl_files', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('journal_id').notNullable().references('gl_transactions.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('media_type').notNullable();
    t.integer('size').notNullable();
    t.binary('data').notNullable();
    t.text('sha256').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['journal_id', 'sha256']);
  });

  await knex.schema.alterTable('ledger_entries', (t) => {
    t.bigInteger('journal_id').references('gl_transactions.id').onDelete('CASCADE');
    t.boolean('closing').notNullable().defaultTo(false);
    t.index(['journal_id']);
  });

  for (const table of ['gl_transactions', 'gl_lines', 'gl_files']) {
    await enableTenantRls(knex, table);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ledger_entries', (t) => {
    t.dropIndex(['journal_id']);
    t.dropColumn('closing');
    t.dropColumn('journal_id');
  });
  for (const t of ['gl_files', 'gl_lines', 'gl_transactions']) {
    await knex.schema.dropTableIfExists(t);
  }
}
