/**
 * Serving stage: the web Request the SDK's handler takes, without a body (the SDK gets the
 * parsed body separately, nodeBridge.ts), aborted when the client goes away.
 */
import { bodylessRequest, NodeClient } from '../nodeBridge.ts';
import type { ForSdk } from './claimSdk.ts';
import type { ServeEnv } from './state.ts';
import { extended } from '../pipeline.ts';

export interface WebExchange extends ForSdk {
  request: Request;
  client: NodeClient;
}

export function toWebRequest(_env: ServeEnv, state: ForSdk): WebExchange {
  const client = new NodeClient(state.res);
  return extended(state, { client, request: bodylessRequest(state.req, client.signal) });
}
