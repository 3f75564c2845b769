/**
 * What the serving stages share (serve/paths.ts): `ServeEnv`, built once per endpoint, and
 * `Serving`, one admitted request on its way to an answer. A path's last stage writes the
 * answer and returns `SENT`; any stage may instead refuse with an `McpAnswer`.
 */
import type { ServerResponse } from 'node:http';
import type { AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import type { AccessCache } from '../access.ts';
import type { ElicitationClients, PendingElicitations } from '../legacyConfirm.ts';
import type { Admitted } from '../steps.ts';
import type { CatalogueTool } from '../tools/catalogue.ts';
import type { McpDeps } from '../types.ts';
import type { ConnectionCheck } from './connectionCheck.ts';

export interface ServeEnv {
  deps: McpDeps;
  maxBodyBytes: number;
  access: AccessCache;
  /** the MAC key of confirmation request states (confirm.ts) */
  stateKey: Uint8Array;
  elicitationClients: ElicitationClients;
  pendingElicitations: PendingElicitations;
  /** the SDK's handler (its server factory finds the request's `Serving` in `sdkRequests`) */
  sdk: ReturnType<typeof createMcpHandler>;
  sdkRequests: WeakMap<AuthInfo, Serving>;
}

export interface Serving extends Admitted {
  res: ServerResponse;
  /** the tools the request's server registers or the direct path may call (chooseTools) */
  tools: readonly CatalogueTool[];
  /** for resource lists: the person's permitted endpoints (undefined: scopes alone filter) */
  permitted?: ReadonlySet<string> | undefined;
  check: ConnectionCheck;
}

/** The answer has been written (the last stage of every path). */
export const SENT = Symbol('sent');
export type Sent = typeof SENT;
