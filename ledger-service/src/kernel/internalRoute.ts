/**
 * The internal API's routes (`/internal/*`, only for the gateway), from their contracts
 * (shared/src/contracts/internal.ts) like the public API's: one handler per contract, the
 * path parameters, body and query validated before the handler runs, the success status set
 * from the contract. What differs from route.ts and why: the caller is the gateway itself (its
 * internal JWT, checked before routing by the internal module), not a member of one company,
 * so there is no tenant, actor, permission or scope here, and no request-wide transaction —
 * several of these requests span companies (a person's memberships); a handler that writes
 * opens its company's transaction itself (one per request: the write and its audit row).
 */
import type { Context } from 'koa';
import type Router from '@koa/router';
import {
  INTERNAL_CONTRACTS,
  type BodyOf,
  type Contract,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@ledger/shared';
import type { Db } from '../db/knex.ts';
import { ApiError } from './errors.ts';
import { validateBody, validateQuery } from './validate.ts';

/** What an internal handler gets: the request, from the gateway, validated against its contract. */
export interface InternalRequest<C extends Contract = Contract> {
  ctx: Context;
  db: Db;
  /** path parameters: `dataset` as sent, every other one a positive integer id (checked) */
  params: ParamsOf<C>;
  body: BodyOf<C>;
  query: QueryOf<C>;
}

export interface InternalRoute {
  contract: Contract;
  handle(req: InternalRequest): Promise<unknown>;
}

/** Binds an internal handler to its contract; its answer is typed by the contract's response schema. */
export function internalRoute<C extends Contract>(
  contract: C,
  handle: (req: InternalRequest<C>) => Promise<ResponseOf<C>>,
): InternalRoute {
  if (!contract.internal) throw new Error(`${contract.name} is not an internal contract`);
  // the kernel validated body, query and params against this very contract before calling
  return { contract, handle: handle as unknown as InternalRoute['handle'] };
}

const ID = /^[1-9]\d{0,15}$/;

/**
 * Path parameters other than `:dataset` are ids (the contracts' path convention): anything but
 * a positive integer is a 400 naming the parameter, as the internal API always answered.
 */
function checkedParams(ctx: Context): Record<string, string> {
  const params = ctx.params as Record<string, string>;
  for (const [name, value] of Object.entries(params)) {
    if (name !== 'dataset' && !(ID.test(value) && Number.isSafeInteger(Number(value))))
      throw new ApiError('invalid_request', `Path parameter "${name}" must be a positive integer.`, `/${name}`);
  }
  return params;
}

/**
 * Mounts one handler per internal contract (the router's prefix is `/internal`); a contract
 * without a handler, a handler without one, or two for one contract fail start-up.
 */
export function mountInternalRoutes(
  router: Router,
  db: Db,
  routes: readonly InternalRoute[],
  contracts: readonly Contract[] = INTERNAL_CONTRACTS,
): void {
  const byContract = new Map<Contract, InternalRoute>();
  for (const r of routes) {
    if (!contracts.includes(r.contract)) throw new Error(`internal handler for ${r.contract.name}, not in the list`);
    if (byContract.has(r.contract)) throw new Error(`two internal handlers for ${r.contract.name}`);
    byContract.set(r.contract, r);
  }
  const missing = contracts.filter((c) => !byContract.has(c)).map((c) => c.name);
  if (missing.length > 0) throw new Error(`internal contracts without a handler: ${missing.join(', ')}`);
  for (const { contract, handle } of byContract.values()) {
    router.register(contract.path, [contract.method], async (ctx: Context) => {
      ctx.state.route = contract.name;
      const params = checkedParams(ctx);
      const body = contract.body ? validateBody(contract.body as object, ctx.request.body) : undefined;
      const query = contract.query ? validateQuery(contract.query as object, ctx.query as Record<string, unknown>) : {};
      const result = await handle({ ctx, db, params, body, query });
      if (result !== undefined) ctx.body = result;
      ctx.status = contract.status ?? 200;
    });
  }
}
