/** Serving stage: the call's stream opens before the tool runs, so a pending connection check is made first. */
import { McpAnswer } from '../answer.ts';
import type { WithCall } from './claimLegacyConfirm.ts';
import type { ServeEnv } from './state.ts';

export async function checkBeforeStream({ deps }: ServeEnv, state: WithCall): Promise<WithCall | McpAnswer> {
  const refusal = await state.check.beforeStreaming();
  return refusal ? McpAnswer.tokenRefused(deps.publicUrl, state.dataset, refusal) : state;
}
