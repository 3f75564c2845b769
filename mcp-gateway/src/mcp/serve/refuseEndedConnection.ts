/**
 * Serving stage: a connection check left to the request's ledger calls is completed before
 * the answer leaves (connectionCheck.ts `beforeAnswer`); when the connection may no longer
 * live, the answer is 401 `invalid_token` (503 when the ledger could not be asked) instead,
 * and an answer the SDK already made is dropped.
 */
import { McpAnswer, type TokenRefusal } from '../answer.ts';
import { andThen, type Maybe } from '../maybe.ts';
import type { ServeEnv, Serving } from './state.ts';

export function refuseEndedConnection<S extends Serving & { response?: Response }>(
  env: ServeEnv,
  state: S,
): Maybe<S | McpAnswer> {
  // at once when the ledger's answer already confirmed the connection (the common case)
  return andThen(
    state.check.beforeAnswer(),
    (refusal): Maybe<S | McpAnswer> => (refusal ? refused(env, state, refusal) : state),
  );
}

async function refused(
  { deps }: ServeEnv,
  state: Serving & { response?: Response },
  refusal: TokenRefusal,
): Promise<McpAnswer> {
  await state.response?.body?.cancel().catch(() => undefined);
  return McpAnswer.tokenRefused(deps.publicUrl, state.dataset, refusal);
}
