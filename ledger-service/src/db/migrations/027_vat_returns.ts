import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * VAT returns as documents (modules/vat, docs/vat.md): `vat_returns` holds one return of one
 * period with its figures frozen when it was prepared, and its settling journal entry;
 * `vat_return_lines` the ledger lines behind the figures, frozen with them (one row per
 * document and tax code, or per journal entry line on a tax account), so a figure's lines
 * always sum to it. One original per period (a partial unique index); corrections beside it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vat_returns', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.date('from_date').notNullable();
    t.date('to_date').notNullable();
    t.text('type').notNullable();
    t.text('method').notNullable();
    t.text('basis').notNullable();
    t.text('status').notNullable().defaultTo('draft');
    t.specificType('currency', 'char(3)').notNullable();
    t.jsonb('figures').notNullable();
    t.decimal('payable', 20, 6).notNullable();
    // the approved net tax rates the return was computed with (net_tax method)
    t.jsonb('net_tax_rates').notNullable().defaultTo('[]');
    t.bigInteger('settlement_id');
    t.bigInteger('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'from_date', 'to_date']);
  });
  await knex.raw(
    `alter table vat_returns add constraint vat_returns_type_check check (type in ('original','correction'))`,
  );
  await knex.raw(
    `alter table vat_returns add constraint vat_returns_status_check check (status in ('draft','settled'))`,
  );
  await knex.raw(
    `alter table vat_returns add constraint vat_returns_method_check check (method in ('effective','net_tax'))`,
  );
  await knex.raw(
    `create unique index vat_returns_one_original on vat_returns (company_id, from_date) where type = 'original'`,
  );
  await knex.raw(
    `alter table vat_returns add constraint vat_returns_settlement_foreign foreign key (company_id, settlement_id)
       references gl_transactions (company_id, id)`,
  );

  await knex.schema.createTable('vat_return_lines', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('return_id').notNullable();
    // customer: a sales document; vendor: a purchase document; ledger: a ledger line on a tax account
    t.text('side').notNullable();
    // transaction | invoice | journal | payment
    t.text('kind').notNullable();
    t.bigInteger('source_id').notNullable();
    t.text('number');
    t.date('date').notNullable();
    t.text('code');
    t.text('code_kind');
    t.text('figure');
    t.text('tax_accno');
    t.text('revenue_accno');
    t.decimal('base', 20, 6).notNullable();
    t.decimal('tax', 20, 6).notNullable();
    t.primary(['company_id', 'id']);
    t.index(['company_id', 'return_id']);
    t.foreign(['company_id', 'return_id']).references(['company_id', 'id']).inTable('vat_returns').onDelete('CASCADE');
  });

  for (const table of ['vat_returns', 'vat_return_lines']) await enableTenantRls(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('vat_return_lines');
  await knex.schema.dropTableIfExists('vat_returns');
}
