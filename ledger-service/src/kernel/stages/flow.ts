/**
 * One request on its way through the stages of `index.ts`: what each stage established for
 * the ones after it, and `next()`, which hands the request to the next stage of its route.
 *
 * Why a class with a cursor rather than a chain of closures: the stages a route passes are
 * picked once, when it is mounted (`ServedRoute`), and a request only walks that list, so the
 * way through costs no more allocations than the code it replaced. A stage that wraps the rest
 * (the company turn, the transaction, the idempotent write) awaits `next()` inside what it
 * opens; a stage that refuses throws, and the stages after it never run.
 */
import type { Context } from 'koa';
import type { Contract, Permission, Side } from '@ledger/shared';
import type { Db, Tx } from '../../db/knex.ts';
import type { CompanyTurns } from '../companyTurns.ts';
import type { AssistantConfirmations } from '../confirmation.ts';
import type { IdempotencyKeys, KeyedOutcome, KeyedRequest } from '../idempotency.ts';
import type { Upload } from '../multipart.ts';
import type { RequestTenant } from '../requestTenant.ts';
import type { Route, RouteRequest } from '../handler.ts';

/** What every route of an app shares: the Idempotency-Key store, the companies' write turns, confirmations. */
export interface ServeShared {
  keys: IdempotencyKeys;
  turns: CompanyTurns;
  /** the person's confirmation of an assistant's write that posts, pays, sends or deletes */
  confirmations: AssistantConfirmations;
}

/** The handler as the answer stage calls it, in the transaction (or savepoint) it is given. */
export type Handle = (tx: Tx) => Promise<unknown>;

/** The stage names, in the order a request passes them (index.ts STAGES). */
export type StageName =
  | 'admission'
  | 'idempotency'
  | 'body bound'
  | 'untrusted parse'
  | 'validation'
  | 'company turn'
  | 'transaction'
  | 'idempotent write'
  | 'confirmation'
  | 'answer';

export interface Stage {
  readonly name: StageName;
  /** whether requests of this route pass the stage at all (decided once, at mount time) */
  appliesTo(route: Route): boolean;
  run(flow: Flow): Promise<void>;
}

/** One mounted route (a contract on one side): everything that does not change per request. */
export interface ServedRoute {
  route: Route;
  contract: Contract;
  side: Side | undefined;
  db: Db;
  shared: ServeShared;
  /** the contract's permission for this side */
  permission: Permission | null;
  /** the body and query schemas for this side */
  bodySchema: object | undefined;
  querySchema: object | undefined;
  /** the stages this route's requests pass, in order */
  stages: readonly Stage[];
}

const NO_UPLOADS: readonly Upload[] = [];

/**
 * Watches every stage a request passes: `enter` before its run, `leave` when what it returned
 * settles (the stages after it included, since a stage runs them inside its own). For the
 * benchmark's per-stage figures only (bench/ledgerServer.ts, LEDGER_STAGE_TIMING); the
 * service never sets one, and without one `next()` costs one comparison more.
 */
export interface StageObserver {
  enter(flow: Flow, stage: StageName): void;
  leave(flow: Flow, stage: StageName): void;
}

let observer: StageObserver | undefined;

/** Sets (or with undefined removes) the observer of every request's stages in this process. */
export function observeStages(o: StageObserver | undefined): void {
  observer = o;
}

function observed(flow: Flow, stage: Stage, o: StageObserver): Promise<void> {
  o.enter(flow, stage.name);
  const left = () => o.leave(flow, stage.name);
  return stage.run(flow).finally(left);
}

/** A request's place on its way (Flow.mark). */
export interface FlowMark {
  readonly at: number;
  readonly handle: Handle;
  readonly outcome: KeyedOutcome | undefined;
}

export class Flow {
  /** path parameters without the dataset (`vc` written out) */
  params: Record<string, string> = {};
  /** company and actor, authorized for the contract (admission) */
  tenant!: RequestTenant;
  /** the POST's Idempotency-Key and fingerprint (idempotency); undefined without a key */
  keyed: KeyedRequest | undefined;
  /** the files of a multipart body (body bound) */
  uploads: readonly Upload[] = NO_UPLOADS;
  /** what a route's prepareBody made of the body, before validation (untrusted parse) */
  raw: unknown;
  /** what prepareBody read besides the body (untrusted parse) */
  prepared: unknown;
  body: unknown;
  query: unknown;
  bodyType: string | undefined;
  /** the request's transaction, or the idempotent write's savepoint in it (transaction, idempotent write) */
  tx!: Tx;
  /** a keyed write's outcome other than its own answer: a replay or a kept refusal (idempotent write) */
  outcome: KeyedOutcome | undefined;
  /** the route's handler for this request; the confirmation stage wraps it in its check */
  handle: Handle = (tx) => {
    this.tx = tx;
    return this.served.route.handle(this.request());
  };
  private at = -1;

  constructor(
    readonly ctx: Context,
    readonly served: ServedRoute,
  ) {}

  /** Where the request is on its way: what `resume` takes back to. */
  mark(): FlowMark {
    return { at: this.at, handle: this.handle, outcome: this.outcome };
  }

  /**
   * Takes the request back to a mark, for a stage that runs the rest again: the transaction's
   * rest runs anew when the transaction's guard finds the remembered key changed (it may have
   * begun before its first statement, requestTenant.ts).
   */
  resume(mark: FlowMark): void {
    this.at = mark.at;
    this.handle = mark.handle;
    this.outcome = mark.outcome;
  }

  /** Hands the request to the next stage of its route (resolves at once after the last). */
  next(): Promise<void> {
    this.at++;
    const stage = this.served.stages[this.at];
    if (!stage) return Promise.resolve();
    return observer ? observed(this, stage, observer) : stage.run(this);
  }

  /** What the handler gets: the tenant as it stands when it runs (a remembered key may have been read again). */
  request(): RouteRequest<Contract, unknown> {
    const { ctx, tx, params, body, query, prepared, bodyType } = this;
    const { company, actor } = this.tenant.now();
    return { ctx, tx, db: this.served.db, company, actor, params, body, query, prepared, bodyType } as RouteRequest<
      Contract,
      unknown
    >;
  }
}
