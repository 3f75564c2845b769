import type { Context, Next } from 'koa';
import type { Db } from '../db/knex.ts';
import { findApiKeyByToken, touchApiKey } from '../db/apiKeys.ts';
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
}

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
  return async function auth(ctx: Context, next: Next) {
    const dataset = String(ctx.params.dataset);
    const apiKey = ctx.get('X-API-Key');
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];

    let actor: Actor;
    let company: Company | undefined;
    if (apiKey) {
      const key = await findApiKeyByToken(db, apiKey);
      if (!key?.user_active) throw new ApiError('unauthorized', 'The API key is not valid.');
      if (key.company.dataset !== dataset) {
        throw new ApiError('forbidden', `The API key has no access to dataset "${dataset}".`);
      }
      company = key.company;
      if (!key.role || !isRole(key.role)) {
        throw new ApiError('forbidden', `The key's user is no longer a member of dataset "${dataset}".`);
      }
      actor = {
        userId: key.user_id,
        role: key.role,
        approvalLimit: key.approval_limit,
        via: { kind: 'api_key', id: key.id, label: key.label },
      };
      touchApiKey(db, key).catch(() => undefined);
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
