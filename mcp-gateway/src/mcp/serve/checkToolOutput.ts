/** Serving stage: the result after the tool's output schema, as the SDK's McpServer checks it (directCall.ts). */
import { checkedOutput } from '../directCall.ts';
import type { DirectRun } from './runDirectTool.ts';
import type { ServeEnv } from './state.ts';

export async function checkToolOutput(_env: ServeEnv, state: DirectRun): Promise<DirectRun> {
  return { ...state, result: await checkedOutput(state.call.tool, state.result) };
}
