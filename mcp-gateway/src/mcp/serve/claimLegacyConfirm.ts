/**
 * The legacy-confirm path's claim: a single 2025-era `tools/call` of a write the person may
 * have to confirm (confirm.ts `mayAsk`: its contract declares an effect; the ledger decides)
 * from a client that declared elicitation at its initialize, accepting an SSE answer. The
 * gateway asks the person on the call's stream itself (legacyConfirm.ts), as the stateless
 * SDK cannot.
 */
import { mayAsk } from '../confirm.ts';
import type { DirectCall } from '../directCall.ts';
import type { Maybe } from '../maybe.ts';
import type { CatalogueTool } from '../tools/catalogue.ts';
import { isRecord } from '../tools/isRecord.ts';
import { servedAsLegacy } from './era.ts';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export interface WithCall extends Serving {
  call: DirectCall;
}

/** Synchronous up to the checks that need a promise: most calls are not the path's, and are told so at once. */
export function claimLegacyConfirm(env: ServeEnv, state: Serving): Maybe<WithCall | undefined> {
  const { body, req } = state;
  if (!isRecord(body) || body.method !== 'tools/call' || !isRecord(body.params)) return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id)) || typeof params.name !== 'string') return undefined;
  if (!env.elicitationClients.elicits(state.connection.id)) return undefined;
  if (!(req.headers.accept ?? '').toLowerCase().includes('text/event-stream')) return undefined;
  const tool = state.tools.find((t) => t.declaration.name === params.name);
  const args = params.arguments ?? {};
  if (!tool || !isRecord(args)) return undefined;
  return claimChecked(env, state, id as string | number, tool, args);
}

async function claimChecked(
  env: ServeEnv,
  state: Serving,
  id: string | number,
  tool: CatalogueTool,
  args: Record<string, unknown>,
): Promise<WithCall | undefined> {
  const checked = await tool.inputSchema['~standard'].validate(args);
  if (checked.issues || !mayAsk(tool.declaration)) return undefined;
  if (!(await servedAsLegacy(state.req, state.body, env.maxBodyBytes))) return undefined;
  return extended(state, { call: { id, tool, args: checked.value } });
}
