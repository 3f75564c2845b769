/**
 * Serving stage: a connection check left to the request's ledger calls is completed before
 * the answer leaves (connectionCheck.ts `beforeAnswer`); when the connection may no longer
 * live, the answer is 401 `invalid_token` (503 when the ledger could not be asked) instead,
 * and an answer the SDK already made is dropped.
 */
import { McpAnswer } from '../answer.ts';
import type { ServeEnv, Serving } from './state.ts';

export async function refuseEndedConnection<S extends Serving & { response?: Response }>(
  { deps }: ServeEnv,
  state: S,
): Promise<S | McpAnswer> {
  const refusal = await state.check.beforeAnswer();
  if (!refusal) return state;
  await state.response?.body?.cancel().catch(() => undefined);
  return McpAnswer.tokenRefused(deps.publicUrl, state.dataset, refusal);
}
