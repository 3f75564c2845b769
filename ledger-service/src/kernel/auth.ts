import { LRUCache } from 'lru-cache';
import type { Context, Next } from 'koa';
import type { Db } from '../db/knex.ts';
import {
  apiKeyHashOf,
  apiKeyTouchDue,
  findApiKeyByHash,
  keyUnchangedSql,
  touchApiKey,
  type ApiKeyRow,
} from '../db/apiKeys.ts';
import { findCompanyByDataset, findMembership, type Company, type MembershipRow } from '../db/companies.ts';
import {
  APP_VIA_LABEL,
  ASSISTANT_CONFIRMATION_HEADER,
  ASSISTANT_CONFIRMATIONS,
  CONNECTION_REFUSALS,
  isRole,
  mayConnectAssistants,
  type AssistantConfirmation,
  type ConnectionRefusal,
} from '@ledger/shared';
import { ApiError } from './errors.ts';
import type { Actor } from '../domain/actor.ts';
import type { ServiceCredentialVerifier } from './serviceCredential.ts';

export interface TenantState {
  company: Company;
  actor: Actor;
  /** set when the API key was remembered rather than read for this request (MAX_REMEMBERED_KEYS) */
  guard?: TenantGuard;
}

/** How a request authenticated with a remembered API key makes sure the key still stands. */
export interface TenantGuard {
  /** withTenant's guard: the key and what was read with it are unchanged (db/apiKeys.ts keyUnchangedSql) */
  sql: string;
  /** set once a transaction of the request began with the guard passing */
  verified: boolean;
  /** reads the key afresh: the tenant as it stands now, or the 401/403 authentication would answer */
  refresh(): Promise<TenantState>;
}

/**
 * API keys remembered by their hash, so that a request does not spend a round trip on
 * reading its key before its transaction: the request's transaction checks the remembered
 * key in its first message instead (`withTenant`'s guard: the rows of the key, its user,
 * company and membership have the versions they had when the key was read). When they
 * changed (a key deleted, a role changed, a member removed, the company changed, the key's
 * last use written), the transaction is rolled back with whatever ran in it, and the request
 * reads the key again, is authorized anew and runs again (kernel/requestTenant.ts), so a deleted
 * key stops at once, as without the cache. A request that is answered without a transaction (a refusal
 * before it, a 404) reads the key again before its answer leaves (`authenticate`). At most
 * 10,000 keys (lru-cache), the least recently used forgotten first; only hashes are kept, never keys.
 */
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Set on every response to a request whose service credential passed all checks (also when
 * the route then refuses), so the gateway knows the ledger confirmed the connection.
 */
export const CONNECTION_CHECKED_HEADER = 'X-Connection-Checked';

/** The person's confirmation the gateway sends with an AI connection's write (recorded in its audit entry). */
function confirmationOf(ctx: Context): { confirmation?: AssistantConfirmation } {
  const value = ctx.get(ASSISTANT_CONFIRMATION_HEADER);
  return (ASSISTANT_CONFIRMATIONS as readonly string[]).includes(value)
    ? { confirmation: value as AssistantConfirmation }
    : {};
}

/**
 * The connection preconditions, checked on every service-credential request: the person
 * is an active member with a role that may connect assistants (owner/admin), and the
 * company has AI connections switched on.
 */
export async function connectionRefusal(
  db: Db,
  company: Company | undefined,
  membership: MembershipRow | undefined,
  userId: number,
): Promise<ConnectionRefusal | undefined> {
  if (!company) return 'company_gone';
  if (!membership?.user_active) {
    // only on this (rare) path: tell a deactivated account from a removed membership
    const user = Number.isSafeInteger(userId) ? await db('users').where({ id: userId }).first('active') : undefined;
    return !user?.active ? 'user_deactivated' : 'membership_lost';
  }
  if (!mayConnectAssistants(membership.role)) return 'role_lost';
  if (!company.ai_connections_enabled) return 'ai_connections_off';
  return undefined;
}

function connectionNotAllowed(reason: ConnectionRefusal): ApiError {
  return new ApiError(
    'connection_not_allowed',
    `The AI connection may no longer act: ${CONNECTION_REFUSALS[reason]}`,
    undefined,
    undefined,
    {},
    { reason },
  );
}

/** API keys start with `ak_`; service credentials are JWTs. Only the prefix is looked at. */
const looksLikeApiKey = (token: string) => token.startsWith('ak_');

/**
 * Authenticates /client/:dataset requests: an API key (X-API-Key) or the gateway's
 * service credential (Authorization: Bearer). 401 when the caller is unknown, 403 when
 * the caller has no access to this dataset. A valid service credential whose connection
 * may no longer live gets 403 `connection_not_allowed` with a `reason` (CONNECTION_REFUSALS). Unknown datasets also
 * answer 403, so a key
 * cannot probe which companies exist.
 */
export function authenticate(db: Db, verifier: ServiceCredentialVerifier) {
  const remembered = new LRUCache<string, ApiKeyRow>({ max: MAX_REMEMBERED_KEYS });

  /** The tenant of an API key: remembered (with a guard) unless `fresh`, else read now. */
  async function keyTenant(token: string, dataset: string, fresh: boolean): Promise<TenantState> {
    const hash = apiKeyHashOf(token);
    const kept = hash === undefined || fresh ? undefined : remembered.get(hash);
    const key = kept ?? (hash === undefined ? undefined : await findApiKeyByHash(db, hash));
    if (hash !== undefined && !kept) {
      if (key) remembered.set(hash, key);
      else remembered.delete(hash);
    }
    let state: TenantState;
    try {
      state = tenantOfKey(key, dataset);
    } catch (e) {
      // a refusal is never given on a remembered row: the key is read again first
      if (kept) return keyTenant(token, dataset, true);
      throw e;
    }
    if (apiKeyTouchDue(key!)) {
      touchApiKey(db, key!).catch(() => undefined);
      key!.last_used_at = new Date();
    }
    if (kept)
      state.guard = { sql: keyUnchangedSql(kept), verified: false, refresh: () => keyTenant(token, dataset, true) };
    return state;
  }

  return async function auth(ctx: Context, next: Next) {
    const dataset = String(ctx.params.dataset);
    const apiKey = ctx.get('X-API-Key');
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];

    let actor: Actor;
    let company: Company | undefined;
    if (apiKey) {
      ctx.state.tenant = await keyTenant(apiKey, dataset, false);
      try {
        await next();
      } catch (e) {
        await confirmKey(ctx);
        throw e;
      }
      // answered without a transaction that checked the key (a 404, OPTIONS): the key as it stands decides
      await confirmKey(ctx);
      return;
    } else if (bearer && looksLikeApiKey(bearer)) {
      throw new ApiError('unauthorized', 'API keys are sent in the X-API-Key header, not as Authorization: Bearer.');
    } else if (bearer) {
      const claims = await verifier.verify(bearer);
      if (!claims) throw new ApiError('unauthorized', 'The service credential is not valid.');
      if (claims.dataset !== dataset) {
        throw new ApiError('forbidden', `The credential has no access to dataset "${dataset}".`);
      }
      const userId = Number(claims.sub);
      company = await findCompanyByDataset(db, dataset);
      const membership = company ? await findMembership(db, company.id, userId) : undefined;
      if (claims.kind === 'app') {
        // the person on the gateway's app pages: any active member acts with the role's own
        // permissions; the AI-connection preconditions (owner/admin, switch on) do not apply
        if (!company || !membership?.user_active) {
          throw new ApiError('forbidden', `The person is not an active member of dataset "${dataset}".`);
        }
        actor = {
          userId,
          role: membership.role,
          approvalLimit: membership.approval_limit,
          via: { kind: 'app', id: null, label: APP_VIA_LABEL },
        };
        ctx.state.tenant = { company, actor } satisfies TenantState;
        return next();
      }
      const refusal = await connectionRefusal(db, company, membership, userId);
      if (refusal) throw connectionNotAllowed(refusal);
      ctx.set(CONNECTION_CHECKED_HEADER, 'allowed');
      actor = {
        userId,
        role: membership!.role,
        approvalLimit: membership!.approval_limit,
        via: {
          kind: 'ai_connection',
          id: claims.conn,
          label: claims.client_name,
          scopes: claims.scope.split(' ').filter(Boolean),
          ...confirmationOf(ctx),
        },
      };
    } else {
      throw new ApiError('unauthorized', 'Send an API key in the X-API-Key header.');
    }
    const state: TenantState = { company: company!, actor };
    ctx.state.tenant = state;
    await next();
  };
}

/** An API key's row as the tenant of a request to `dataset`, or the 401/403 it gets. */
function tenantOfKey(key: ApiKeyRow | undefined, dataset: string): TenantState {
  if (!key?.user_active) throw new ApiError('unauthorized', 'The API key is not valid.');
  if (key.company.dataset !== dataset) {
    throw new ApiError('forbidden', `The API key has no access to dataset "${dataset}".`);
  }
  if (!key.role || !isRole(key.role)) {
    throw new ApiError('forbidden', `The key's user is no longer a member of dataset "${dataset}".`);
  }
  return {
    company: key.company,
    actor: {
      userId: key.user_id,
      role: key.role,
      approvalLimit: key.approval_limit,
      via: { kind: 'api_key', id: key.id, label: key.label },
    },
  };
}

/**
 * A request with a remembered key that was answered before any transaction checked the key
 * (a refusal, a 404, OPTIONS): the key is read again, and when it no longer stands, its
 * 401/403 is the answer instead.
 */
async function confirmKey(ctx: Context): Promise<void> {
  const guard = (ctx.state.tenant as TenantState | undefined)?.guard;
  if (guard && !guard.verified) ctx.state.tenant = await guard.refresh();
}
