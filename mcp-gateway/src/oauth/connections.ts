/**
 * Connections (SPEC.md "MCP connection"): one per person × company × client × granted
 * scopes, with hashed access and refresh tokens and a last-used time. States: active →
 * ended, and ended is final. This module is also the interface for the MCP endpoint:
 * `resolveAccessToken` turns a Bearer token into an active connection after the lifecycle
 * checks (the person still an active owner/admin, AI connections on, used within 90 days).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isConnectionRefusal, type ConnectionRefusal } from '@ledger/shared';
import { ms, type Db } from '../db/knex.ts';
import { preparedQuery } from '../db/preparedQuery.ts';
import { LedgerUnavailableError, type LedgerClient } from '../ledgerClient.ts';
import { LIFETIME } from './lifetimes.ts';
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

/** Why a connection ended: the ledger's refusal reasons (shared), or the gateway's own. */
export type EndReason =
  | ConnectionRefusal
  | 'disconnected_by_person' | 'disconnected_by_admin' | 'revoked' | 'idle' | 'refresh_reuse' | 'code_replay' | 'replaced';

export const END_REASON_TEXT: Record<EndReason, string> = {
  disconnected_by_person: 'disconnected by the person',
  disconnected_by_admin: 'disconnected by an owner or admin',
  revoked: 'token revoked by the app',
  ai_connections_off: 'AI connections were switched off',
  idle: 'not used for 90 days',
  role_lost: 'the person is no longer owner or admin',
  membership_lost: 'the person no longer has access to the company',
  user_deactivated: 'the account was deactivated',
  company_gone: 'the company no longer exists',
  refresh_reuse: 'an already used refresh token was presented',
  code_replay: 'the authorization code was used twice',
  replaced: 'replaced by a new connection with the same access',
};

export interface ConnectionRow {
  id: string;
  user_id: number;
  user_name: string;
  user_email: string;
  dataset: string;
  resource: string;
  client_id: string;
  client_name: string;
  verified_host: string | null;
  scopes: string;
  state: 'active' | 'ended';
  end_reason: EndReason | null;
  created_at: number;
  last_used_at: number;
  ended_at: number | null;
}

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

function toRow(r: Record<string, unknown>): ConnectionRow {
  return {
    ...(r as unknown as ConnectionRow),
    user_id: Number(r.user_id),
    created_at: ms(r.created_at),
    last_used_at: ms(r.last_used_at),
    ended_at: r.ended_at == null ? null : ms(r.ended_at),
  };
}


function endedResolution(reason: EndReason | null): TokenResolution {
  const revoked = ['disconnected_by_person', 'disconnected_by_admin', 'revoked'].includes(reason ?? '');
  return { ok: false, reason: revoked ? 'revoked' : 'ended', description: `The connection has ended: ${END_REASON_TEXT[reason ?? 'revoked']}.` };
}

export function toActive(row: ConnectionRow): ActiveConnection {
  return {
    id: row.id, userId: row.user_id, dataset: row.dataset, resource: row.resource,
    scopes: row.scopes.split(' ').filter(Boolean), clientName: row.client_name,
  };
}

/** A token with its connection (the same SQL on SQLite and Postgres; preparedQuery.ts). */
const FIND_TOKEN_SQL = `select c.*, t.token_hash as t_token_hash, t.expires_at as t_expires_at, t.used_at as t_used_at
  from tokens t join connections c on c.id = t.connection_id
  where t.token_hash = ? and t.kind = ? limit 1`;

export class ConnectionService {
  private readonly lastTouch = new Map<string, number>();

  private readonly findTokenRow: (params: readonly unknown[]) => Promise<Record<string, unknown> | undefined>;

  constructor(
    private readonly db: Db,
    private readonly ledger: LedgerClient,
    private readonly now: () => number,
  ) {
    this.findTokenRow = preparedQuery(db, 'gateway_find_token', FIND_TOKEN_SQL);
  }

  async get(id: string): Promise<ConnectionRow | undefined> {
    const row = await this.db('connections').where({ id }).first();
    return row ? toRow(row) : undefined;
  }

  /** Creates an active connection with its first tokens; an active one with identical access is replaced. */
  async create(trx: Knex.Transaction, c: NewConnection): Promise<{ connection: ConnectionRow; tokens: IssuedTokens }> {
    const now = this.now();
    const scopes = [...c.scopes].sort().join(' ');
    const same = await trx('connections')
      .where({ user_id: c.userId, dataset: c.dataset, client_id: c.clientId, scopes, state: 'active' })
      .pluck('id');
    for (const id of same) await this.endIn(trx, id, 'replaced');
    const row: ConnectionRow = {
      id: randomUUID(), user_id: c.userId, user_name: c.userName, user_email: c.userEmail, dataset: c.dataset,
      resource: c.resource, client_id: c.clientId, client_name: c.clientName, verified_host: c.verifiedHost,
      scopes, state: 'active', end_reason: null, created_at: now, last_used_at: now, ended_at: null,
    };
    await trx('connections').insert(row);
    return { connection: row, tokens: await this.issueTokens(trx, row) };
  }

  /** A fresh access token (1 h) and refresh token (valid while the connection is used within 90 days). */
  async issueTokens(trx: Knex.Transaction, row: ConnectionRow): Promise<IssuedTokens> {
    const now = this.now();
    const access = newSecret(PREFIX.access);
    const refresh = newSecret(PREFIX.refresh);
    await trx('tokens').insert([
      { token_hash: hashSecret(access), connection_id: row.id, kind: 'access', created_at: now, expires_at: now + LIFETIME.access },
      { token_hash: hashSecret(refresh), connection_id: row.id, kind: 'refresh', created_at: now, expires_at: now + LIFETIME.idle },
    ]);
    return { access_token: access, token_type: 'Bearer', expires_in: LIFETIME.access / 1000, refresh_token: refresh, scope: row.scopes };
  }

  /** The token's row and its connection, when the token exists (of any state). */
  async findToken(kind: 'access' | 'refresh', token: string) {
    if (!looksLike(kind === 'access' ? PREFIX.access : PREFIX.refresh, token)) return undefined;
    const hash = hashSecret(token);
    // one round trip for the token and its connection: this runs on every MCP request, so
    // it is a prepared statement rather than a query built and parsed each time
    const r = await this.findTokenRow([hash, kind]);
    if (!r || !sameString(String(r.t_token_hash), hash)) return undefined;
    const { t_token_hash: _hash, t_expires_at: expiresAt, t_used_at: usedAt, ...connection } = r;
    return {
      token: { hash, connection_id: String(connection.id), expires_at: ms(expiresAt), used_at: usedAt == null ? null : ms(usedAt) },
      connection: toRow(connection),
    };
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
  async resolveAccessToken(token: string, options: { deferLedgerCheck?: boolean } = {}): Promise<TokenResolution> {
    const found = await this.findToken('access', token);
    if (!found) return { ok: false, reason: 'unknown', description: 'The access token is not valid.' };
    const { connection } = found;
    if (connection.state !== 'active') return endedResolution(connection.end_reason);
    if (found.token.expires_at <= this.now()) return { ok: false, reason: 'expired', description: 'The access token has expired; refresh it.' };
    if (this.now() - connection.last_used_at > LIFETIME.idle) {
      await this.end(connection.id, 'idle');
      return endedResolution('idle');
    }
    if (options.deferLedgerCheck) return { ok: true, connection: toActive(connection) };
    return this.confirm(toActive(connection), false);
  }

  /**
   * Completes a request's connection check: when the ledger already confirmed the
   * connection during the request (`verifiedByLedger`), only the use is recorded; otherwise
   * the ledger is asked (membership, role, account, AI switch) and the connection ends if it
   * may no longer live.
   */
  async confirm(connection: ActiveConnection, verifiedByLedger: boolean): Promise<TokenResolution> {
    if (!verifiedByLedger) {
      let ended: EndReason | undefined;
      try {
        ended = await this.checkLedger(connection.id, connection.dataset, connection.userId);
      } catch (err) {
        if (err instanceof LedgerUnavailableError) return { ok: false, reason: 'unavailable', description: 'The ledger cannot be reached; try again shortly.' };
        throw err;
      }
      if (ended) return endedResolution(ended);
    }
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
   * Ends the connection when it may no longer live: unused for 90 days, the person no
   * longer an active owner/admin or member, the company gone, AI connections switched
   * off. Returns the reason when it ended. Throws LedgerUnavailableError.
   */
  async checkLifecycle(connection: ConnectionRow): Promise<EndReason | undefined> {
    if (this.now() - connection.last_used_at > LIFETIME.idle) {
      await this.end(connection.id, 'idle');
      return 'idle';
    }
    return this.checkLedger(connection.id, connection.dataset, connection.user_id);
  }

  private async checkLedger(id: string, dataset: string, userId: number): Promise<EndReason | undefined> {
    let reason: EndReason | undefined;
    const m = await this.ledger.member(dataset, userId);
    if (!m) reason = 'company_gone';
    else if (!m.user_exists || !m.user_active) reason = 'user_deactivated';
    else if (!m.role) reason = 'membership_lost';
    else if (!m.may_connect_assistants) reason = 'role_lost';
    else if (!m.company.ai_connections_enabled) reason = 'ai_connections_off';
    if (reason) {
      await this.end(id, reason);
      this.ledger.forgetCredentials(id);
    }
    return reason;
  }

  /** Records a use: last_used_at, written at most once a minute per connection. */
  async touch(id: string): Promise<void> {
    const now = this.now();
    const last = this.lastTouch.get(id);
    if (last !== undefined && now - last < LIFETIME.touchEvery) return;
    this.lastTouch.set(id, now);
    if (this.lastTouch.size > 100_000) this.lastTouch.clear();
    await this.db('connections').where({ id, state: 'active' }).update({ last_used_at: now });
  }

  /** Ends a connection for good: its tokens stop working at once. */
  async end(id: string, reason: EndReason): Promise<boolean> {
    return this.db.transaction((trx) => this.endIn(trx, id, reason));
  }

  async endIn(trx: Knex.Transaction | Db, id: string, reason: EndReason): Promise<boolean> {
    const now = this.now();
    const n = await trx('connections').where({ id, state: 'active' }).update({ state: 'ended', end_reason: reason, ended_at: now });
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
}
