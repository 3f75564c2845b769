/**
 * The SDK path's claim: every request no earlier path took goes to the SDK (2026-07-28, and
 * 2025-era clients through its stateless fallback), authenticated as its connection; the
 * SDK's server factory finds the request by its AuthInfo (http.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export interface ForSdk extends Serving {
  authInfo: AuthInfo;
}

export function claimSdk({ sdkRequests }: ServeEnv, state: Serving): ForSdk {
  const { connection } = state;
  const authInfo: AuthInfo = {
    token: state.token,
    clientId: connection.clientName,
    scopes: [...connection.scopes],
    resource: new URL(state.resource),
    extra: { connectionId: connection.id },
  };
  const served = extended(state, { authInfo });
  sdkRequests.set(authInfo, served);
  // on the Node request too, as the SDK's Node adapter passes it (`req.auth`)
  (state.req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
  return served;
}
