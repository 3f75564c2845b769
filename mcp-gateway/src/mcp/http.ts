/**
 * The MCP endpoint `{api_url}/mcp/{dataset}`, as ordered lists of named stages read top to
 * bottom:
 *
 *   CORS (cors.ts) → ADMISSION (steps.ts: Host/Origin, token, rate limit, body, scope,
 *   connection check) → PREPARE (serve/paths.ts: the request's tools, permitted resources,
 *   elicitation answers) → the first serving path that claims the request (serve/paths.ts):
 *   `legacyConfirm` (a 2025-era write the gateway confirms on the call's stream), `direct`
 *   (a single 2026-07-28 `tools/call`, answered without the SDK, directCall.ts) or `sdk`
 *   (everything else, through the SDK's handler with a per-request server).
 *
 * The connection check at the ledger (person still an active owner/admin, AI connections
 * on) is made by a separate lookup for every request except a 2026-07-28 `tools/call`: there
 * the tool's own REST call is the check, because the ledger enforces the same preconditions
 * on every service-credential request (403 `connection_not_allowed`). When the ledger
 * refuses, the connection ends for good and the request is answered 401 `invalid_token`
 * like any ended connection; when the call never reached the ledger (e.g. invalid input),
 * the lookup is made after all, before the answer is sent (serve/connectionCheck.ts).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type AuthInfo, type McpRequestContext } from '@modelcontextprotocol/server';
import { AccessCache } from './access.ts';
import { allowOrigin, answerPreflight } from './cors.ts';
import { McpAnswer } from './answer.ts';
import { ElicitationClients, PendingElicitations } from './legacyConfirm.ts';
import { ConnectionRateLimiter } from './rateLimit.ts';
import { buildMcpServer } from './server.ts';
import { andThen, type Maybe } from './maybe.ts';
import { ADMISSION, publicOriginOf, type StepEnv } from './steps.ts';
import { extended } from './pipeline.ts';
import { PREPARE, servePrepared } from './serve/paths.ts';
import type { ServeEnv, Serving } from './serve/state.ts';
import type { McpDeps } from './types.ts';

export { claimsModernEra } from './serve/era.ts';
export { connectionRefusal } from './serve/connectionCheck.ts';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface McpEndpoint {
  /**
   * Serves one request to `/mcp/{dataset}`; the endpoint reads the body itself. A promise only
   * when the request waits for something (its body, the ledger); it never rejects, and an
   * answer that cannot be made is a 500 the endpoint writes itself.
   */
  handle(req: IncomingMessage, res: ServerResponse, dataset: string): Maybe<void>;
  close(): Promise<void>;
}

export function createMcpEndpoint(deps: McpDeps): McpEndpoint {
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const admission: StepEnv = {
    deps,
    publicOrigin: publicOriginOf(deps.publicUrl),
    maxBodyBytes,
    limiter: deps.rateLimiter ?? ConnectionRateLimiter.inMemory(deps.requestsPerMinute ?? 120, deps.log),
  };
  const stateKey = deps.confirmationKey ?? randomBytes(32);
  const sdkRequests = new WeakMap<AuthInfo, Serving>();
  const factory = (ctx: McpRequestContext) => {
    const state = ctx.authInfo ? sdkRequests.get(ctx.authInfo) : undefined;
    if (!state) throw new Error('MCP request reached the SDK without an authenticated connection');
    return buildMcpServer(state.check.toolRun(stateKey), state.connection, state.tools, state.permitted);
  };
  const onerror = (err: Error) => deps.log.warn({ err: err.message }, 'MCP request rejected by the SDK');
  const serving: ServeEnv = {
    deps,
    maxBodyBytes,
    access: new AccessCache(deps, deps.accessCacheMs ?? 30_000),
    stateKey,
    elicitationClients: new ElicitationClients(),
    pendingElicitations: new PendingElicitations(),
    sdk: createMcpHandler(factory, { legacy: 'stateless', onerror, maxRequestBodySize: maxBodyBytes }),
    sdkRequests,
  };

  const failed = (dataset: string, res: ServerResponse, err: unknown) => {
    deps.log.error({ dataset, err: err instanceof Error ? err.message : String(err) }, 'MCP request failed');
    McpAnswer.jsonRpcError(500, -32603, 'Internal error.').send(res);
  };

  return {
    handle(req, res, dataset) {
      try {
        // browser clients: the preflight is answered first, every answer readable by the caller's origin (cors.ts)
        if (answerPreflight(req, res)) return;
        allowOrigin(req, res);
        // admission, preparation and the serving path run on without a promise until one of
        // them waits (pipeline.ts): for a tools/call, the body's last bytes and the ledger call
        const served = andThen(ADMISSION.run(admission, { req, dataset }), (admitted) => {
          if (admitted instanceof McpAnswer) return admitted.send(res);
          return andThen(PREPARE.run(serving, extended(admitted, { res })), (prepared) => {
            if (prepared instanceof McpAnswer) return prepared.send(res);
            return andThen(servePrepared(serving, prepared), (outcome) => {
              if (outcome instanceof McpAnswer) outcome.send(res);
            });
          });
        });
        if (served instanceof Promise) return served.catch((err: unknown) => failed(dataset, res, err));
      } catch (err) {
        failed(dataset, res, err);
      }
    },
    close: () => serving.sdk.close(),
  };
}
