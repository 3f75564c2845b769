import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

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
  beginWith(db);
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
  return { name: `p_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}` };
}

/** A transaction whose first round trip sends `beginWith` (BEGIN and what follows it) instead of BEGIN alone. */
interface BeginConfig extends Knex.TransactionConfig {
  beginWith?: string;
  /** `beginWith` starts with BEGIN and a guard statement whose one row must say `unchanged` (withTenant) */
  guarded?: boolean;
}

/**
 * A tenant transaction's guard found that what the caller was authenticated with changed
 * (withTenant's `guard`): the transaction was rolled back before anything ran in it.
 */
export class TenantGuardFailed extends Error {
  constructor() {
    super('the credential changed since it was read');
  }
}

/** pg's answer to a simple query of several statements: one result per statement. */
type MultiResult = { response?: { rows?: { unchanged?: boolean }[] }[] } | undefined;

/** The part of knex's Transaction that `beginWith` replaces (knex 3, lib/execution/transaction.js). */
interface KnexTransaction {
  begin(connection: unknown): Promise<unknown>;
  query(connection: unknown, sql: string): Promise<unknown>;
}

/**
 * Lets `db.transaction(fn, { beginWith })` open the transaction with its own statements: BEGIN
 * and the tenant settings go to Postgres as one simple query, one round trip instead of two
 * for every request (the statement text is fixed but for the company's integer id). knex
 * calls `begin` once the connection is acquired, after the transaction object exists, so
 * replacing it on the new object is enough; without `beginWith` nothing changes.
 */
const opensWithBeginWith = new WeakSet<Knex>();

function beginWith(db: Knex): void {
  opensWithBeginWith.add(db);
  // knex's Client type does not declare its transaction factory; this is its shape in knex 3
  const client = db.client as {
    transaction(container: unknown, config?: BeginConfig, outer?: unknown): KnexTransaction;
  };
  const make = client.transaction;
  client.transaction = function (this: unknown, container, config, outer) {
    const trx = make.call(this, container, config, outer);
    const sql = config?.beginWith;
    if (sql !== undefined && config?.guarded) {
      trx.begin = async (connection) => {
        const result = (await trx.query(connection, sql)) as MultiResult;
        // undefined: the message failed, and knex has already rejected the transaction with its error
        if (result === undefined || result.response?.[1]?.rows?.[0]?.unchanged === true) return result;
        // not a failed query: the transaction is open and must be ended before the connection goes back
        await trx.query(connection, 'ROLLBACK;');
        throw new TenantGuardFailed();
      };
    } else if (sql !== undefined) trx.begin = (connection) => trx.query(connection, sql);
    return trx;
  };
}

/** The role the application's tenant transactions run as; row-level security applies to it. */
export const APP_ROLE = 'ledger_app';

/**
 * Runs `fn` in one transaction scoped to one company: the transaction switches to the
 * RLS-bound role and sets `app.company_id`, so every books table only shows that
 * company's rows whatever the queries say. Both settings end with the transaction.
 */
export async function withTenant<T>(
  db: Db,
  companyId: number,
  fn: (tx: Tx) => Promise<T>,
  /**
   * A statement returning one row with a boolean `unchanged`, sent in the transaction's first
   * message, before the role switch (a literal text: only ids and versions inlined): when it
   * says false, the transaction is rolled back and this rejects with TenantGuardFailed before
   * `fn` runs. The API-key cache uses it to check a remembered key without a round trip of
   * its own (kernel/auth.ts).
   */
  guard?: string,
): Promise<T> {
  if (!opensWithBeginWith.has(db)) {
    // a knex instance not made by createDb: the settings as the transaction's first statement
    return db.transaction(async (tx) => {
      if (guard !== undefined) {
        const { rows } = await tx.raw<{ rows: { unchanged: boolean }[] }>(guard);
        if (rows[0]?.unchanged !== true) throw new TenantGuardFailed();
      }
      await tx.raw(`select set_config('app.company_id', ?, true), set_config('role', ?, true)`, [
        String(companyId),
        APP_ROLE,
      ]);
      return fn(tx);
    });
  }
  // inlined, not bound: BEGIN and the settings are one simple query (createDb's beginWith);
  // the id is checked to be an integer, so nothing but digits reaches the text
  if (!Number.isSafeInteger(companyId)) throw new Error(`withTenant: company id ${companyId} is not an integer`);
  const settings = `select set_config('app.company_id', '${companyId}', true), set_config('role', '${APP_ROLE}', true)`;
  const config: BeginConfig =
    guard === undefined
      ? { beginWith: `BEGIN; ${settings}` }
      : { beginWith: `BEGIN; ${guard}; ${settings}`, guarded: true };
  return db.transaction(fn, config);
}
