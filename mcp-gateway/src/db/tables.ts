/**
 * The gateway's tables as TypeScript sees them: one row type per table, registered in knex's
 * `Tables` (`knex/types/tables`) beside the ledger's (ledger-service/src/db/tables.ts; the two
 * schemas share no table name, and a clash would fail the typecheck), so `db('connections')` is
 * a builder of `ConnectionsRow`: a column the table has not is refused in `where({...})`,
 * `insert` and `update`, and results carry the columns' types (docs/architecture.md "Typed
 * rows"; test/tables.test.ts compares them with the migrated store).
 *
 * The same queries run on SQLite and Postgres, so a column's type is what either driver gives:
 * a bigint is a number on SQLite and a string on Postgres (read it through `ms()` / `Number()`),
 * a boolean is 0/1 on SQLite. A migration that adds, renames or drops a column changes the row
 * type here in the same commit.
 */

/** bigint: a number (SQLite) or its decimal text (Postgres). */
export type Int8 = number | string;
/** boolean: 0/1 on SQLite, true/false on Postgres. */
export type Bool = boolean | number;

export type OauthClientsRow = {
  client_id: string;
  client_name: string;
  /** JSON array */
  redirect_uris: string;
  verified_host: string | null;
  /** the registered metadata as returned (JSON) */
  metadata: string;
  created_at: Int8;
};

export type SessionsRow = {
  id_hash: string;
  user_id: Int8;
  user_name: string;
  user_email: string;
  created_at: Int8;
  expires_at: Int8;
};

export type ConnectionsRow = {
  id: string;
  user_id: Int8;
  user_name: string;
  user_email: string;
  dataset: string;
  resource: string;
  client_id: string;
  client_name: string;
  verified_host: string | null;
  /** space separated */
  scopes: string;
  /** active | ended */
  state: string;
  end_reason: string | null;
  created_at: Int8;
  last_used_at: Int8;
  ended_at: Int8 | null;
  replaced_by: string | null;
};

export type AuthorizationCodesRow = {
  code_hash: string;
  client_id: string;
  client_name: string;
  verified_host: string | null;
  user_id: Int8;
  user_name: string;
  user_email: string;
  dataset: string;
  resource: string;
  scopes: string;
  redirect_uri: string;
  redirect_uri_sent: Bool;
  code_challenge: string;
  created_at: Int8;
  expires_at: Int8;
  used_at: Int8 | null;
  replayed: Bool;
  connection_id: string | null;
};

export type TokensRow = {
  token_hash: string;
  connection_id: string;
  /** access | refresh */
  kind: string;
  created_at: Int8;
  expires_at: Int8;
  /** refresh tokens: when rotated */
  used_at: Int8 | null;
};

/** A person's app settings (pages/app/language.ts); no row: the browser's language. */
export type PersonSettingsRow = {
  user_id: Int8;
  /** de | fr | it | en */
  language: string;
  updated_at: Int8;
};

/** Every table of the gateway's store and its row type (test/tables.test.ts compares them with the migrated store). */
export interface GatewayTables {
  oauth_clients: OauthClientsRow;
  sessions: SessionsRow;
  connections: ConnectionsRow;
  authorization_codes: AuthorizationCodesRow;
  tokens: TokensRow;
  person_settings: PersonSettingsRow;
}

// knex's own table registry: `db('<table>')` is typed wherever a gateway knex is used.
declare module 'knex/types/tables.js' {
  interface Tables extends GatewayTables {}
}
