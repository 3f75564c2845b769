import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Quotes (Offerten) to customers (docs/invoices.md "Quotes"): an invoice body that never
 * touches the ledger, with its own number, a last day (`valid_until`) and a status (draft,
 * sent, accepted, declined, invoiced; expired is read from `valid_until`). `body` is the
 * invoice write body it becomes; `computed` what the invoice rules made of it when written
 * (items with amounts and tax, taxes, totals), so a read needs no rule run. `invoice_id` links the draft
 * invoice it became. A books table: primary key and foreign keys carry `company_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('quotes', (t) => {
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('number').notNullable();
    t.bigInteger('party_id').notNullable();
    t.date('quote_date').notNullable();
    t.date('valid_until').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.specificType('currency', 'char(3)').notNullable();
    t.decimal('net_amount', 20, 6).notNullable();
    t.decimal('tax_amount', 20, 6).notNullable();
    t.decimal('amount', 20, 6).notNullable();
    t.jsonb('body').notNullable();
    // the items with their amounts and tax, the taxes and totals, as the invoice rules computed them at the last write
    t.jsonb('computed').notNullable();
    t.bigInteger('invoice_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'id']);
    t.unique(['company_id', 'number']);
    t.index(['company_id', 'quote_date', 'id']);
    t.foreign(['company_id', 'party_id']).references(['company_id', 'id']).inTable('parties');
    t.foreign(['company_id', 'invoice_id']).references(['company_id', 'id']).inTable('arap_transactions');
  });
  await knex.raw(
    `alter table quotes add constraint quotes_status_check
       check (status in ('draft', 'sent', 'accepted', 'declined', 'invoiced'))`,
  );
  await enableTenantRls(knex, 'quotes');
  await knex.raw(`grant select, insert, update, delete on quotes to ledger_app`);
  await knex.raw(`grant usage, select on sequence quotes_id_seq to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('quotes');
}
