/**
 * What a route handler is and gets: the types shared by route.ts (binding and mounting) and
 * the stages a request passes (stages/), in a file of their own so neither imports the other.
 */
import type { Context } from 'koa';
import type { Contract, BodyOf, ParamsOf, QueryOf } from '@ledger/shared';
import type { Db, Tx } from '../db/knex.ts';
import type { Company } from '../db/companies.ts';
import type { Actor } from '../domain/actor.ts';
import type { Upload } from './multipart.ts';

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
