/**
 * The tenant transaction: every query a request (or a worker acting for one company) sends
 * runs in one transaction that is scoped to one company and runs as a role that row-level
 * security applies to.
 *
 * Why a module of its own: tenancy must hold by construction, not because some code path
 * remembered it. What it guarantees (its contract test, `tenantTransaction.test.ts`):
 *
 * - the company (`app.company_id`) and the serving role are set by the message that opens the
 *   transaction (`BEGIN` and the settings), before anything the caller sends — in the same
 *   message as its first statement, or just before it;
 * - a statement of the caller's runs only inside the transaction: once it is over (or its
 *   guard failed) every statement is refused, also one built inside and run after;
 * - both are `SET LOCAL`: they end with the transaction, so the next transaction on the
 *   same pooled connection starts without them;
 * - a connection goes back to the pool only outside any transaction: one that broke is dropped
 *   by knex's pool, one the server still reports inside a transaction (a ROLLBACK that went
 *   unanswered) is closed first (else the next request's COMMIT would commit this one's writes);
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
 * refuses to start, naming the role).
 *
 * How it is sent (issue 37: a bill's CPU): the transaction is the ledger's own on a connection
 * of knex's pool, not a knex transaction — BEGIN and the settings ride with the caller's first
 * statement, COMMIT follows the last — and the caller's statements are knex's, bound to that
 * connection by knex's documented `.connection()`. Nothing of knex or pg is patched.
 */
import type { Knex } from 'knex';
import pg from 'pg';
import { sqlLiteral } from './sqlLiteral.ts';

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

/**
 * Thrown by `fn` of a closable tenant transaction after its closing statement (`sendClosing`)
 * committed the transaction without doing its work — a document number taken meanwhile by
 * another writer: the statement wrote nothing but the number it used up. withTenant then runs
 * `fn` again in a new transaction (at most MAX_RUNS times), as the statement's caller would
 * have tried again inside the transaction had it not committed.
 */
export class RunAgain extends Error {
  override name = 'RunAgain';
  constructor(message = 'the closing statement committed without its work: the transaction runs again') {
    super(message);
  }
}

/**
 * The SQLSTATEs of `ledger_check` (migration 047) this module reads: a statement that fails with
 * one of them stops the rest of its message (`COMMIT` included), where answering false would not.
 * `GUARD_CHANGED`: a remembered key's guard, where the opening goes in one message with the closing
 * statement. `STALE_READ`: a caller's own check that what it computed from was still so (the rule
 * snapshot a bill was computed against, remembered between requests: modules/arap); the
 * transaction is rolled back and, where its owner allows a run again, run again.
 */
export const CHECK_CODES = { guardChanged: 'LG001', staleRead: 'LG002' } as const;

/** An SQL expression true when `condition` is, else failing the statement with STALE_READ (see CHECK_CODES). */
export function staleReadCheck(condition: string): string {
  return `ledger_check(${condition}, '${CHECK_CODES.staleRead}')`;
}

/** The SQLSTATE of an error Postgres sent, if it is one. */
const sqlStateOf = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;

/** How often a closable transaction's `fn` runs at most (RunAgain); a document number used by hand is rare. */
const MAX_RUNS = 100;

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
type Connection = pg.Client;

/** A query's arguments as pg's `query` takes them: a text or config, values, and maybe a callback. */
type QueryArgs = unknown[];

class TransactionOver extends Error {
  override name = 'TransactionOver';
  constructor() {
    super('the tenant transaction is over: its statements cannot run any more');
  }
}

/** The names of the statements prepared on each pooled connection so far (pg prepares a name on its first use). */
const preparedOn = new WeakMap<Connection, Set<string>>();

/**
 * One tenant transaction on its connection: the message that opens it (BEGIN, the settings,
 * the guard), sent with the transaction's first statement when that is a prepared hot
 * statement (`sendPrepared`: `EXECUTE` with its values as literals, in the same simple query),
 * else alone just before the first statement; then the statements; then COMMIT or ROLLBACK.
 */
class TenantTransaction {
  /** false once COMMIT or ROLLBACK is sent: every statement is refused from then on */
  open = true;
  /** the opening message while it is not sent yet */
  private opening: string | undefined;
  /** the opening's answer (guard checked), once it is sent */
  private opened: Promise<void> | undefined;
  /** the guard said the credential changed */
  guardFailed = false;
  /** savepoints made so far (their names) */
  savepoints = 0;
  /** savepoints begun and not yet released or rolled back */
  openSavepoints = 0;
  /**
   * A statement of fn's may commit the transaction in its own message (sendClosing): the owner
   * said so (withTenant's `closable`) and nothing since said otherwise (keepOpen).
   */
  closable: boolean;
  /** the owner lets `fn` run again in a new transaction (withTenant's `closable`; keepOpen does not change it) */
  readonly rerunnable: boolean;
  /** committed by fn's closing statement: withTenant sends no COMMIT */
  closed = false;
  /** a statement failed its caller's STALE_READ check: rolled back, and run again where the owner allows it */
  stale = false;
  private readonly prepared: Set<string>;

  constructor(
    private readonly db: Knex,
    readonly connection: Connection,
    opening: string,
    /** the opening whose guard fails the message instead of answering false (sendClosing's one message) */
    private readonly checkingOpening: string,
    readonly guarded: boolean,
    private readonly guardHeld?: () => void,
    closable = false,
  ) {
    this.closable = closable;
    this.rerunnable = closable;
    this.opening = opening;
    let names = preparedOn.get(connection);
    if (!names) {
      names = new Set();
      preparedOn.set(connection, names);
    }
    this.prepared = names;
  }

  /** Whether anything was sent on the connection yet (else there is no transaction to commit or roll back). */
  get begun(): boolean {
    return this.opening === undefined;
  }

  /** Sends a text as one simple query, reported to the database's `query` listeners (as `shown`, if given). */
  send(sql: string, shown = sql): Promise<Results> {
    if (this.db.listenerCount('query') > 0) this.db.emit('query', { sql: shown });
    // no bindings: pg sends the text as one simple query, its statements in one round trip
    return this.connection.query(sql) as unknown as Promise<Results>;
  }

  /** The guard's answer in a simple query's results (`at` statements from the end). */
  private checkGuard(results: Results, at: number): void {
    if (!this.guarded) return;
    if (results[results.length - at]?.rows?.[0]?.unchanged !== true) {
      this.guardFailed = true;
      throw new TenantGuardFailed();
    }
    this.guardHeld?.();
  }

  /** Sends the opening alone unless it was sent; resolves once it was answered and its guard holds. */
  openAlone(): Promise<void> {
    if (this.opened) return this.opened;
    const opening = this.opening!;
    this.opening = undefined;
    this.opened = this.send(opening).then((results) => this.checkGuard(results, 1));
    return this.opened;
  }

  /** Whether nothing was sent yet: the opening may still go in one message with a closing statement. */
  get unopened(): boolean {
    return this.opening !== undefined && this.opened === undefined;
  }

  /**
   * Sends the opening, `EXECUTE` of a prepared statement and `COMMIT` as one message, the opening's
   * guard failing the message (`checkingOpening`) rather than answering false: a whole request's
   * transaction in one round trip. Returns the statement's result; the transaction is over.
   */
  async sendWhole(execute: string, shown: string): Promise<unknown> {
    this.opening = undefined;
    this.open = false;
    let results: Results;
    try {
      results = await this.send(
        `${this.checkingOpening}; ${execute}; commit`,
        `${this.checkingOpening}; ${shown}; commit`,
      );
    } catch (e) {
      this.opened = Promise.resolve();
      const state = sqlStateOf(e);
      if (state === CHECK_CODES.guardChanged) {
        this.guardFailed = true;
        throw new TenantGuardFailed();
      }
      // the guard comes before the statement in the message: the statement's own check failing means it held
      if (state === CHECK_CODES.staleRead && this.guarded) this.guardHeld?.();
      throw this.staleOr(e);
    }
    this.opened = Promise.resolve();
    if (this.guarded) this.guardHeld?.();
    this.closed = true;
    return results[results.length - 2];
  }

  /** A statement's failure as the caller sees it: a failed STALE_READ check is a run again (rolled back first). */
  staleOr(e: unknown): unknown {
    if (sqlStateOf(e) !== CHECK_CODES.staleRead) return e;
    this.stale = true;
    return new RunAgain('a statement found what it was computed from changed: the transaction runs again');
  }

  /** Whether the named statement is prepared on this transaction's connection. */
  isPrepared(name: string): boolean {
    return this.prepared.has(name);
  }

  /** Why a statement may not run now (the transaction is over, or its guard failed), if so. */
  refusal(): Error | undefined {
    if (!this.open) return new TransactionOver();
    if (this.guardFailed) return new TenantGuardFailed();
    return undefined;
  }

  /** pg's `query` for the transaction's statements (knex's, the job queue's): opened first, refused once over. */
  query(args: QueryArgs): unknown {
    const callback = args.find((a) => typeof a === 'function') as ((e: Error | null) => void) | undefined;
    const refused = this.refusal();
    if (refused) {
      if (!callback) return Promise.reject(refused);
      callback(refused);
      return undefined;
    }
    const run = () => (this.connection.query as (...a: QueryArgs) => unknown)(...args);
    if (this.opened === undefined && this.opening === undefined) return run();
    const opened = this.openAlone().then(() => {
      const refusedNow = this.refusal();
      if (refusedNow) throw refusedNow;
    });
    if (!callback) return opened.then(run);
    opened.then(run, (e: Error) => callback(e));
    return undefined;
  }

  /**
   * A prepared hot statement (knex.ts `preparedQuery`): with the opening in one simple query
   * when it is the transaction's first statement and already prepared on this connection
   * (`EXECUTE`, its values as literals: `literalsOf`), else through pg's extended protocol.
   */
  async sendPrepared(name: string | undefined, text: string, values: readonly unknown[]): Promise<unknown> {
    const refused = this.refusal();
    if (refused) throw refused;
    if (this.opening !== undefined && name !== undefined && this.prepared.has(name)) {
      const literals = literalsOf(values);
      if (literals !== undefined) {
        const opening = this.opening;
        this.opening = undefined;
        if (this.db.listenerCount('query') > 0) this.db.emit('query', { sql: `${opening}; execute ${name}(…)` });
        const sent = this.connection.query(`${opening}; execute ${name}(${literals})`) as unknown as Promise<Results>;
        this.opened = sent.then((results) => this.checkGuard(results, 2));
        try {
          await this.opened;
        } catch (e) {
          // the statement failed (its message's answers are lost, the guard's too: a run again checks it again)
          throw this.staleOr(e);
        }
        const results = await sent;
        return results[results.length - 1];
      }
    }
    if (this.opening !== undefined || this.opened !== undefined) await this.openAlone();
    const again = this.refusal();
    if (again) throw again;
    if (this.db.listenerCount('query') > 0) this.db.emit('query', { sql: text, bindings: values });
    const config = name === undefined ? { text, values: [...values] } : { name, text, values: [...values] };
    let result: unknown;
    try {
      result = await this.connection.query(config);
    } catch (e) {
      throw this.staleOr(e);
    }
    if (name !== undefined) this.prepared.add(name);
    return result;
  }
}

/**
 * The closing statement of a closable transaction: a prepared hot statement sent with `COMMIT`
 * in one simple query (`EXECUTE` with its values as literals, then `COMMIT`), one message and
 * one round trip fewer than the statement and `COMMIT` apart. From then on the transaction is
 * over (every statement is refused) and withTenant sends no COMMIT; when the statement fails,
 * Postgres skips the COMMIT and withTenant rolls back as for any error. Sent as an ordinary
 * prepared statement (`closed: false`, the transaction goes on) unless the transaction may close
 * here: closable, through its own view (not a savepoint's, none open), the opening already
 * answered (a remembered key's guard must hold before anything can commit), the statement
 * already prepared on the connection and its values writable as literals.
 */
async function sendClosing(
  t: TenantTransaction,
  top: boolean,
  name: string | undefined,
  text: string,
  values: readonly unknown[],
): Promise<{ result: unknown; closed: boolean }> {
  const literals =
    t.closable && top && t.openSavepoints === 0 && name !== undefined && t.isPrepared(name)
      ? literalsOf(values)
      : undefined;
  if (literals === undefined) return { result: await t.sendPrepared(name, text, values), closed: false };
  const refusedFirst = t.refusal();
  if (refusedFirst) throw refusedFirst;
  // nothing sent yet: the whole transaction in one message, a remembered key's guard failing it before the commit
  if (t.unopened)
    return { result: await t.sendWhole(`execute ${name}(${literals})`, `execute ${name}(…)`), closed: true };
  // else the opening answered first (a remembered key's guard holds before anything commits)
  await t.openAlone();
  const refused = t.refusal();
  if (refused) throw refused;
  t.open = false;
  let results: Results;
  try {
    results = await t.send(`execute ${name}(${literals}); commit`, `execute ${name}(…); commit`);
  } catch (e) {
    throw t.staleOr(e);
  }
  t.closed = true;
  return { result: results[0], closed: true };
}

/**
 * pg's own conversion of a parameter to the text it sends (dates in the time zone pg uses, arrays
 * as array literals, objects as JSON): exported by pg as `utils.prepareValue`, which its type
 * declarations leave out.
 */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;

/**
 * A statement's values as SQL literals for `EXECUTE` (untyped: Postgres gives each the type of
 * its parameter, as for a value sent apart), or undefined when one is binary (a Buffer goes
 * through the extended protocol as bytes). Each is the text pg itself would send for it
 * (`prepareValue`), quoted as pg's `escapeLiteral` quotes it (sqlLiteral.ts).
 */
function literalsOf(values: readonly unknown[]): string | undefined {
  const out: string[] = [];
  for (const v of values) {
    if (v === null || v === undefined) {
      out.push('null');
      continue;
    }
    if (typeof v === 'object' && ArrayBuffer.isView(v)) return undefined;
    const text = prepareValue(v);
    if (text === null) out.push('null');
    else if (typeof text === 'string') out.push(sqlLiteral(text));
    else return undefined;
  }
  return out.join(', ');
}

/**
 * The transaction's connection as its statements are given it (knex's documented
 * `.connection()`): pg's client itself for everything but `query`, which opens the transaction
 * first when nothing was sent yet, and refuses once it is over. So a statement built inside the
 * transaction and run after it fails, as on a finished knex transaction, instead of running
 * outside any company or inside the next transaction on the same pooled connection.
 */
function leasedConnection(t: TenantTransaction): Connection {
  const leased = Object.create(t.connection) as Connection;
  Object.defineProperty(leased, 'query', { value: (...args: QueryArgs) => t.query(args) });
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
function transactionView(db: Knex, t: TenantTransaction, bound = leasedConnection(t)): Knex.Transaction {
  // the savepoints made on this view begin one after the other, as knex's sibling transactions do; one made
  // inside a savepoint is on the savepoint's own view, so it never waits for the one it is in
  let lastSavepoint: Promise<unknown> = Promise.resolve();
  const savepoint = <T>(fn: (sp: Knex.Transaction) => Promise<T> | T): Promise<T> => {
    const run = async (): Promise<T> => {
      const name = `sp_${++t.savepoints}`;
      const inner = transactionView(db, t, bound);
      t.openSavepoints++;
      try {
        await view.raw(`savepoint ${name}`);
        try {
          const value = await fn(inner);
          await view.raw(`release savepoint ${name}`);
          return value;
        } catch (e) {
          await view.raw(`rollback to savepoint ${name}`);
          throw e;
        }
      } finally {
        t.openSavepoints--;
      }
    };
    const result = lastSavepoint.then(run, run);
    lastSavepoint = result.catch(() => undefined);
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
      if (!t.open) throw new TransactionOver();
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
      if (!t.open) throw new TransactionOver();
      return Reflect.apply(target, target, args).connection(bound);
    },
  }) as unknown as Knex.Transaction;
  transactions.set(view, t);
  return view;
}

/** Each tenant transaction's knex (transactionView) and its transaction. */
const transactions = new WeakMap<object, TenantTransaction>();

/**
 * Sends a prepared hot statement (knex.ts `preparedQuery`) in the tenant transaction whose
 * knex `executor` is — with the transaction's opening when it is the first statement — or
 * undefined when `executor` is no tenant transaction's (the caller sends it through knex).
 */
export function sendPrepared(
  executor: Knex,
  name: string | undefined,
  text: string,
  values: readonly unknown[],
): Promise<unknown> | undefined {
  return transactions.get(executor)?.sendPrepared(name, text, values);
}

/** The views withTenant hands to its `fn` (a savepoint's view is not one): only these may close the transaction. */
const topViews = new WeakSet<object>();

/**
 * Sends a hot statement as the closing statement of the tenant transaction whose knex
 * `executor` is (sendClosing: with COMMIT in one message when the transaction may close there,
 * `closed` says whether it did), or undefined when `executor` is no tenant transaction's (the
 * caller sends it through knex).
 */
export function sendClosingStatement(
  executor: Knex,
  name: string | undefined,
  text: string,
  values: readonly unknown[],
): Promise<{ result: unknown; closed: boolean }> | undefined {
  const t = transactions.get(executor);
  return t && sendClosing(t, topViews.has(executor), name, text, values);
}

/**
 * Keeps the tenant transaction of `executor` from being committed by a closing statement: for a
 * caller that checks or writes something after the statements it calls (the confirmation of an
 * assistant's write is checked after the write), or wrote something a run again would repeat.
 */
export function keepOpen(executor: Knex): void {
  const t = transactions.get(executor);
  if (t) t.closable = false;
}

/**
 * Whether a statement of `executor`'s tenant transaction that fails a STALE_READ check
 * (`staleReadCheck`) makes the transaction run again rather than fail: its owner allows a run
 * again (withTenant's `closable`) and `executor` is the transaction's own view, outside any
 * savepoint. A caller that sends what it computed from something remembered checks this first.
 */
export function mayRunAgain(executor: Knex): boolean {
  const t = transactions.get(executor);
  return t?.rerunnable === true && t.open && topViews.has(executor) && t.openSavepoints === 0;
}

/** What else withTenant does besides running `fn` in the company's transaction. */
export interface TenantOptions {
  /**
   * A statement returning one row with a boolean `unchanged`, sent in the transaction's
   * opening message (a literal text: only ids and versions inlined): when it says false, the
   * transaction is rolled back and withTenant rejects with TenantGuardFailed. `fn` may have begun by
   * then, but none of its statements ran outside the rolled-back transaction and none after the
   * opening (they are refused); when `fn` fails before its first statement, the guard is checked
   * before its error is passed on. The API-key cache uses it to check a remembered key without
   * a round trip of its own (kernel/auth.ts).
   */
  guard?: string;
  /** called once the guard held (the opening was answered), whatever `fn` does after */
  guardHeld?: () => void;
  /**
   * `fn`'s last statement may commit the transaction in its own message (sendClosingStatement),
   * and `fn` may be run again in a new transaction when it asks to (RunAgain): for an owner that
   * sends nothing after `fn` and whose `fn` can run again (the request's transaction stage).
   */
  closable?: boolean;
}

/**
 * Runs `fn` in one transaction scoped to one company: the transaction opens with its settings
 * — `app.company_id` and, where needed, the serving role (servingRole) — so every books table
 * only shows that company's rows whatever the queries say. Both settings end with the
 * transaction.
 *
 * How it is sent, on a connection of knex's pool (`acquireConnection`, `releaseConnection`):
 * `BEGIN`, the settings and the guard (below) as one simple query, together with `fn`'s first
 * statement when that is a prepared hot statement (`sendPrepared`), else alone just before it;
 * `fn`'s statements (knex's, bound to the connection by its documented `.connection()`); then
 * `COMMIT` (or `ROLLBACK`) — or, in a `closable` transaction, `COMMIT` with `fn`'s closing
 * statement. A transaction whose `fn` sends nothing, without a guard, sends nothing at all. No
 * knex transaction is opened, and nothing of knex is patched.
 */
export async function withTenant<T>(
  db: Knex,
  companyId: number,
  fn: (tx: Knex.Transaction) => Promise<T>,
  options: TenantOptions = {},
): Promise<T> {
  // its BEGIN and COMMIT would end the transaction it was opened in
  if (transactions.has(db)) throw new Error('withTenant: called with a tenant transaction, not the database');
  const role = await servingRole(db);
  const settings = settingsSql(companyId, role);
  let held = false;
  const guardHeld = () => {
    held = true;
    options.guardHeld?.();
  };
  for (let run = 1; ; run++) {
    // a run again checks the guard only until it held once (a run after a commit always follows one that held)
    const guard = held ? undefined : options.guard;
    try {
      return await runTenant(db, settings, fn, guard, guardHeld, options.closable === true);
    } catch (e) {
      if (!(e instanceof RunAgain) || run >= MAX_RUNS) throw e;
    }
  }
}

/** One run of withTenant's transaction on a connection of knex's pool. */
async function runTenant<T>(
  db: Knex,
  settings: string,
  fn: (tx: Knex.Transaction) => Promise<T>,
  guard: string | undefined,
  guardHeld: (() => void) | undefined,
  closable: boolean,
): Promise<T> {
  const opening = guard === undefined ? `begin; ${settings}` : `begin; ${settings}; ${guard}`;
  const checkingOpening =
    guard === undefined
      ? opening
      : `begin; ${settings}; select ledger_check((select g.unchanged from (${guard}) g), ` +
        `'${CHECK_CODES.guardChanged}')`;
  const connection = (await db.client.acquireConnection()) as Connection;
  const t = new TenantTransaction(db, connection, opening, checkingOpening, guard !== undefined, guardHeld, closable);
  let unsure = false;
  try {
    const view = transactionView(db, t);
    topViews.add(view);
    const value = await fn(view);
    if (t.guardFailed) throw new TenantGuardFailed();
    // nothing sent: only a guard to check (and nothing to commit)
    if (!t.begun && guard !== undefined) await t.openAlone();
    t.open = false;
    if (t.begun && !t.closed) await t.send('commit');
    return value;
  } catch (caught) {
    // a run again is asked only after a closing statement committed: otherwise a mistake, rolled back as any error
    const e =
      caught instanceof RunAgain && !t.closed && !t.stale
        ? new Error('RunAgain without a closing statement that committed')
        : caught instanceof RunAgain && t.stale && !t.rerunnable
          ? new Error('a stale read in a transaction its owner does not run again')
          : caught;
    // refused before its first statement: a remembered key's refusal is never final unchecked
    if (!t.begun && guard !== undefined && !(e instanceof TenantGuardFailed))
      await t.openAlone().catch(() => undefined);
    t.open = false;
    if (t.begun && !t.closed) await t.send('rollback').catch(() => (unsure = true));
    if (t.guardFailed) throw new TenantGuardFailed();
    throw e;
  } finally {
    t.open = false;
    // a connection still inside a transaction by the server's own last word (ReadyForQuery's status, pg's
    // getTransactionStatus: a ROLLBACK that went unanswered, a closing statement whose COMMIT was not reached,
    // anything else left open) is closed (pg's `end`; knex's pool then drops it, as it drops one that broke)
    // rather than handed to the next request, whose COMMIT would commit this one's writes (and on the embedded
    // database, which serves only the connection inside a transaction, would stall every other connection)
    const status = connection.getTransactionStatus();
    if (unsure || (status !== null && status !== 'I')) await connection.end().catch(() => undefined);
    await db.client.releaseConnection(connection);
  }
}
