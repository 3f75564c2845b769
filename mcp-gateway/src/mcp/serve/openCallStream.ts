/** Serving stage: the call's answer becomes an SSE stream (legacyConfirm.ts `CallStream`). */
import { CallStream } from '../legacyConfirm.ts';
import type { WithCall } from './claimLegacyConfirm.ts';
import type { ServeEnv } from './state.ts';
import { extended } from '../pipeline.ts';

export interface Streaming extends WithCall {
  stream: CallStream;
}

export function openCallStream(_env: ServeEnv, state: WithCall): Streaming {
  const stream = new CallStream(state.res);
  stream.open();
  return extended(state, { stream });
}
