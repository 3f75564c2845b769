/**
 * Connections: at most one active per person × company × client (connecting the same app
 * again replaces it; more access means connecting again), with hashed access and refresh
 * tokens and a last-used time. States: active → ended, and ended is final. This module is also the interface for the
 * MCP endpoint: `resolveAccessToken` turns a Bearer token into an active connection after the lifecycle checks (the
 * person still an active owner/admin, AI connections on, used within 90 days).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isConnectionRefusal } from '@ledger/shared';
import { isUniqueViolation, ms, type Db } from '../db/knex.ts';
import { preparedQuery } from '../db/preparedQuery.ts';
import type { ConnectionsRow, Int8 } from '../db/tables.ts';
import { LedgerUnavailableError, type LedgerClient } from '../ledgerClient.ts';
import type { Logger } from '../logger.ts';
import { LIFETIME } from './lifetimes.ts';
import { END_REASON_TEXT, liveness, standingRefusal, type EndReason, type PresentedToken } from './liveness.ts';
import { hashSecret, looksLike, newSecret, PREFIX, sameString } from './secrets.ts';

/** An active connection as the MCP endpoint sees it. */
export interface ActiveConnection {
  id: string;
  userId: number;
  dataset: string;
  /** the MCP URL (OAuth resource) the tokens were issued for */
  resource: string;
  scopes: string[];
  clientName: string;
}

export type InvalidReason = 'unknown' | 'expired' | 'revoked' | 'ended' | 'unavailable';

export type TokenResolution =
  | { ok: true; connection: ActiveConnection }
  | { ok: false; reason: InvalidReason; description: string };

export { END_REASON_TEXT, type EndReason } from './liveness.ts';

/**
 * A connection as the gateway works with it: the table's row (db/tables.ts) with its numbers
 * read (milliseconds, ids) and its state and end reason narrowed; `replaced_by` names the
 * connection that replaced this one (end_reason 'replaced').
 */
export type ConnectionRow = Omit<
  ConnectionsRow,
  'user_id' | 'state' | 'end_reason' | 'created_at' | 'last_used_at' | 'ended_at'
> & {
  user_id: number;
  state: 'active' | 'ended';
  end_reason: EndReason | null;
  created_at: number;
  last_used_at: number;
  ended_at: number | null;
};

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface NewConnection {
  userId: number;
  userName: string;
  userEmail: string;
  dataset: string;
  resource: string;
  clientId: string;
  clientName: string;
  verifiedHost: string | null;
  scopes: string[];
}

const isEndReason = (v: string): v is EndReason => Object.hasOwn(END_REASON_TEXT, v);

function toRow(r: ConnectionsRow): ConnectionRow {
  return {
    ...r,
    user_id: Number(r.user_id),
    state: r.state === 'active' ? 'active' : 'ended',
    end_reason: r.end_reason !== null && isEndReason(r.end_reason) ? r.end_reason : null,
    created_at: ms(r.created_at),
    last_used_at: ms(r.last_used_at),
    ended_at: r.ended_at == null ? null : ms(r.ended_at),
  };
}

function endedResolution(reason: EndReason | null): TokenResolution {
  const revoked = ['disconnected_by_person', 'disconnected_by_admin', 'revoked'].includes(reason ?? '');
  return {
    ok: false,
    reason: revoked ? 'revoked' : 'ended',
    description: `The connection has ended: ${END_REASON_TEXT[reason ?? 'revoked']}.`,
  };
}

export function toActive(row: ConnectionRow): ActiveConnection {
  return {
    id: row.id,
    userId: row.user_id,
    dataset: row.dataset,
    resource: row.resource,
    scopes: row.scopes.split(' ').filter(Boolean),
    clientName: row.client_name,
  };
}

/**
 * How far back the AI-connections pages show ended connections (why each ended, e.g.
 * replaced when the app was connected again): the person and the company's owners and
 * admins see what stopped working, and why.
 */
export const RECENTLY_ENDED = { days: 30, rows: 20 };

/** A token's row and its connection (ConnectionService.findToken). */
export interface FoundToken {
  token: { hash: string; connection_id: string; expires_at: number; used_at: number | null };
  connection: ConnectionRow;
}

/**
 * What a token row read on SQLite became, per row: that read hands out the same frozen row
 * until the database changes (preparedQuery.ts), so a client's every call until then finds its
 * token and connection without building them again (frozen too: shared by those calls).
 */
const FOUND = new WeakMap<TokenWithConnectionRow, FoundToken>();
const ACTIVE = new WeakMap<ConnectionRow, ActiveConnection>();

function foundToken(r: TokenWithConnectionRow | undefined, hash: string): FoundToken | undefined {
  if (!r || !sameString(String(r.t_token_hash), hash)) return undefined;
  const known = FOUND.get(r);
  if (known) return known;
  const { t_token_hash: _hash, t_expires_at: expiresAt, t_used_at: usedAt, ...connection } = r;
  const found: FoundToken = {
    token: {
      hash,
      connection_id: String(connection.id),
      expires_at: ms(expiresAt),
      used_at: usedAt == null ? null : ms(usedAt),
    },
    connection: toRow(connection),
  };
  if (!Object.isFrozen(r)) return found;
  Object.freeze(found.token);
  Object.freeze(found.connection);
  FOUND.set(r, Object.freeze(found));
  return found;
}

/** toActive, remembered for a frozen (shared) row: the connection the MCP endpoint works with. */
function activeOf(row: ConnectionRow): ActiveConnection {
  if (!Object.isFrozen(row)) return toActive(row);
  let active = ACTIVE.get(row);
  if (!active) {
    const built = toActive(row);
    Object.freeze(built.scopes);
    active = Object.freeze(built);
    ACTIVE.set(row, active);
  }
  return active;
}

/** A token with its connection (the same SQL on SQLite and Postgres; preparedQuery.ts). */
const FIND_TOKEN_SQL = `select c.*, t.token_hash as t_token_hash, t.expires_at as t_expires_at, t.used_at as t_used_at
  from tokens t join connections c on c.id = t.connection_id
  where t.token_hash = ? and t.kind = ? limit 1`;

/** How many access tokens' hashes are remembered before the memo starts afresh (accessHash). */
const ACCESS_HASH_MEMO = 10_000;

/** A row of FIND_TOKEN_SQL: the connection's columns and the token's, prefixed `t_`. */
type TokenWithConnectionRow = ConnectionsRow & { t_token_hash: string; t_expires_at: Int8; t_used_at: Int8 | null };

export class ConnectionService {
  private readonly lastTouch = new Map<string, number>();

  /** access token → its hash (accessHash) */
  private readonly accessHashes = new Map<string, string>();

  private readonly findTokenRow: (
    params: readonly unknown[],
  ) => TokenWithConnectionRow | undefined | Promise<TokenWithConnectionRow | undefined>;

  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerClient,
    private readonly now: () => number,
    private readonly log?: Pick<Logger, 'warn'>,
  ) {
    this.findTokenRow = preparedQuery<TokenWithConnectionRow>(db, 'gateway_find_token', FIND_TOKEN_SQL);
  }

  async get(id: string): Promise<ConnectionRow | undefined> {
    const row = await this.db('connections').where({ id }).first();
    return row ? toRow(row) : undefined;
  }

  /**
   * Creates an active connection with its first tokens. The person's active connection of
   * the same client to the same company, whatever access it has, ends as replaced by it
   * (`replaced`: its id), so its tokens stop working.
   */
  async create(
    trx: Knex.Transaction,
    c: NewConnection,
  ): Promise<{ connection: ConnectionRow; tokens: IssuedTokens; replaced: string[] }> {
    const now = this.now();
    const row: ConnectionRow = {
      id: randomUUID(),
      user_id: c.userId,
      user_name: c.userName,
      user_email: c.userEmail,
      dataset: c.dataset,
      resource: c.resource,
      client_id: c.clientId,
      client_name: c.clientName,
      verified_host: c.verifiedHost,
      scopes: [...c.scopes].sort().join(' '),
      state: 'active',
      end_reason: null,
      created_at: now,
      last_used_at: now,
      ended_at: null,
      replaced_by: null,
    };
    const replaced = await this.insertReplacing(trx, row);
    return { connection: row, tokens: await this.issueTokens(trx, row), replaced };
  }

  /**
   * Ends the active connection of the row's person, company and client and inserts the row.
   * A unique index on the active rows (migration 002) holds the rule across replicas: an
   * exchange that inserted first at another replica is seen only once it commits, and then
   * makes this insert fail; it is tried once more, ending that connection too. The savepoint
   * keeps the failed insert from spoiling the caller's transaction (Postgres).
   */
  private async insertReplacing(trx: Knex.Transaction, row: ConnectionRow): Promise<string[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await trx.transaction(async (sp) => {
          const earlier: string[] = await sp('connections')
            .where({ user_id: row.user_id, dataset: row.dataset, client_id: row.client_id, state: 'active' })
            .pluck('id');
          for (const id of earlier) await this.endIn(sp, id, 'replaced', row.id);
          await sp('connections').insert(row);
          return earlier;
        });
      } catch (err) {
        if (attempt > 1 || !isUniqueViolation(err)) throw err;
      }
    }
  }

  /** The person's active connection of this client to this company, if any. */
  async activeOf(userId: number, dataset: string, clientId: string): Promise<ConnectionRow | undefined> {
    const row = await this.db('connections')
      .where({ user_id: userId, dataset, client_id: clientId, state: 'active' })
      .first();
    return row ? toRow(row) : undefined;
  }

  /** A fresh access token (1 h) and refresh token (valid while the connection is used within 90 days). */
  async issueTokens(trx: Knex.Transaction, row: ConnectionRow): Promise<IssuedTokens> {
    const now = this.now();
    const access = newSecret(PREFIX.access);
    const refresh = newSecret(PREFIX.refresh);
    await trx('tokens').insert([
      {
        token_hash: hashSecret(access),
        connection_id: row.id,
        kind: 'access',
        created_at: now,
        expires_at: now + LIFETIME.access,
      },
      {
        token_hash: hashSecret(refresh),
        connection_id: row.id,
        kind: 'refresh',
        created_at: now,
        expires_at: now + LIFETIME.idle,
      },
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: LIFETIME.access / 1000,
      refresh_token: refresh,
      scope: row.scopes,
    };
  }

  /**
   * The token's row and its connection, when the token exists (of any state). At once (no
   * promise) when the read is synchronous (a SQLite file, preparedQuery.ts): it runs on
   * every MCP request.
   */
  findToken(kind: 'access' | 'refresh', token: string): FoundToken | undefined | Promise<FoundToken | undefined> {
    if (!looksLike(kind === 'access' ? PREFIX.access : PREFIX.refresh, token)) return undefined;
    const hash = kind === 'access' ? this.accessHash(token) : hashSecret(token);
    // one round trip for the token and its connection: this runs on every MCP request, so
    // it is a prepared statement rather than a query built and parsed each time
    const r = this.findTokenRow([hash, kind]);
    return r instanceof Promise ? r.then((row) => foundToken(row, hash)) : foundToken(r, hash);
  }

  /**
   * The hash of an access token, remembered: an MCP client presents the same token on every
   * call for up to an hour, and hashing it each time was a measurable share of a call's CPU
   * (bench/gateway.ts). Only the hash is remembered, never what it finds: the token's row and
   * its connection are still read on every call, so a revoked token stops at once as before.
   * Bounded (ACCESS_HASH_MEMO); an access token stops working an hour after it was issued, so
   * the tokens the memo holds expire by themselves.
   */
  private accessHash(token: string): string {
    let hash = this.accessHashes.get(token);
    if (hash === undefined) {
      hash = hashSecret(token);
      if (this.accessHashes.size >= ACCESS_HASH_MEMO) this.accessHashes.clear();
      this.accessHashes.set(token, hash);
    }
    return hash;
  }

  /**
   * For the MCP endpoint: the active connection of a Bearer access token, after the
   * lifecycle checks; otherwise why the token does not work. Also records the use.
   *
   * With `deferLedgerCheck`, only what the gateway knows itself is checked (token, state,
   * expiry, 90 days idle) and no use is recorded: the caller must then call `confirm` —
   * after the request's own ledger REST call, which enforces the person's standing and the
   * AI switch (the ledger answers 403 connection_not_allowed, see `endRefused`), or with
   * `verifiedByLedger: false` to have the ledger asked now.
   */
  resolveAccessToken(
    token: string,
    options: { deferLedgerCheck?: boolean } = {},
  ): TokenResolution | Promise<TokenResolution> {
    // at once, without a promise, when the token's read was (see findToken) and nothing is written or asked
    const found = this.findToken('access', token);
    return found instanceof Promise ? found.then((f) => this.resolved(f, options)) : this.resolved(found, options);
  }

  private resolved(
    found: FoundToken | undefined,
    options: { deferLedgerCheck?: boolean },
  ): TokenResolution | Promise<TokenResolution> {
    if (!found) return { ok: false, reason: 'unknown', description: 'The access token is not valid.' };
    const { connection } = found;
    const verdict = liveness(connection, this.now(), { kind: 'access', expires_at: found.token.expires_at });
    if (verdict.status === 'ended') return endedResolution(verdict.reason);
    if (verdict.status === 'expired')
      return { ok: false, reason: 'expired', description: 'The access token has expired; refresh it.' };
    if (verdict.status === 'ends') {
      const reason = verdict.reason;
      return this.end(connection.id, reason).then(() => endedResolution(reason));
    }
    if (options.deferLedgerCheck) return { ok: true, connection: activeOf(connection) };
    return this.confirm(toActive(connection), false);
  }

  /**
   * Completes a request's connection check: when the ledger already confirmed the
   * connection during the request (`verifiedByLedger`), only the use is recorded; otherwise
   * the ledger is asked (membership, role, account, AI switch) and the connection ends if it
   * may no longer live.
   */
  confirm(connection: ActiveConnection, verifiedByLedger: boolean): TokenResolution | Promise<TokenResolution> {
    if (!verifiedByLedger) return this.confirmAtLedger(connection);
    // at once when the use was recorded less than a minute ago (touch): the common case of an MCP call
    const confirmed: TokenResolution = { ok: true, connection };
    const touched = this.touch(connection.id);
    return touched instanceof Promise ? touched.then(() => confirmed) : confirmed;
  }

  private async confirmAtLedger(connection: ActiveConnection): Promise<TokenResolution> {
    let ended: EndReason | undefined;
    try {
      ended = await this.checkLedger(connection.id, connection.dataset, connection.userId);
    } catch (err) {
      if (err instanceof LedgerUnavailableError)
        return { ok: false, reason: 'unavailable', description: 'The ledger cannot be reached; try again shortly.' };
      throw err;
    }
    if (ended) return endedResolution(ended);
    await this.touch(connection.id);
    return { ok: true, connection };
  }

  /**
   * The ledger refused the connection's service credential (403 connection_not_allowed):
   * the connection ends for good, with the ledger's reason.
   */
  async endRefused(connectionId: string, ledgerReason: string): Promise<TokenResolution> {
    const reason: EndReason = isConnectionRefusal(ledgerReason) ? ledgerReason : 'membership_lost';
    await this.end(connectionId, reason);
    this.ledger.forgetCredentials(connectionId);
    const row = await this.get(connectionId);
    return endedResolution(row?.end_reason ?? reason);
  }

  /**
   * Ends the connection when it may no longer live (liveness.ts decides): its refresh token
   * expired or unused for 90 days, the person no longer an active owner/admin or member, the
   * company gone, AI connections switched off. Returns the reason when it ended (or had
   * ended before). Throws LedgerUnavailableError.
   */
  async checkLifecycle(connection: ConnectionRow, token?: PresentedToken): Promise<EndReason | undefined> {
    const verdict = liveness(connection, this.now(), token);
    if (verdict.status === 'ended') return verdict.reason ?? 'revoked';
    if (verdict.status === 'ends') {
      await this.end(connection.id, verdict.reason);
      return verdict.reason;
    }
    return this.checkLedger(connection.id, connection.dataset, connection.user_id);
  }

  private async checkLedger(id: string, dataset: string, userId: number): Promise<EndReason | undefined> {
    const reason = standingRefusal(await this.ledger.member(dataset, userId));
    if (reason) {
      await this.end(id, reason);
      this.ledger.forgetCredentials(id);
    }
    return reason;
  }

  /** Records a use: last_used_at, written at most once a minute per connection (a promise only then). */
  touch(id: string): void | Promise<void> {
    const now = this.now();
    const last = this.lastTouch.get(id);
    if (last !== undefined && now - last < LIFETIME.touchEvery) return;
    this.lastTouch.set(id, now);
    if (this.lastTouch.size > 100_000) this.lastTouch.clear();
    return this.db('connections')
      .where({ id, state: 'active' })
      .update({ last_used_at: now })
      .then(() => undefined);
  }

  /**
   * Ends a connection for good: its tokens stop working at once. The end is then written to
   * the company's audit log (after the commit: the connection has ended whatever the ledger
   * answers; a failure to write the entry is logged).
   */
  async end(id: string, reason: EndReason): Promise<boolean> {
    const ended = await this.db.transaction((trx) => this.endIn(trx, id, reason));
    if (ended) await this.auditEnd(id, reason);
    return ended;
  }

  private async auditEnd(id: string, reason: EndReason): Promise<void> {
    const c = await this.get(id);
    if (!c) return;
    await this.ledger
      .auditConnection(c.dataset, {
        user_id: c.user_id,
        action: 'end',
        connection_id: c.id,
        client_name: c.client_name,
        reason,
      })
      .catch((err: unknown) =>
        this.log?.warn(
          { conn: id, err: err instanceof Error ? err.message : String(err) },
          'connection end not written to the audit log',
        ),
      );
  }

  async endIn(trx: Knex.Transaction | Db, id: string, reason: EndReason, replacedBy?: string): Promise<boolean> {
    const now = this.now();
    const n = await trx('connections')
      .where({ id, state: 'active' })
      .update({
        state: 'ended',
        end_reason: reason,
        ended_at: now,
        ...(replacedBy ? { replaced_by: replacedBy } : {}),
      });
    this.lastTouch.delete(id);
    return n > 0;
  }

  async endAllForDataset(dataset: string, reason: EndReason): Promise<number> {
    const ids: string[] = await this.db('connections').where({ dataset, state: 'active' }).pluck('id');
    let n = 0;
    for (const id of ids) if (await this.end(id, reason)) n++;
    return n;
  }

  async listForUser(userId: number): Promise<ConnectionRow[]> {
    const rows = await this.db('connections').where({ user_id: userId, state: 'active' }).orderBy('created_at', 'desc');
    return rows.map(toRow);
  }

  async listForDataset(dataset: string): Promise<ConnectionRow[]> {
    const rows = await this.db('connections').where({ dataset, state: 'active' }).orderBy('created_at', 'desc');
    return rows.map(toRow);
  }

  /** The person's connections that ended within RECENTLY_ENDED.days, newest first, at most RECENTLY_ENDED.rows. */
  async recentlyEndedForUser(userId: number): Promise<ConnectionRow[]> {
    return this.recentlyEnded({ user_id: userId });
  }

  /** The company's connections that ended within RECENTLY_ENDED.days, newest first, at most RECENTLY_ENDED.rows. */
  async recentlyEndedForDataset(dataset: string): Promise<ConnectionRow[]> {
    return this.recentlyEnded({ dataset });
  }

  private async recentlyEnded(where: { user_id: number } | { dataset: string }): Promise<ConnectionRow[]> {
    const rows = await this.db('connections')
      .where({ ...where, state: 'ended' })
      .where('ended_at', '>=', this.now() - RECENTLY_ENDED.days * 24 * 3600_000)
      .orderBy([
        { column: 'ended_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(RECENTLY_ENDED.rows);
    return rows.map(toRow);
  }
}
