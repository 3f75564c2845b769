/** Serving stage: the SDK's Response written on the Node response (nodeBridge.ts: JSON whole, SSE streamed). */
import { writeResponse } from '../nodeBridge.ts';
import type { Answered } from './runSdk.ts';
import { SENT, type Sent, type ServeEnv } from './state.ts';

export async function writeWebResponse(_env: ServeEnv, state: Answered): Promise<Sent> {
  await writeResponse(state.res, state.response, state.client);
  return SENT;
}
