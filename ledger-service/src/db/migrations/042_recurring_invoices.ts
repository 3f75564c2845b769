import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Recurring invoices (docs/invoices.md "Recurring invoices"): an invoice template, its schedule
 * and mode, the next date due and the last one made. The ledger's job (modules/recurring/job.ts)
 * makes each due invoice in a transaction of its own that holds the template's row and moves
 * `next_date` on; the invoice names its template and date (`recurring_id`, `recurring_date`),
 * unique per company, so no date is ever invoiced twice, whatever number of ledger processes
 * run the job. A books table: keys and foreign keys carry `company_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recurring_invoices', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('party_id').notNullable();
    // the invoice write body without its date (shared/src/schemas/sales.ts recurringTemplateSchema)
    t.jsonb('template').notNullable();
    t.jsonb('schedule').notNullable();
    t.text('mode').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.specificType('currency', 'char(3)').notNullable();
    t.decimal('amount', 20, 6).notNullable();
    t.date('next_date');
    t.date('last_date');
    t.integer('invoice_count').notNullable().defaultTo(0);
    t.text('last_error');
    // the member whose role and approval limit the job acts with (who created or last changed it)
    t.bigInteger('acting_user_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.foreign(['company_id', 'party_id']).references(['company_id', 'id']).inTable('parties');
  });
  await knex.raw(
    `alter table recurring_invoices add constraint recurring_invoices_mode_check
       check (mode in ('draft', 'post', 'post_and_email'))`,
  );
  await knex.raw(
    `alter table recurring_invoices add constraint recurring_invoices_status_check
       check (status in ('active', 'paused'))`,
  );
  // the job's scan: active templates by the date they are due
  await knex.raw(
    `create index recurring_invoices_due on recurring_invoices (company_id, next_date) where status = 'active'`,
  );
  await enableTenantRls(knex, 'recurring_invoices');
  await knex.raw(`grant select, insert, update, delete on recurring_invoices to ledger_app`);
  await knex.raw(`grant usage, select on sequence recurring_invoices_id_seq to ledger_app`);

  await knex.schema.alterTable('arap_transactions', (t) => {
    t.bigInteger('recurring_id');
    t.date('recurring_date');
  });
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_recurring_fk foreign key (company_id, recurring_id)
       references recurring_invoices (company_id, id)`,
  );
  // one invoice per template and date: the job's guarantee, also against a second process
  await knex.raw(
    `create unique index arap_transactions_recurring_once
       on arap_transactions (company_id, recurring_id, recurring_date) where recurring_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index arap_transactions_recurring_once`);
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.dropForeign(['company_id', 'recurring_id'], 'arap_transactions_recurring_fk');
    t.dropColumn('recurring_id');
    t.dropColumn('recurring_date');
  });
  await knex.schema.dropTable('recurring_invoices');
}
