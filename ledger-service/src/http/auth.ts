import type { Context, Next } from 'koa';
import type { Db } from '../db/knex.ts';
import { findApiKeyByToken, touchApiKey } from '../db/apiKeys.ts';
import { findCompanyByDataset, findMembership, type Company } from '../db/companies.ts';
import { isRole, type Role } from '../domain/permissions.ts';
import { ApiError } from './errors.ts';
import type { ServiceCredentialVerifier } from './serviceCredential.ts';

/** Who is acting, and through what: recorded in every audit entry. */
export type Via =
  | { kind: 'api_key'; id: number; label: string }
  | { kind: 'ai_connection'; id: string; label: string; scopes: string[] }
  | { kind: 'cli'; id: null; label: 'CLI' }
  /** a person on the gateway's pages (e.g. System → Management → AI connections) */
  | { kind: 'web'; id: null; label: string };

export interface Actor {
  userId: number;
  role: Role;
  /** base-currency limit for posting; null = unlimited */
  approvalLimit: string | null;
  via: Via;
}

export interface TenantState {
  company: Company;
  actor: Actor;
}

/**
 * Authenticates /client/:dataset requests: an API key (X-API-Key) or the gateway's
 * service credential (Authorization: Bearer). 401 when the caller is unknown, 403 when
 * the caller has no access to this dataset. Unknown datasets also answer 403, so a key
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
      if (!key || !key.user_active) throw new ApiError('unauthorized', 'The API key is not valid.');
      company = await findCompanyByDataset(db, dataset);
      if (!company || company.id !== key.company_id) {
        throw new ApiError('forbidden', `The API key has no access to dataset "${dataset}".`);
      }
      const membership = await findMembership(db, company.id, key.user_id);
      if (!membership) throw new ApiError('forbidden', `The key's user is no longer a member of dataset "${dataset}".`);
      actor = {
        userId: key.user_id,
        role: membership.role,
        approvalLimit: membership.approval_limit,
        via: { kind: 'api_key', id: key.id, label: key.label },
      };
      touchApiKey(db, key).catch(() => undefined);
    } else if (bearer) {
      const claims = await verifier.verify(bearer);
      if (!claims) throw new ApiError('unauthorized', 'The service credential is not valid.');
      if (claims.dataset !== dataset) {
        throw new ApiError('forbidden', `The credential has no access to dataset "${dataset}".`);
      }
      company = await findCompanyByDataset(db, dataset);
      if (!company) throw new ApiError('forbidden', `The credential has no access to dataset "${dataset}".`);
      const membership = await findMembership(db, company.id, Number(claims.sub));
      if (!membership || !membership.user_active || !isRole(membership.role)) {
        throw new ApiError('forbidden', `The connected person has no access to dataset "${dataset}".`);
      }
      actor = {
        userId: Number(claims.sub),
        role: membership.role,
        approvalLimit: membership.approval_limit,
        via: { kind: 'ai_connection', id: claims.conn, label: claims.client_name, scopes: claims.scope.split(' ').filter(Boolean) },
      };
    } else {
      throw new ApiError('unauthorized', 'Send an API key in the X-API-Key header.');
    }
    const state: TenantState = { company, actor };
    ctx.state.tenant = state;
    await next();
  };
}
