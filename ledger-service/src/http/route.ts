import type { Context } from 'koa';
import type Router from '@koa/router';
import type { Db, Tx } from '../db/knex.ts';
import { withTenant } from '../db/knex.ts';
import type { Company } from '../db/companies.ts';
import { roleHas, type Permission } from '../domain/permissions.ts';
import { scopeSatisfied, type Scope } from '@ledger/shared';
import type { Actor, TenantState } from './auth.ts';
import { ENDPOINT_PERMISSIONS, resolveRule } from './endpointPermissions.ts';
import { ApiError } from './errors.ts';
import { validateBody, validateQuery } from './validate.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route handler gets: the request, already authenticated and inside its company's transaction. */
export interface RouteRequest<B = unknown, Q = Record<string, unknown>> {
  ctx: Context;
  tx: Tx;
  db: Db;
  company: Company;
  actor: Actor;
  params: Record<string, string>;
  body: B;
  query: Q;
}

/** One endpoint under /client/:dataset. Its permission comes from endpointPermissions.ts. */
export interface RouteDef {
  method: Method;
  path: string;
  /** JSON schema of the body; validated before the handler runs */
  body?: object;
  /** JSON schema of the query string */
  query?: object;
  /** side-specific body schemas for `:vc` routes; used instead of `body` */
  bodyBySide?: Record<'vendor' | 'customer', object>;
  /** side-specific query schemas for `:vc` routes; used instead of `query` */
  queryBySide?: Record<'vendor' | 'customer', object>;
  /** for the OpenAPI document: one-line summary, success status (default 200) and response body schema */
  summary?: string;
  status?: number;
  response?: object;
  responseBySide?: Record<'vendor' | 'customer', object>;
  /** answers with ETag / Cache-Control and honours If-None-Match (see caching.ts) */
  cacheable?: boolean;
  /**
   * Turns the raw request into the object the body schema validates (runs after the
   * permission check): e.g. the JSON part of a multipart body, or rule checks whose
   * error code is not invalid_request (`currency` → invalid_currency).
   */
  prepareBody?: (ctx: Context) => unknown;
  /** the handler returns the response body; it may set ctx.status / headers */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: (req: RouteRequest<any, any>) => Promise<unknown>;
}

/** Mounts routes, checking at start-up that each one has an entry in the permission map. */
export function mountRoutes(router: Router, db: Db, routes: RouteDef[]): void {
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const rule = ENDPOINT_PERMISSIONS[key];
    if (!rule) throw new Error(`route ${key} has no entry in endpointPermissions.ts`);
    router.register(route.path, [route.method], async (ctx: Context, next) => {
      const { company, actor } = ctx.state.tenant as TenantState;
      const params = ctx.params as Record<string, string>;
      if (params.vc !== undefined && params.vc !== 'vendor' && params.vc !== 'customer') {
        // not a side ("/arap/transactions/vendor" also matches "/arap/:vc/:id"): let a later route match
        ctx.params = { dataset: params.dataset! };
        return next();
      }
      const { permission, scope } = resolveRule(rule, params.vc);
      authorize(actor, permission, scope);
      const bodySchema = route.bodyBySide ? route.bodyBySide[params.vc as 'vendor' | 'customer'] : route.body;
      const raw = route.prepareBody ? await route.prepareBody(ctx) : ctx.request.body;
      const body = bodySchema ? validateBody(bodySchema, raw) : raw;
      const querySchema = route.queryBySide ? route.queryBySide[params.vc as 'vendor' | 'customer'] : route.query;
      const query = querySchema ? validateQuery(querySchema, ctx.query as Record<string, unknown>) : ctx.query;
      const result = await withTenant(db, company.id, (tx) =>
        route.handler({ ctx, tx, db, company, actor, params, body, query }),
      );
      if (result !== undefined) {
        ctx.body = result;
        if (route.status) ctx.status = route.status;
      } else if (ctx.body === undefined) ctx.status = 204;
    });
  }
}

/** Effective access = the role's permissions ∩, for AI connections, the granted scopes. */
export function authorize(actor: Actor, permission: string | null, scope: string | null): void {
  if (permission && !roleHas(actor.role, permission as Permission)) {
    throw new ApiError('forbidden', `Missing permission ${permission} (role ${actor.role}).`);
  }
  if (actor.via.kind === 'ai_connection') {
    if (!scope) throw new ApiError('forbidden', 'This endpoint is not available to AI connections.');
    if (!scopeSatisfied(actor.via.scopes, scope as Scope)) {
      throw new ApiError('forbidden', `Missing scope ${scope}.`);
    }
  }
}
