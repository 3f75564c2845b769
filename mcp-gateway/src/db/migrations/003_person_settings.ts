import type { Knex } from 'knex';

/**
 * A person's own settings in the app, kept by the gateway (the app is the gateway's; the ledger
 * has no use for them): the language of the interface. Without a row the app follows the
 * browser's `Accept-Language` (pages/app/language.ts). Keyed by the ledger's user id, like sessions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('person_settings', (t) => {
    t.bigInteger('user_id').primary();
    t.string('language', 2).notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('person_settings');
}
