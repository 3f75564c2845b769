import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Idempotency keys of POST requests (kernel/idempotency.ts, docs/rest-api.md): one row per
 * company, caller and key, holding what identifies the request (method, path, a SHA-256 of
 * the canonical request) and the answer it got (status, the headers that matter, the body
 * encrypted with the ledger's key because some answers carry a secret, e.g. a new API key).
 *
 * The row is inserted inside the request's own transaction, so it commits together with the
 * write it stands for or not at all: there is no "in progress" row to leave behind when a
 * process dies, and a concurrent request with the same key waits on the unique index until
 * the first transaction ends. Rows older than 24 h are ignored and purged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // "key:<api key id>" or "user:<user id>" (an AI connection acts as its person)
    t.text('caller').notNullable();
    t.text('key').notNullable();
    t.text('method').notNullable();
    t.text('path').notNullable();
    t.text('request_hash').notNullable();
    t.integer('status').notNullable();
    t.jsonb('headers').notNullable().defaultTo('{}');
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['company_id', 'caller', 'key']);
    t.index(['company_id', 'created_at']);
  });
  await enableTenantRls(knex, 'idempotency_keys');
  // 001's default privileges cover new tables; said again so the role's rights do not hang on who ran 001
  await knex.raw(`grant select, insert, update, delete on idempotency_keys to ledger_app`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
}
