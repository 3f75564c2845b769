/** Serving stage: the result after the tool's output schema, as the SDK's McpServer checks it (directCall.ts). */
import { checkedOutput } from '../directCall.ts';
import { andThen, type Maybe } from '../maybe.ts';
import type { DirectRun } from './runDirectTool.ts';
import type { ServeEnv } from './state.ts';
import { extended } from '../pipeline.ts';

export function checkToolOutput(_env: ServeEnv, state: DirectRun): Maybe<DirectRun> {
  return andThen(checkedOutput(state.call.tool, state.result), (result) =>
    result === state.result ? state : extended(state, { result }),
  );
}
