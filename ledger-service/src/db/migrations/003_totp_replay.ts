import type { Knex } from 'knex';

/**
 * TOTP replay protection (RFC 6238 §5.2): the last time step whose code was accepted for a
 * person. A code of that step or an earlier one is refused, so one code signs in once.
 * -1 = no code accepted yet (steps count from 0 at the Unix epoch).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('totp_last_step').notNullable().defaultTo(-1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('totp_last_step');
  });
}
