/**
 * How an admitted request is served, in order, as data (mcpSteps.test.ts checks the lists):
 *
 *   PREPARE:   trackConnection → chooseTools → listPermitted → takeElicitationAnswer → rememberElicitation
 *   then the first of SERVING_PATHS whose claim takes the request:
 *     legacyConfirm: claimLegacyConfirm → checkBeforeStream → openCallStream → askAndRun → finishCallStream
 *     direct:        claimDirectCall → runDirectTool → checkToolOutput → refuseEndedConnection → writeDirectAnswer
 *     sdk:           claimSdk → toWebRequest → checkBeforeLegacyStream → runSdk → refuseEndedConnection
 *                    → writeWebResponse
 *
 * Each stage is one file of this folder: a function from the state the stages before it
 * established to the next state, or an `McpAnswer` that ends the request (a refusal); a
 * path's last stage writes the answer. The connection check that admission may leave to the
 * tool's own ledger call is one object per request (connectionCheck.ts), which the stages
 * ask, never a flag they pass on.
 */
import type { McpServedBy } from '../../metrics.ts';
import type { McpAnswer } from '../answer.ts';
import { andThen, type Maybe } from '../maybe.ts';
import { Pipeline } from '../pipeline.ts';
import { askAndRun } from './askAndRun.ts';
import { checkBeforeLegacyStream } from './checkBeforeLegacyStream.ts';
import { checkBeforeStream } from './checkBeforeStream.ts';
import { checkToolOutput } from './checkToolOutput.ts';
import { chooseTools } from './chooseTools.ts';
import { claimDirectCall } from './claimDirectCall.ts';
import { claimLegacyConfirm } from './claimLegacyConfirm.ts';
import { claimSdk } from './claimSdk.ts';
import { finishCallStream } from './finishCallStream.ts';
import { listPermitted } from './listPermitted.ts';
import { openCallStream } from './openCallStream.ts';
import { refuseEndedConnection } from './refuseEndedConnection.ts';
import { rememberElicitation } from './rememberElicitation.ts';
import { runDirectTool } from './runDirectTool.ts';
import { runSdk } from './runSdk.ts';
import type { Sent, ServeEnv, Serving } from './state.ts';
import { takeElicitationAnswer } from './takeElicitationAnswer.ts';
import { toWebRequest } from './toWebRequest.ts';
import { trackConnection } from './trackConnection.ts';
import { writeDirectAnswer } from './writeDirectAnswer.ts';
import { writeWebResponse } from './writeWebResponse.ts';

/** What every admitted request goes through before a path takes it. */
export const PREPARE = Pipeline.start(trackConnection)
  .andThen(chooseTools)
  .andThen(listPermitted)
  .andThen(takeElicitationAnswer)
  .andThen(rememberElicitation);

export interface ServingPath {
  name: string;
  /** counted in the gateway's metrics as answered by */
  servedBy: McpServedBy;
  /** the claim, then the stages, in order */
  readonly names: readonly string[];
  /**
   * Serves the request if the claim takes it (the answer written, or a refusal to send), else
   * hands it to `orElse` (the next path). At once as far as the claim and stages answer at once
   * (pipeline.ts): a path that claims at once adds no promise of its own to the request.
   */
  serve(env: ServeEnv, state: Serving, orElse: () => Maybe<Sent | McpAnswer>): Maybe<Sent | McpAnswer>;
}

function servingPath<S>(
  name: string,
  servedBy: McpServedBy,
  claim: (env: ServeEnv, state: Serving) => Maybe<S | undefined>,
  stages: Pipeline<ServeEnv, S, Sent>,
): ServingPath {
  return {
    name,
    servedBy,
    names: [claim.name, ...stages.names],
    serve(env, state, orElse) {
      return andThen(claim(env, state), (claimed) => {
        if (claimed === undefined) return orElse();
        env.deps.onServed?.(servedBy);
        return stages.run(env, claimed);
      });
    },
  };
}

export const SERVING_PATHS: readonly ServingPath[] = [
  // a 2025-era consequential write from a client that can be asked: the gateway asks on the call's stream
  servingPath(
    'legacyConfirm',
    'direct',
    claimLegacyConfirm,
    Pipeline.start(checkBeforeStream).andThen(openCallStream).andThen(askAndRun).andThen(finishCallStream),
  ),
  // a single 2026-07-28 tools/call: answered without the SDK (directCall.ts)
  servingPath(
    'direct',
    'direct',
    claimDirectCall,
    Pipeline.start(runDirectTool).andThen(checkToolOutput).andThen(refuseEndedConnection).andThen(writeDirectAnswer),
  ),
  // everything else: the SDK
  servingPath(
    'sdk',
    'sdk',
    claimSdk,
    Pipeline.start(toWebRequest)
      .andThen(checkBeforeLegacyStream)
      .andThen(runSdk)
      .andThen(refuseEndedConnection)
      .andThen(writeWebResponse),
  ),
];

/** Serves an admitted, prepared request on the first path that claims it (the SDK's claims every request). */
export function servePrepared(env: ServeEnv, state: Serving, from = 0): Maybe<Sent | McpAnswer> {
  const path = SERVING_PATHS[from];
  if (path === undefined) throw new Error('no serving path claimed the request');
  // the next path as a continuation rather than a `then` on this one's outcome: the path that
  // takes the request returns its stages' own result, without a promise wrapped around it
  return path.serve(env, state, () => servePrepared(env, state, from + 1));
}
