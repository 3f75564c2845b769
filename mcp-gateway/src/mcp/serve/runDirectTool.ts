/** Serving stage: the tool's REST call to the ledger as the connected person (server.ts `runTool`). */
import { runTool } from '../server.ts';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { WithCall } from './claimLegacyConfirm.ts';
import type { ServeEnv } from './state.ts';
import { extended } from '../pipeline.ts';

export interface DirectRun extends WithCall {
  result: CallToolResult;
}

export function runDirectTool({ stateKey }: ServeEnv, state: WithCall): Promise<DirectRun> {
  const { call } = state;
  return runTool(state.check.toolRun(stateKey), state.connection, call.tool, call.args, call.id).then((result) =>
    extended(state, { result }),
  );
}
