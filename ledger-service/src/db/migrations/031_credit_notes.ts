import type { Knex } from 'knex';

/**
 * Credit notes (docs/invoices.md "Credit notes"): a posted AR/AP document of type
 * `credit_note` with negative amounts, linked to the invoice it credits (`credit_of_id`) and
 * carrying the reason. Its open amount is allocated to open documents of the same party and
 * currency, or refunded: both are rows of `arap_payments`, so `amount` may now be negative (a
 * credit note's share) and `kind` tells an allocation (no cash line; `allocated_with_id` names
 * the other document) from a payment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.bigInteger('credit_of_id');
    t.text('reason');
  });
  await knex.raw(`alter table arap_transactions drop constraint arap_transactions_type_check`);
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_type_check check (type in ` +
      `('transaction','invoice','credit_note'))`,
  );
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_credit_of_fk foreign key (company_id, credit_of_id)
       references arap_transactions (company_id, id)`,
  );
  await knex.raw(
    `create index arap_transactions_credit_of on arap_transactions (company_id, credit_of_id)
      where credit_of_id is not null`,
  );

  await knex.schema.alterTable('arap_payments', (t) => {
    t.text('kind').notNullable().defaultTo('payment');
    t.bigInteger('allocated_with_id');
  });
  await knex.raw(`alter table arap_payments drop constraint arap_payments_amount_check`);
  await knex.raw(`alter table arap_payments add constraint arap_payments_amount_check check (amount <> 0)`);
  await knex.raw(
    `alter table arap_payments add constraint arap_payments_kind_check check (kind in ('payment', 'allocation'))`,
  );
  await knex.raw(
    `alter table arap_payments add constraint arap_payments_allocated_with_fk
       foreign key (company_id, allocated_with_id) references arap_transactions (company_id, id)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table arap_payments drop constraint arap_payments_allocated_with_fk`);
  await knex.raw(`alter table arap_payments drop constraint arap_payments_kind_check`);
  await knex.raw(`alter table arap_payments drop constraint arap_payments_amount_check`);
  await knex.raw(`alter table arap_payments add constraint arap_payments_amount_check check (amount > 0)`);
  await knex.schema.alterTable('arap_payments', (t) => {
    t.dropColumn('allocated_with_id');
    t.dropColumn('kind');
  });
  await knex.raw(`alter table arap_transactions drop constraint arap_transactions_credit_of_fk`);
  await knex.raw(`alter table arap_transactions drop constraint arap_transactions_type_check`);
  await knex.raw(
    `alter table arap_transactions add constraint arap_transactions_type_check check (type in ` +
      `('transaction','invoice'))`,
  );
  await knex.schema.alterTable('arap_transactions', (t) => {
    t.dropColumn('credit_of_id');
    t.dropColumn('reason');
  });
}
