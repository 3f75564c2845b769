/**
 * Binding handlers to their contracts (`route`), checking that they pair up (`pairRoutes`) and
 * mounting them (`mountRoutes`). What a request passes on its way to the handler is the
 * ordered list of stages in stages/index.ts.
 */
import type { Context } from 'koa';
import type { RouterMiddleware } from '@koa/router';
import type { Db } from '../db/knex.ts';
import { CONTRACTS, sidesOf, type Contract } from '@ledger/shared';
import type { Upload } from './multipart.ts';
import { Flow, serveRoute, type ServeShared } from './stages/index.ts';
import type { Prepared, Route, RouteRequest } from './handler.ts';

export { Prepared, type Route, type RouteRequest } from './handler.ts';
export { createdUrl, FILE_ANSWER_HEADERS, listHeaders, type ServeShared } from './stages/index.ts';

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

/** Where routes are mounted: a `@koa/router` router or the client routes' SegmentRouter. */
export interface RouteTable {
  register(path: string, methods: string[], handler: RouterMiddleware): unknown;
}

/**
 * Mounts one handler per contract under the router (prefix /client/:dataset). `:vc` paths are
 * mounted once per side with the side written out, so "/arap/transactions/vendor" can never
 * be taken for "/arap/:vc/:id".
 */
export function mountRoutes(router: RouteTable, db: Db, routes: readonly Route[], shared: ServeShared): void {
  const paired = pairRoutes(routes);
  // a preview reads what an assistant's write makes or changes with these (kernel/confirmation.ts)
  shared.confirmations.learnReads(paired, db);
  for (const route of paired) {
    for (const side of sidesOf(route.contract)) {
      const path = side ? route.contract.path.replace(':vc', side) : route.contract.path;
      // the route's stages, permission and schemas are picked here, once, not per request
      const served = serveRoute(route, side, db, shared);
      router.register(path, [route.contract.method], (ctx: Context) => new Flow(ctx, served).next());
    }
  }
}
