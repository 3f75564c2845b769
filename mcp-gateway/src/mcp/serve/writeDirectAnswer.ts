/** Serving stage: the JSON-RPC answer as the SDK's 2026-07-28 codec encodes it, in one write (directCall.ts). */
import { encodeCallAnswer } from '../directCall.ts';
import { serverInfo } from '../server.ts';
import type { DirectRun } from './runDirectTool.ts';
import { SENT, type Sent, type ServeEnv } from './state.ts';

export function writeDirectAnswer({ deps }: ServeEnv, state: DirectRun): Sent {
  const payload = encodeCallAnswer(state.call.id, state.result, serverInfo(deps.publicUrl));
  state.res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
  });
  state.res.end(payload);
  return SENT;
}
