/**
 * Serving stage: the call's result, after the tool's output schema, as the stream's last
 * event — unless the client went away (nothing more to write).
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { checkedOutput } from '../directCall.ts';
import type { Ran } from './askAndRun.ts';
import { SENT, type Sent, type ServeEnv } from './state.ts';

export async function finishCallStream(_env: ServeEnv, state: Ran): Promise<Sent> {
  const { call, result, stream } = state;
  // an elicit asker never yields an input_required result
  if (stream.signal.aborted || isInputRequiredResult(result)) return SENT;
  stream.finish(call.id, await checkedOutput(call.tool, result));
  return SENT;
}
