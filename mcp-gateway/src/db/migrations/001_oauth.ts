import type { Knex } from 'knex';

/**
 * The gateway's store: registered clients, sign-in sessions, authorization codes,
 * connections and their tokens. Secrets (session ids, codes, tokens) are kept only as
 * SHA-256 hashes. Times are epoch milliseconds (bigint), so the same schema works on
 * SQLite and Postgres.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_clients', (t) => {
    t.string('client_id', 64).primary();
    t.text('client_name').notNullable();
    t.text('redirect_uris').notNullable(); // JSON array
    t.text('verified_host'); // all redirect URIs https on this one host, else null
    t.text('metadata').notNullable(); // the registered metadata as returned (JSON)
    t.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('sessions', (t) => {
    t.string('id_hash', 64).primary();
    t.bigInteger('user_id').notNullable();
    t.text('user_name').notNullable();
    t.text('user_email').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at']);
  });

  await knex.schema.createTable('connections', (t) => {
    t.string('id', 36).primary();
    t.bigInteger('user_id').notNullable();
    t.text('user_name').notNullable();
    t.text('user_email').notNullable();
    t.string('dataset', 63).notNullable();
    t.text('resource').notNullable();
    t.text('client_id').notNullable();
    t.text('client_name').notNullable();
    t.text('verified_host');
    t.text('scopes').notNullable(); // space separated
    t.string('state', 16).notNullable(); // active | ended
    t.string('end_reason', 40);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at').notNullable();
    t.bigInteger('ended_at');
    t.index(['user_id', 'state']);
    t.index(['dataset', 'state']);
  });

  await knex.schema.createTable('authorization_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.text('client_id').notNullable();
    t.text('client_name').notNullable();
    t.text('verified_host');
    t.bigInteger('user_id').notNullable();
    t.text('user_name').notNullable();
    t.text('user_email').notNullable();
    t.string('dataset', 63).notNullable();
    t.text('resource').notNullable();
    t.text('scopes').notNullable();
    t.text('redirect_uri').notNullable();
    t.boolean('redirect_uri_sent').notNullable();
    t.string('code_challenge', 128).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
    t.boolean('replayed').notNullable().defaultTo(false);
    t.string('connection_id', 36).references('connections.id');
    t.index(['expires_at']);
  });

  await knex.schema.createTable('tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.string('connection_id', 36).notNullable().references('connections.id');
    t.string('kind', 8).notNullable(); // access | refresh
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at'); // refresh tokens: when rotated
    t.index(['connection_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['tokens', 'authorization_codes', 'connections', 'sessions', 'oauth_clients']) {
    await knex.schema.dropTableIfExists(t);
  }
}
