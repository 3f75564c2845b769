import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { sendClosingStatement, sendPrepared } from './tenantTransaction.ts';

// NUMERIC and BIGINT arrive as strings: money is converted to Decimal explicitly, never to float.
// int8 ids fit in a JS number for any realistic ledger, so they are parsed as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;
export type Tx = Knex.Transaction;

export interface DbOptions {
  poolMax?: number;
  /**
   * The statements every posting sends go as named prepared statements (`preparedAs`). Only
   * for a real Postgres: the embedded PGlite is one session behind several sockets, where one
   * connection's statement names would collide with another's.
   */
  preparedStatements?: boolean;
}

export function createDb(url: string, opts: DbOptions = {}): Db {
  const db = knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: opts.poolMax ?? 10 },
  });
  if (opts.preparedStatements) preparing.add(db.client.config);
  return db;
}

/** The knex configs (shared by a database's transactions) whose hot statements are prepared. */
const preparing = new WeakSet<object>();

/**
 * The pg query options that send `sql` as a named prepared statement on `executor`'s
 * connection, for `.options(...)` on a raw query or builder: `tx.raw(sql, b).options(preparedAs(tx, sql))`.
 *
 * Why: Postgres parses and plans every unnamed statement anew. For the few large statements of
 * a posting (the snapshot read, the document or entry written in one statement, the events,
 * the API-key lookup) that was, measured from the server's log, 1.3–1.8 ms of database CPU per
 * bill against 1.5 ms of executing them: more than the statements' own work, on the cores the
 * service shares with Postgres. Named, a statement is parsed once per connection and, after a
 * few runs, planned once (a generic plan; row-level security still applies, its setting is read
 * when the plan runs). The name is the text's hash, so one text is one statement on every
 * connection and two texts never share a name. Only for fixed texts (a few variants at most:
 * each is kept per connection) whose result columns are named, never `*`: a column added
 * to a table while a server runs would make a prepared `*` fail ("cached plan must not change
 * result type"). Behind a connection pooler, it needs prepared-statement support
 * (docs/operations.md).
 */
export function preparedAs(executor: Knex, sql: string): { name?: string } {
  if (!preparing.has(executor.client.config)) return {};
  return { name: statementOf(sql).name };
}

/** A hot statement's text as pg takes it (knex's `?` placeholders numbered) and its prepared name. */
interface Statement {
  name: string;
  text: string;
}

/**
 * The hot statements seen so far, by text: each is hashed and numbered once per process, not
 * once per request. The texts are fixed (see above), so the map stays small; the bound only
 * guards against a caller that builds texts.
 */
const statements = new Map<string, Statement>();
const MAX_STATEMENTS = 1000;

function statementOf(sql: string): Statement {
  let statement = statements.get(sql);
  if (statement === undefined) {
    // the placeholders as knex numbers them for pg (`\\?` is a literal question mark); `??` names an identifier
    // in knex, which no hot statement uses
    if (sql.includes('??')) throw new Error('preparedQuery: a statement with ?? (an identifier binding)');
    let n = 0;
    const text = sql.replace(/\\\?|\?/g, (m) => (m === '?' ? `$${++n}` : '?'));
    statement = { name: `p_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, text };
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * One of a posting's hot statements (`?` placeholders, named result columns), prepared as
 * `preparedAs` says. In a tenant transaction it goes straight to the transaction's connection
 * through pg (tenantTransaction.ts `sendPrepared`) — the same text, values and name knex would
 * send, without its query builder and runner around the round trip — and, as the transaction's
 * first statement, in the same message as its opening; anywhere else through knex (`raw` with
 * `preparedAs`). Reported to the database's `query` listeners either way.
 */
export async function preparedQuery<Row>(
  executor: Knex,
  sql: string,
  bindings: readonly unknown[],
): Promise<{ rows: Row[] }> {
  const { name, text } = statementOf(sql);
  const sent = sendPrepared(executor, preparing.has(executor.client.config) ? name : undefined, text, bindings);
  if (sent) return sent as Promise<{ rows: Row[] }>;
  return executor.raw<{ rows: Row[] }>(sql, bindings as Knex.RawBinding[]).options(preparedAs(executor, sql));
}

/**
 * A hot statement (as `preparedQuery`) after which its caller sends nothing more in the
 * transaction: in a tenant transaction that may close there (its owner made it `closable`, no
 * one called `keepOpen`, not in a savepoint) it goes with `COMMIT` in one message and `closed`
 * is true — the transaction is committed and over, and a caller that finds the statement did not
 * do its work throws RunAgain; anywhere else it is `preparedQuery` and `closed` is false.
 */
export async function closingQuery<Row>(
  executor: Knex,
  sql: string,
  bindings: readonly unknown[],
): Promise<{ rows: Row[]; closed: boolean }> {
  const { name, text } = statementOf(sql);
  const sent = sendClosingStatement(executor, preparing.has(executor.client.config) ? name : undefined, text, bindings);
  if (!sent) return { rows: (await preparedQuery<Row>(executor, sql, bindings)).rows, closed: false };
  const { result, closed } = await sent;
  return { rows: (result as { rows: Row[] }).rows, closed };
}

/**
 * The tenant transaction (`withTenant`), its role and guard live in tenantTransaction.ts;
 * they are re-exported here for the modules and tests that open one.
 */
export {
  APP_ROLE,
  keepOpen,
  mayRunAgain,
  RunAgain,
  staleReadCheck,
  TenantGuardFailed,
  withTenant,
} from './tenantTransaction.ts';
