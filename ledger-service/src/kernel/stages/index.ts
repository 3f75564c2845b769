/**
 * The way of a client request through the ledger, top to bottom: one ordered list of named
 * stages, one file each. A route's requests pass the stages that apply to it (picked once, at
 * mount time), in this order; each stage does its part and hands on with `flow.next()`, or
 * refuses by throwing (the error middleware answers). `stages.test.ts` checks the order.
 *
 * Why this order:
 * - admission first: nothing is read, parsed or opened for a caller who may not call the route;
 * - idempotency before the body is read: a repeated file upload is answered without reading
 *   its files again, and the fingerprint is taken before prepareBody consumes them;
 * - the body bound, the untrusted parse and validation before any turn or transaction: a bad
 *   body is refused without waiting for the company or holding a connection;
 * - the company turn before the transaction: a waiting write holds no connection;
 * - the idempotent write inside the transaction: the key row commits with the write or not at
 *   all; confirmation after it and before the handler, inside the same transaction;
 * - answer last: the handler and its answer, inside the transaction.
 */
import type { Contract, Side } from '@ledger/shared';
import { forSide } from '@ledger/shared';
import type { Db } from '../../db/knex.ts';
import type { Route } from '../handler.ts';
import { admission } from './admission.ts';
import { answerStage } from './answer.ts';
import { bodyBound } from './bodyBound.ts';
import { companyTurn } from './companyTurn.ts';
import { confirmation } from './confirmation.ts';
import type { ServedRoute, ServeShared, Stage } from './flow.ts';
import { idempotency } from './idempotency.ts';
import { idempotentWrite } from './idempotentWrite.ts';
import { transaction } from './transaction.ts';
import { untrustedParse } from './untrustedParse.ts';
import { validation } from './validation.ts';

export {
  Flow,
  observeStages,
  type ServedRoute,
  type ServeShared,
  type Stage,
  type StageName,
  type StageObserver,
} from './flow.ts';
export { FILE_ANSWER_HEADERS } from './admission.ts';
export { createdUrl, listHeaders } from './answer.ts';

/** Every stage, in the order a request passes them. */
export const STAGES: readonly Stage[] = [
  admission,
  idempotency,
  bodyBound,
  untrustedParse,
  validation,
  companyTurn,
  transaction,
  idempotentWrite,
  confirmation,
  answerStage,
];

/** What a route's requests need that does not change per request: its stages and its side's permission and schemas. */
export function serveRoute(route: Route, side: Side | undefined, db: Db, shared: ServeShared): ServedRoute {
  const contract: Contract = route.contract;
  return {
    route,
    contract,
    side,
    db,
    shared,
    permission: contract.permission ? forSide(contract.permission, side) : null,
    bodySchema: contract.body ? (forSide(contract.body, side) as object) : undefined,
    querySchema: contract.query ? (forSide(contract.query, side) as object) : undefined,
    stages: STAGES.filter((stage) => stage.appliesTo(route)),
  };
}
