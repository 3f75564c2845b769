import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Payments of AR/AP documents (docs/payments.md). A payment settles part or
 * all of one posted document (`transaction_id`, a row of arap_transactions of either type).
 * Its ledger lines are ledger_entries rows with the document's `transaction_id` (so the
 * document's lines are found together) and the payment's `payment_id`; kinds 'payment'
 * (bank/cash and control account) and 'fx' (exchange gain or loss). A reversed payment stays,
 * with `reversal_date` set and the negating ledger lines under the same payment_id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('arap_payments', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('vc').notNullable();
    // documents with payments are never deleted (only drafts are), so no cascade is needed
    t.bigInteger('transaction_id').notNullable().references('arap_transactions.id');
    t.date('date').notNullable();
    t.decimal('amount', 20, 6).notNullable(); // document currency, > 0
    t.specificType('currency', 'char(3)').notNullable();
    t.decimal('exchangerate', 20, 10).notNullable();
    t.bigInteger('account_id').notNullable().references('accounts.id');
    // base currency, positive: what the bank/cash account moved, and what the control account was cleared by
    t.decimal('base_amount', 20, 6).notNullable();
    t.decimal('cleared_base', 20, 6).notNullable();
    t.text('memo');
    t.text('source');
    t.date('reversal_date');
    t.timestamp('reversed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['company_id', 'vc', 'date', 'id']); // the list's order
    t.index(['transaction_id']);
  });
  await knex.raw(`alter table arap_payments add constraint arap_payments_vc_check check (vc in ('vendor','customer'))`);
  await knex.raw(`alter table arap_payments add constraint arap_payments_amount_check check (amount > 0)`);
  await enableTenantRls(knex, 'arap_payments');

  await knex.schema.alterTable('ledger_entries', (t) => {
    t.bigInteger('payment_id').references('arap_payments.id').onDelete('CASCADE');
  });
  await knex.raw('create index ledger_entries_payment_id on ledger_entries (payment_id) where payment_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ledger_entries', (t) => {
    t.dropColumn('payment_id');
  });
  await knex.schema.dropTableIfExists('arap_payments');
}
