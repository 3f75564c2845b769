import type { Knex } from 'knex';

/**
 * The language a customer or vendor is written to in (docs/invoices.md "Languages"): its PDFs,
 * e-mails and the QR-bill's payment part. Null: the company's language, kept beside the book
 * accounts in `companies.settings` (`language`, default German), so it needs no column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('parties', (t) => {
    t.text('language');
  });
  await knex.raw(
    `alter table parties add constraint parties_language_check check (language in ('de', 'fr', 'it', 'en'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('parties', (t) => {
    t.dropColumn('language');
  });
}
