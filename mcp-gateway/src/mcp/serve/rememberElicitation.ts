/**
 * Serving stage: at an `initialize`, whether the client declared form-mode elicitation, so a
 * later 2025-era consequential call of the connection can ask the person (legacyConfirm.ts).
 */
import { elicitsForms } from '../confirm.ts';
import { isRecord } from '../tools/isRecord.ts';
import type { ServeEnv, Serving } from './state.ts';

export function rememberElicitation({ elicitationClients }: ServeEnv, state: Serving): Serving {
  for (const r of state.requests) {
    if (r.method === 'initialize')
      elicitationClients.remember(
        state.connection.id,
        elicitsForms(isRecord(r.params?.capabilities) ? r.params.capabilities : undefined),
      );
  }
  return state;
}
