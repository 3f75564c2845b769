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
import { conditional } from './caching.ts';
import type { ListPage } from '../db/listOrder.ts';

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
   * A list: the handler returns a ListPage `{ rows, total }` for the page the query's
   * `limit`/`offset` name (absent: the whole list); the answer is the rows, with
   * X-Total-Count and Link rel="next"/"prev" (see listHeaders).
   */
  list?: boolean;
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
      let result = await withTenant(db, company.id, (tx) =>
        route.handler({ ctx, tx, db, company, actor, params, body, query }),
      );
      if (route.list) {
        const page = result as ListPage<unknown>;
        listHeaders(ctx, page, query as Record<string, unknown>);
        result = page.rows;
      }
      if (route.cacheable) result = conditional(ctx, result);
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

/**
 * X-Total-Count and Link for one page of a list (RFC 8288). The URLs are absolute, built
 * from the request's public protocol and host (the app trusts X-Forwarded-Host/-Proto from the
 * gateway) and its own query string with only `offset` changed, so filters, `limit` and
 * `sort` carry over. next: while rows remain after this page; prev: unless this is the first.
 */
export function listHeaders(ctx: Context, page: ListPage<unknown>, query: Record<string, unknown>): void {
  ctx.set('X-Total-Count', String(page.total));
  const limit = typeof query.limit === 'number' ? query.limit : undefined;
  const offset = typeof query.offset === 'number' ? query.offset : 0;
  if (limit === undefined) return;
  const at = (o: number) => {
    const params = new URLSearchParams(ctx.querystring);
    params.set('offset', String(o));
    // ctx.protocol/ctx.host, not ctx.origin: in Koa 3 that is the request's Origin header
    return `<${ctx.protocol}://${ctx.host}${ctx.path}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (offset + limit < page.total) links.push(`${at(offset + limit)}; rel="next"`);
  if (offset > 0) links.push(`${at(Math.max(0, Math.min(offset - limit, page.total - limit)))}; rel="prev"`);
  if (links.length > 0) ctx.set('Link', links.join(', '));
}
