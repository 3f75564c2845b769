/**
 * Serving stage: a 2025-era answer of the SDK may start streaming before the tool has run,
 * so a pending connection check is made before the SDK serves such a request.
 */
import { McpAnswer } from '../answer.ts';
import { servedAsLegacy } from './era.ts';
import type { ServeEnv } from './state.ts';
import type { WebExchange } from './toWebRequest.ts';

export async function checkBeforeLegacyStream(
  { deps, maxBodyBytes }: ServeEnv,
  state: WebExchange,
): Promise<WebExchange | McpAnswer> {
  if (!state.check.pending || !(await servedAsLegacy(state.req, state.body, maxBodyBytes, state.request))) return state;
  const refusal = await state.check.beforeStreaming();
  return refusal ? McpAnswer.tokenRefused(deps.publicUrl, state.dataset, refusal) : state;
}
