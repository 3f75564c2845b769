import type { Knex } from 'knex';

/**
 * The names of a chart template's account in every language (docs/year-end.md "The Swiss SME
 * chart"): `{ de, fr, it, en }`, set when the company is created from the template, so reports
 * can be read in another language (`?language=`). Null for accounts the company added; cleared
 * when the company renames the account (its own name then stands in every language).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.jsonb('names');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('names');
  });
}
