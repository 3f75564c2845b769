import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Bank automation (docs/bank.md "Bank rules", "Reconciliation"): the company's bank rules, the
 * closing balances of the camt.053 statements imported, the reconciliations done, and on each
 * bank transaction the rule that booked it and the date it was reconciled up to.
 *
 * - `bank_rules`: conditions and action as JSON (their shape is the API's, checked by the
 *   schema and the module's rules before they are stored); `priority` orders them, lowest
 *   first, the first matching rule wins.
 * - `bank_statements`: one row per camt.053 statement with a closing booked balance; a second
 *   import of the same statement keeps the first row (unique per account, statement id and date).
 * - `bank_reconciliations`: each successful reconcile (date, the balance agreed).
 * - `bank_transactions.rule_id` (no foreign key: deleting a rule keeps the record of what it
 *   booked), `reconciled_on` (null until a reconcile covers the line).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_rules', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('priority').notNullable();
    t.boolean('auto').notNullable().defaultTo(false);
    t.jsonb('conditions').notNullable();
    t.jsonb('action').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'priority', 'id']);
  });

  await knex.schema.createTable('bank_statements', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('bank_account_id').notNullable();
    t.text('statement_id').notNullable(); // Stmt/Id ('' when the file has none)
    t.date('date').notNullable(); // the closing balance's date
    t.decimal('closing', 20, 6).notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'bank_account_id', 'statement_id', 'date']);
    t.foreign(['company_id', 'bank_account_id']).references(['company_id', 'id']).inTable('bank_accounts');
  });

  await knex.schema.createTable('bank_reconciliations', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('bank_account_id').notNullable();
    t.date('date').notNullable();
    t.decimal('statement_balance', 20, 6).notNullable();
    t.integer('lines').notNullable();
    t.bigInteger('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'bank_account_id', 'date']);
    t.foreign(['company_id', 'bank_account_id']).references(['company_id', 'id']).inTable('bank_accounts');
  });

  await knex.schema.alterTable('bank_transactions', (t) => {
    t.bigInteger('rule_id');
    t.date('reconciled_on');
  });

  for (const table of ['bank_rules', 'bank_statements', 'bank_reconciliations']) {
    await enableTenantRls(knex, table);
    await knex.raw(`grant select, insert, update, delete on ${table} to ledger_app`);
    await knex.raw(`grant usage, select on sequence ${table}_id_seq to ledger_app`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bank_transactions', (t) => {
    t.dropColumn('rule_id');
    t.dropColumn('reconciled_on');
  });
  for (const t of ['bank_reconciliations', 'bank_statements', 'bank_rules']) await knex.schema.dropTableIfExists(t);
}
