/**
 * The tenant transaction: every query a request (or a worker acting for one company) sends
 * runs in one transaction that is scoped to one company and runs as a role that row-level
 * security applies to.
 *
 * Why a module of its own: tenancy must hold by construction, not because some code path
 * remembered it. What it guarantees (its contract test, `tenantTransaction.test.ts`):
 *
 * - the company (`app.company_id`) and the serving role are set by the transaction's first
 *   statement, before anything the caller sends;
 * - both are `SET LOCAL`: they end with the transaction, so the next transaction on the
 *   same pooled connection starts without them;
 * - the serving role is neither superuser nor `BYPASSRLS` nor the owner of a table under
 *   row-level security: the books tables' policy (migrations/rls.ts) then shows and accepts
 *   only the company's rows, even for a query without any `where`.
 *
 * Which role serves: when the database URL's user is a superuser, may bypass row-level
 * security or owns a table under it (development, tests, the embedded database, a URL of
 * the schema's owner), each tenant transaction switches to `ledger_app` (`SET LOCAL ROLE`,
 * created by migration 001, `NOLOGIN`, granted the table rights); when the URL's user is
 * already a plain role, it serves as itself. `servingRole` decides once per database (the
 * start calls it, so a set-up where the serving role could bypass row-level security
 * refuses to start, naming the role). Only knex's documented transaction API and plain
 * statements are used: the settings are the transaction's first statement.
 */
import type { Knex } from 'knex';
import type pg from 'pg';

/** The role tenant transactions switch to when the URL's user could bypass row-level security. */
export const APP_ROLE = 'ledger_app';

/**
 * A tenant transaction's guard found that what the caller was authenticated with changed
 * (withTenant's `guard`): the transaction was rolled back before anything ran in it.
 */
export class TenantGuardFailed extends Error {
  override name = 'TenantGuardFailed';
  constructor() {
    super('the credential changed since it was read');
  }
}

/** The set-up lets a tenant transaction's role bypass row-level security (or cannot switch): the start refuses. */
export class UnsafeServingRole extends Error {
  override name = 'UnsafeServingRole';
}

/** How a database's tenant transactions run: the role switched to (null: the URL's user serves as itself). */
export interface ServingRole {
  /** the role the tenant transactions run as */
  role: string;
  /** `SET LOCAL ROLE` to `role` in each tenant transaction (the URL's user could bypass row-level security) */
  switched: boolean;
}

interface RoleRow {
  role: string;
  superuser: boolean;
  bypass: boolean;
  /** owns a table with row-level security enabled */
  owns_rls: boolean;
  /** owns a table with row-level security enabled but not forced (the owner is exempt) */
  owns_unforced: boolean;
  member: boolean;
}

const ROLE_SQL = `select r.rolname as role, r.rolsuper as superuser, r.rolbypassrls as bypass,
    exists (select 1 from pg_class c where c.relowner = r.oid and c.relrowsecurity) as owns_rls,
    exists (select 1 from pg_class c where c.relowner = r.oid and c.relrowsecurity
              and not c.relforcerowsecurity) as owns_unforced,
    pg_has_role(current_user, r.oid, 'MEMBER') as member
  from pg_roles r where r.rolname = ?`;

/** Why `row` could bypass row-level security (empty: it cannot). */
function bypassReasons(row: RoleRow): string[] {
  const reasons: string[] = [];
  if (row.superuser) reasons.push('is a superuser');
  if (row.bypass) reasons.push('has BYPASSRLS');
  if (row.owns_unforced) reasons.push('owns a table whose row-level security is not forced');
  return reasons;
}

const decided = new WeakMap<object, Promise<ServingRole>>();

/**
 * The role `db`'s tenant transactions run as, decided once per database (its knex config)
 * from the catalog; rejects with UnsafeServingRole, naming the role, when that role could
 * bypass row-level security or the URL's user cannot switch to it.
 */
export function servingRole(db: Knex): Promise<ServingRole> {
  const key = db.client.config as object;
  let role = decided.get(key);
  if (!role) {
    role = decideServingRole(db);
    // a failed decision (database not reachable yet) is not kept: the next transaction asks again
    role.catch(() => decided.delete(key));
    decided.set(key, role);
  }
  return role;
}

async function roleRow(db: Knex, name: string): Promise<RoleRow | undefined> {
  const { rows } = await db.raw<{ rows: RoleRow[] }>(ROLE_SQL, [name]);
  return rows[0];
}

async function decideServingRole(db: Knex): Promise<ServingRole> {
  const { rows } = await db.raw<{ rows: { user: string }[] }>('select current_user as "user"');
  const user = rows[0]!.user;
  const own = (await roleRow(db, user))!;
  if (bypassReasons(own).length === 0 && !own.owns_rls) return { role: user, switched: false };
  const app = await roleRow(db, APP_ROLE);
  if (!app) {
    throw new UnsafeServingRole(
      `role "${user}" could bypass row-level security and role "${APP_ROLE}" does not exist: run the migrations, ` +
        'or connect as a role that is neither superuser, BYPASSRLS nor owner of the tables',
    );
  }
  const reasons = bypassReasons(app);
  if (reasons.length > 0) {
    throw new UnsafeServingRole(
      `role "${APP_ROLE}", which the ledger's requests run as, ${reasons.join(' and ')}: it would bypass ` +
        'row-level security; the ledger does not start',
    );
  }
  if (!app.member) {
    throw new UnsafeServingRole(
      `role "${user}" could bypass row-level security and may not switch to role "${APP_ROLE}": ` +
        `grant ${APP_ROLE} to ${user}, or connect as a role that is neither superuser, BYPASSRLS nor owner`,
    );
  }
  return { role: APP_ROLE, switched: true };
}

/** The statement that opens a tenant transaction (the id is checked to be an integer: only digits reach the text). */
function settingsSql(companyId: number, role: ServingRole): string {
  if (!Number.isSafeInteger(companyId)) throw new Error(`withTenant: company id ${companyId} is not an integer`);
  const company = `set local app.company_id = '${companyId}'`;
  return role.switched ? `${company}; set local role ${APP_ROLE}` : company;
}

/**
 * Makes an open transaction of `db` a tenant transaction of one company from here on (the
 * company's own settings and the serving role), for a transaction that first wrote outside
 * any company: creating a company, whose books rows follow its `companies` row.
 */
export async function enterTenant(tx: Knex.Transaction, companyId: number): Promise<void> {
  // decided on the transaction's own connection (a transaction shares its database's config, the decision's key)
  await tx.raw(settingsSql(companyId, await servingRole(tx)));
}

/** pg's answer to a simple query of several statements: one result per statement. */
type Results = { rows?: { unchanged?: boolean }[] }[];

/** The pooled connection a tenant transaction runs on: pg's client (knex's pool hands out pg clients). */
type Connection = pg.ClientBase;

/** One tenant transaction: open until its COMMIT or ROLLBACK is sent. */
interface Lease {
  open: boolean;
  /** savepoints made so far (their names) */
  savepoints: number;
  /** the last savepoint's run: a savepoint begins when the one before it ended, as knex's nested transactions do */
  last: Promise<unknown>;
}

class TransactionOver extends Error {
  override name = 'TransactionOver';
  constructor() {
    super('the tenant transaction is over: its statements cannot run any more');
  }
}

/**
 * The transaction's connection as its statements are given it (knex's documented
 * `.connection()`): pg's client itself for everything but `query`, which refuses once the
 * transaction is over. So a statement built inside the transaction and run after it fails, as
 * on a finished knex transaction, instead of running outside any company or inside the next
 * transaction on the same pooled connection.
 */
function leasedConnection(connection: Connection, lease: Lease): Connection {
  const leased = Object.create(connection) as Connection;
  const query = (...args: unknown[]): unknown => {
    if (lease.open) return (connection.query as (...a: unknown[]) => unknown)(...args);
    const callback = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
    if (!callback) return Promise.reject(new TransactionOver());
    callback(new TransactionOver());
    return undefined;
  };
  Object.defineProperty(leased, 'query', { value: query });
  return leased;
}

/**
 * What the caller of one tenant transaction gets: the database's own knex instance, every
 * statement it builds bound to the transaction's connection (`.connection()`, documented for
 * query builders and raw statements) — the same builders, types and prepared statements as
 * anywhere. Its client hands out that connection (the job queue sends its SQL on it); its
 * `transaction()` is a savepoint, as a knex transaction's is (the idempotent write and a few
 * services undo a part of the request that way), one after the other. Valid for this
 * transaction only: once it is over, every use of a kept reference throws.
 */
function transactionView(db: Knex, connection: Connection, lease: Lease): Knex.Transaction {
  const bound = leasedConnection(connection, lease);
  const savepoint = <T>(fn: (sp: Knex.Transaction) => Promise<T> | T): Promise<T> => {
    const name = `sp_${++lease.savepoints}`;
    const run = async (): Promise<T> => {
      await view.raw(`savepoint ${name}`);
      try {
        const value = await fn(view);
        await view.raw(`release savepoint ${name}`);
        return value;
      } catch (e) {
        await view.raw(`rollback to savepoint ${name}`);
        throw e;
      }
    };
    const result = lease.last.then(run, run);
    lease.last = result.catch(() => undefined);
    return result;
  };
  const raw = (...args: Parameters<Knex['raw']>) => db.raw(...args).connection(bound);
  const queryBuilder = () => db.queryBuilder().connection(bound);
  let client: Knex.Client | undefined;
  const clientView = () => {
    client ??= new Proxy(db.client, {
      get(target, prop) {
        if (prop === 'acquireConnection') return () => Promise.resolve(bound);
        if (prop === 'releaseConnection') return () => Promise.resolve();
        return Reflect.get(target, prop) as unknown;
      },
    });
    return client;
  };
  const view = new Proxy(db, {
    get(target, prop) {
      if (!lease.open) throw new TransactionOver();
      switch (prop) {
        case 'raw':
          return raw;
        // the knex instance's own query methods (select, insert, with, …) start from queryBuilder()
        case 'queryBuilder':
          return queryBuilder;
        case 'client':
          return clientView();
        case 'transaction':
        case 'savepoint':
          return savepoint;
        case 'isTransaction':
          return true;
        default:
          return Reflect.get(target, prop) as unknown;
      }
    },
    apply(target, _this, args: Parameters<Knex>) {
      if (!lease.open) throw new TransactionOver();
      return Reflect.apply(target, target, args).connection(bound);
    },
  }) as unknown as Knex.Transaction;
  transactionConnections.set(view, bound);
  return view;
}

/** Each tenant transaction's knex (transactionView) and the connection its statements run on. */
const transactionConnections = new WeakMap<object, Connection>();

/**
 * The connection of a tenant transaction's knex (undefined for anything else): its statements
 * may go there straight through pg (knex.ts `preparedQuery`); it refuses once the transaction
 * is over, as the knex does.
 */
export function connectionOf(executor: Knex): Connection | undefined {
  return transactionConnections.get(executor);
}

/**
 * Runs `fn` in one transaction scoped to one company: the transaction opens with its settings
 * — `app.company_id` and, where needed, the serving role (servingRole) — so every books table
 * only shows that company's rows whatever the queries say. Both settings end with the
 * transaction.
 *
 * How it is sent: `BEGIN`, the settings and the guard (below) go as one simple query on a
 * connection of the database's pool — one round trip, where knex's own transaction sends its
 * `BEGIN` alone — and `COMMIT` (or `ROLLBACK`) as one more; `fn`'s statements run in between
 * on that connection, through a knex instance of its own (`transactionKnex`). knex is used only
 * through what it documents: its client's pool (`acquireConnection`, `releaseConnection`) and a
 * knex instance over an existing pool (`connectionPool`).
 */
export async function withTenant<T>(
  db: Knex,
  companyId: number,
  fn: (tx: Knex.Transaction) => Promise<T>,
  /**
   * A statement returning one row with a boolean `unchanged`, sent with the settings in the
   * transaction's first message (a literal text: only ids and versions inlined): when it
   * says false, the transaction is rolled back and this rejects with TenantGuardFailed before
   * `fn` runs. The API-key cache uses it to check a remembered key without a round trip of
   * its own (kernel/auth.ts).
   */
  guard?: string,
): Promise<T> {
  const role = await servingRole(db);
  const settings = settingsSql(companyId, role);
  const first = guard === undefined ? `begin; ${settings}` : `begin; ${settings}; ${guard}`;
  const connection = (await db.client.acquireConnection()) as Connection;
  const counted = db.listenerCount('query') > 0;
  const send = (sql: string) => {
    if (counted) db.emit('query', { sql });
    // no bindings: pg sends the text as one simple query, its statements in one round trip
    return connection.query(sql) as unknown as Promise<Results>;
  };
  const lease: Lease = { open: true, savepoints: 0, last: Promise.resolve() };
  let begun = false;
  try {
    const results = await send(first);
    begun = true;
    if (guard !== undefined && results[results.length - 1]?.rows?.[0]?.unchanged !== true) {
      throw new TenantGuardFailed();
    }
    const value = await fn(transactionView(db, connection, lease));
    lease.open = false;
    await send('commit');
    return value;
  } catch (e) {
    lease.open = false;
    // a failed first message (a broken connection) leaves no transaction to roll back
    if (begun) await send('rollback').catch(() => undefined);
    throw e;
  } finally {
    lease.open = false;
    await db.client.releaseConnection(connection);
  }
}
