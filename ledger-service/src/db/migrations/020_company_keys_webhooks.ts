import type { Knex } from 'knex';
import { up as companyKeys } from './018_company_keys.ts';

/**
 * The webhook tables of 019 (subscriptions, deliveries, attempts) keyed by `id` alone and
 * pointing at each other by `id`: brought under the rules of 018 (primary keys
 * `(company_id, id)`, foreign keys with `company_id` on both sides), by running 018's catalog
 * pass again. It changes only what still breaks the rules, so on a database where 019 made
 * them right it changes nothing. One transaction; rows are kept.
 */
export async function up(knex: Knex): Promise<void> {
  await companyKeys(knex);
}

export async function down(): Promise<void> {
  throw new Error('020_company_keys_webhooks cannot be undone: restore a backup taken before it');
}
