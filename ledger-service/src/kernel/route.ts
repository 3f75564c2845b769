import type { Context } from 'koa';
import type Router from '@koa/router';
import type { Db, Tx } from '../db/knex.ts';
import type { Company } from '../db/companies.ts';
import {
  CONTRACTS,
  forSide,
  sidesOf,
  type BodyOf,
  type Contract,
  type ParamsOf,
  type QueryOf,
  type Side,
} from '@ledger/shared';
import type { Actor } from '../domain/actor.ts';
import { validateBody, validateQuery } from './validate.ts';
import { conditional } from './caching.ts';
import { assertBodyType, textBodyType } from './body.ts';
import { isMultipart, readMultipart, type Upload } from './multipart.ts';
import type { LedgerConfig } from '../config.ts';
import type { ListPage } from '../db/listOrder.ts';
import { IdempotencyKeys, idempotencyKeyOf, keyedRequest } from './idempotency.ts';
import { type CompanyTurns, turnWaitOf } from './companyTurns.ts';
import { RequestTenant } from './requestTenant.ts';

/**
 * What a route's prepareBody returns when it read more than the body: the body (validated
 * next, against the contract) and what else it read — the uploaded files of a multipart
 * write, the parsed statements of a file import — which the handler gets, typed, as
 * `req.prepared`. A prepareBody that only reads the body returns the body itself.
 */
export class Prepared<X> {
  constructor(
    readonly body: unknown,
    readonly extra: X,
  ) {}
}

/** What a handler gets: the request, authenticated, authorized, validated, inside its company's transaction. */
export interface RouteRequest<C extends Contract = Contract, X = undefined> {
  ctx: Context;
  tx: Tx;
  db: Db;
  company: Company;
  actor: Actor;
  /** path parameters as sent (`vc` is the side the route was mounted for) */
  params: ParamsOf<C>;
  body: BodyOf<C>;
  query: QueryOf<C>;
  /** what the route's prepareBody read besides the body (Prepared); undefined without one */
  prepared: X;
  /** the media type of a file sent as the body (a `textBody` contract), else undefined */
  bodyType: string | undefined;
}

/**
 * The handler of one contract (shared/src/contracts). It returns the answer's body, or for a
 * list contract a ListPage `{ rows, total }`; it may set ctx.status and headers itself.
 */
export interface Route {
  contract: Contract;
  /**
   * Turns the raw request into the object the body schema validates (runs after the
   * permission check): e.g. rule checks whose error code is not invalid_request
   * (`currency` → invalid_currency). A multipart body has been read by then as the contract
   * declares it (kernel/multipart.ts): ctx.request.body is its JSON part, `uploads` its files
   * (empty for any other body).
   */
  prepareBody?: (ctx: Context, uploads: readonly Upload[]) => unknown;
  handle(req: RouteRequest<Contract, unknown>): Promise<unknown>;
}

/**
 * Binds a handler to its contract; the request it gets is typed from the contract's schemas,
 * and `req.prepared` from what its prepareBody returns in a Prepared.
 */
export function route<C extends Contract, X>(
  contract: C,
  handle: (req: RouteRequest<C, X>) => Promise<unknown>,
  options: { prepareBody: (ctx: Context, uploads: readonly Upload[]) => Prepared<X> | Promise<Prepared<X>> },
): Route;
export function route<C extends Contract>(
  contract: C,
  handle: (req: RouteRequest<C>) => Promise<unknown>,
  options?: { prepareBody?: (ctx: Context, uploads: readonly Upload[]) => unknown },
): Route;
export function route(
  contract: Contract,
  handle: (req: RouteRequest<Contract, never>) => Promise<unknown>,
  options: { prepareBody?: (ctx: Context, uploads: readonly Upload[]) => unknown } = {},
): Route {
  // the kernel validated body, query and params against this very contract before calling
  return { contract, handle: handle as unknown as Route['handle'], ...options };
}

/**
 * Checks that handlers and contracts pair up one to one: a contract without a handler, a
 * handler for a contract outside the list, or two handlers for one contract fail start-up.
 */
export function pairRoutes(routes: readonly Route[], contracts: readonly Contract[] = CONTRACTS): Route[] {
  const byContract = new Map<Contract, Route>();
  for (const r of routes) {
    if (!contracts.includes(r.contract))
      throw new Error(`handler for ${r.contract.name}, which is not in the contract list`);
    if (byContract.has(r.contract)) throw new Error(`two handlers for contract ${r.contract.name}`);
    byContract.set(r.contract, r);
  }
  const missing = contracts.filter((c) => !byContract.has(c)).map((c) => c.name);
  if (missing.length > 0) throw new Error(`contracts without a handler: ${missing.join(', ')}`);
  // uploaded files reach a handler only through its prepareBody: without one they would be dropped unseen
  const unread = routes.filter((r) => r.contract.multipart && !r.prepareBody).map((r) => r.contract.name);
  if (unread.length > 0) throw new Error(`multipart contracts without a prepareBody: ${unread.join(', ')}`);
  // every 201 says where the new resource is (Location); a contract that forgets fails start-up
  const unplaced = contracts.filter((c) => c.status === 201 && !c.location).map((c) => c.name);
  if (unplaced.length > 0) throw new Error(`201 contracts without a location: ${unplaced.join(', ')}`);
  return contracts.map((c) => byContract.get(c)!);
}

/**
 * Mounts one handler per contract under the router (prefix /client/:dataset). `:vc` paths are
 * mounted once per side with the side written out, so "/arap/transactions/vendor" can never
 * be taken for "/arap/:vc/:id".
 */
export function mountRoutes(router: Router, db: Db, routes: readonly Route[], shared: ServeShared): void {
  for (const route of pairRoutes(routes)) {
    for (const side of sidesOf(route.contract)) {
      const path = side ? route.contract.path.replace(':vc', side) : route.contract.path;
      router.register(path, [route.contract.method], async (ctx: Context) => serve(ctx, db, shared, route, side));
    }
  }
}

/**
 * Files sent back (documents, attachments, invoice PDFs, reports, payment files) are bytes a
 * client uploaded or the ledger made: a browser must take them for what their media type
 * says (never sniff HTML in a text file) and never run them as a page of this origin (an
 * SVG or HTML attachment with a script): `sandbox` gives them an opaque origin, without
 * scripts, forms or plugins, whatever their type. Set before the handler, so refusals
 * carry them too.
 */
export const FILE_ANSWER_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
} as const;

/** What every route of an app shares: the Idempotency-Key store and the companies' write turns. */
export interface ServeShared {
  keys: IdempotencyKeys;
  turns: CompanyTurns;
}

async function serve(ctx: Context, db: Db, shared: ServeShared, route: Route, side: Side | undefined): Promise<void> {
  const { contract } = route;
  const { keys, turns } = shared;
  if (contract.download) ctx.set(FILE_ANSWER_HEADERS);
  // the route label of the request metrics: the contract, not the path with its ids
  ctx.state.route = contract.name;
  // the side is written out in the mounted path; handlers and prepareBody read it as :vc
  if (side) ctx.params = { ...ctx.params, vc: side };
  const { dataset: _dataset, ...params } = ctx.params as Record<string, string>;
  // a malformed Idempotency-Key is refused first, on every POST alike
  if (contract.method === 'POST') idempotencyKeyOf(ctx);
  const permission = contract.permission ? forSide(contract.permission, side) : null;
  const tenant = new RequestTenant(ctx, db, permission, contract.scope);
  await tenant.authorize();
  assertBodyType(ctx, contract);
  // fingerprinted before prepareBody, which may consume the uploaded files
  const keyed = contract.method === 'POST' ? await keyedRequest(ctx, tenant.actor) : undefined;
  if (keyed && route.prepareBody && (isMultipart(ctx) || textBodyType(ctx) !== undefined)) {
    // a repeat (or a reused key) is answered before the body is read again: reading may be costly (a statement file,
    // uploads); a JSON body is cheap to read, and run() below decides in the write's own transaction
    const kept = await tenant.transaction((tx) => keys.peek(tx, tenant.company.id, keyed));
    if (kept) return IdempotencyKeys.replay(ctx, kept);
  }
  // a multipart body becomes its JSON part and its files, as the contract declares (415 before where it declares none)
  let uploads: Upload[] = [];
  if (isMultipart(ctx)) {
    const multipart = await readMultipart(ctx, contract, (ctx.config as LedgerConfig).fileLimit);
    ctx.request.body = multipart.body;
    uploads = multipart.uploads;
  }
  const read = route.prepareBody ? await route.prepareBody(ctx, uploads) : ctx.request.body;
  const [raw, prepared] = read instanceof Prepared ? [read.body, read.extra as unknown] : [read, undefined];
  const body = contract.body ? validateBody(forSide(contract.body, side) as object, raw) : raw;
  const bodyType = textBodyType(ctx);
  const query = contract.query
    ? validateQuery(forSide(contract.query, side) as object, ctx.query as Record<string, unknown>)
    : ctx.query;
  // the tenant as it stands when the transaction runs (a remembered key may have been read again)
  const handle = (tx: Tx) => route.handle({ ctx, tx, db, ...tenant.now(), params, body, query, prepared, bodyType });
  if (!keyed) {
    // a write waits for its company's turn (kernel/companyTurns.ts); a read never does
    const result =
      contract.method === 'GET'
        ? await tenant.transaction(handle)
        : await turns.take(tenant.company.id, () => tenant.transaction(handle), turnWaitOf(ctx));
    answer(ctx, contract, result, query);
    return;
  }
  // the answer is set inside the transaction: it is kept with the write it belongs to
  const outcome = await turns.take(
    tenant.company.id,
    () =>
      tenant.transaction((tx) =>
        keys.run(tx, ctx, tenant.company.id, keyed, async (sp) => answer(ctx, contract, await handle(sp), query)),
      ),
    turnWaitOf(ctx),
  );
  if ('replay' in outcome) IdempotencyKeys.replay(ctx, outcome.replay);
  else if ('refusal' in outcome) throw outcome.refusal;
}

/** Sets a handler's result as the answer: list headers, conditional GET, body and success status. */
function answer(ctx: Context, contract: Contract, result: unknown, query: unknown): void {
  if (contract.list) {
    const page = result as ListPage<unknown>;
    listHeaders(ctx, page, query as Record<string, unknown>);
    result = page.rows;
  }
  if (contract.cacheable) result = conditional(ctx, result);
  if (result !== undefined) {
    ctx.body = result;
    if (contract.status) ctx.status = contract.status;
    if (contract.location && ctx.status === 201) ctx.set('Location', createdUrl(ctx, contract.location, result));
  } else if (ctx.body === undefined) ctx.status = 204;
}

/**
 * The absolute URL of what a 201 created: the contract's `location` with `:name` taken from
 * the request's path parameters and `{field}` from the answer, under the request's public
 * origin and dataset (behind the gateway its X-Forwarded-Host/-Proto, as for list links).
 */
export function createdUrl(ctx: Context, template: string, result: unknown): string {
  const params = ctx.params as Record<string, string>;
  const answer = (result ?? {}) as Record<string, unknown>;
  const path = template
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(required(params[name], `path parameter :${name}`)))
    .replace(/\{(\w+)\}/g, (_, field: string) =>
      encodeURIComponent(String(required(answer[field], `answer field ${field}`))),
    );
  return `${ctx.protocol}://${ctx.host}/client/${encodeURIComponent(params.dataset ?? '')}${path}`;
}

function required<T>(value: T | undefined | null, what: string): T {
  // a handler whose answer lacks the new id is a bug, not something to hide behind a missing header
  if (value === undefined || value === null) throw new Error(`Location: no ${what}`);
  return value;
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
