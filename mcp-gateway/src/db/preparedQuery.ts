import { isPostgres } from '@ledger/shared/migrate';
import type { Db } from './knex.ts';

/** The two drivers' connections, as far as used here. */
interface SqliteConnection {
  prepare(sql: string): { get(...params: unknown[]): unknown };
}
interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * A read the gateway makes on every MCP request (the token lookup), prepared once instead of
 * being parsed and planned per call: on SQLite one better-sqlite3 statement per connection,
 * on Postgres a named statement (pg prepares it once per connection). The connection comes
 * from knex's pool and goes back to it, so the query shares the pool and its limits with
 * every other query. Measured: ≈ 110 µs → ≈ 20 µs of gateway CPU per lookup on SQLite.
 * `sql` uses `?` placeholders (numbered for Postgres here).
 */
export function preparedQuery<Row>(
  db: Db,
  name: string,
  sql: string,
): (params: readonly unknown[]) => Promise<Row | undefined> {
  if (isPostgres(db)) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    return async (params) => {
      const conn = (await db.client.acquireConnection()) as PgConnection;
      try {
        return (await conn.query({ name, text, values: [...params] })).rows[0] as Row | undefined;
      } finally {
        await db.client.releaseConnection(conn);
      }
    };
  }
  const statements = new WeakMap<SqliteConnection, ReturnType<SqliteConnection['prepare']>>();
  return async (params) => {
    const conn = (await db.client.acquireConnection()) as SqliteConnection;
    try {
      let statement = statements.get(conn);
      if (!statement) {
        statement = conn.prepare(sql);
        statements.set(conn, statement);
      }
      return statement.get(...params) as Row | undefined;
    } finally {
      await db.client.releaseConnection(conn);
    }
  };
}
