/**
 * Serving stage: asks the person on the call's stream (an `elicitation/create` the client
 * answers by its next POST), then runs the tool as confirmed (confirm.ts `runConfirmed`).
 */
import { runConfirmed, type RunTool } from '../confirm.ts';
import { runTool } from '../server.ts';
import type { Streaming } from './openCallStream.ts';
import type { ServeEnv } from './state.ts';
import { extended } from '../pipeline.ts';

export interface Ran extends Streaming {
  result: Awaited<ReturnType<typeof runConfirmed>>;
}

export async function askAndRun({ pendingElicitations, stateKey }: ServeEnv, state: Streaming): Promise<Ran> {
  const { call, connection, stream } = state;
  const tracked = state.check.toolRun(stateKey);
  const run: RunTool = async (input, confirmation) =>
    stream.signal.aborted
      ? { isError: true, content: [{ type: 'text', text: 'The client went away; nothing was done.' }] }
      : runTool(tracked, connection, call.tool, input, call.id, confirmation);
  const result = await runConfirmed(
    { callLedger: tracked.callLedger, stateKey },
    connection,
    call.tool,
    call.args,
    {
      kind: 'elicit',
      elicit: (params) => pendingElicitations.ask(connection.id, params, (m) => stream.send(m), stream.signal),
    },
    run,
  );
  return extended(state, { result });
}
