import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Invoices with items (docs/invoices.md). An invoice is an `arap_transactions` row with
 * `type = 'invoice'` (so numbering, payments, the ledger lines and the reads are shared
 * with AR/AP transactions); its items live in `invoice_items`, one per line of the same
 * position in `arap_lines` (which holds the computed amount and tax).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.text('type').notNullable().defaultTo('transaction');
    // customer invoices only
    t.text('notes');
    t.integer('terms');
    t.text('shippingpoint');
    t.text('ord_number');
    t.text('po_number');
    // the payment slip's reference: assigned when a customer invoice is posted, never changed afterwards
    t.text('qr_reference');
  });
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_type_check check (type in ` +
      `('transaction','invoice'))`,
  );
  await knex.raw(
    `create unique index arap_transactions_qr_reference_unique on arap_transactions (company_id, qr_reference) ` +
      `where qr_reference is not null`,
  );
  await knex.raw(`create index arap_transactions_type_list on arap_transactions (company_id, vc, type, inv_date, id)`);

  await knex.schema.createTable('invoice_items', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('transaction_id').notNullable().references('arap_transactions.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    // no cascade: a service used by an invoice cannot be deleted (the services delete answers 409)
    t.bigInteger('service_id').references('services.id');
    t.text('partnumber');
    t.text('description');
    t.decimal('quantity', 20, 6).notNullable();
    t.text('unit');
    t.decimal('price', 20, 6).notNullable();
    t.decimal('discount', 9, 6).notNullable().defaultTo(0);
    t.unique(['transaction_id', 'position']);
    t.index(['company_id', 'service_id']);
  });
  await enableTenantRls(knex, 'invoice_items');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invoice_items');
  await knex.raw('drop index if exists arap_transactions_type_list');
  await knex.raw('drop index if exists arap_transactions_qr_reference_unique');
  await knex.raw('alter table arap_transactions drop constraint if exists arap_transactions_type_check');
  await knex.schema.alterTable('arap_transactions', (t) => {
    for (const c of ['type', 'notes', 'terms', 'shippingpoint', 'ord_number', 'po_number', 'qr_reference'])
      t.dropColumn(c);
  });
}
