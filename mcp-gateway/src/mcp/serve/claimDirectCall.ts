/**
 * The direct path's claim: a single 2026-07-28 `tools/call` the request may make, with
 * arguments its input schema accepts (directCall.ts `directCallOf`), answered without the SDK —
 * unless the write may need the person's confirmation (confirm.ts `mayAsk`) (its input_required result and retry are
 * the SDK's), or direct calls are switched off.
 */
import { mayAsk } from '../confirm.ts';
import { directCallOf } from '../directCall.ts';
import { andThen, type Maybe } from '../maybe.ts';
import type { WithCall } from './claimLegacyConfirm.ts';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export function claimDirectCall({ deps }: ServeEnv, state: Serving): Maybe<WithCall | undefined> {
  if (deps.directToolCalls === false) return undefined;
  return andThen(directCallOf(state.req, state.body, state.tools), (call) =>
    !call || mayAsk(call.tool.declaration) ? undefined : extended(state, { call }),
  );
}
