/**
 * The gateway's Node request listener: the MCP endpoint (`/mcp/{dataset}`, the hot path)
 * straight on the Node server, everything else through the Koa app (app.ts). The MCP endpoint
 * reads its own body, answers its own errors and writes on the Node response (mcp/http.ts),
 * so Koa's context, middleware chain and router would only cost it time; it gets the same
 * request scope as every Koa request (requestScope.ts: id, client IP, log line, metrics).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayDeps } from '../deps.ts';
import { McpAnswer } from '../mcp/answer.ts';
import { serveIcon } from '../mcp/icons.ts';
import { createMcpEndpoint, mcpDatasetOf, type McpEndpoint } from '../mcp/index.ts';
import { mcpDepsFrom } from '../mcp/wiring.ts';
import { runWithRequestId } from '../requestContext.ts';
import { createApp } from './app.ts';
import { beginRequest, type RequestScope } from './requestScope.ts';

export interface GatewayListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** ends the MCP endpoint's open exchanges (shutdown) */
  close(): Promise<void>;
}

export function createListener(deps: GatewayDeps): GatewayListener {
  const koa = createApp(deps).callback();
  const mcp: McpEndpoint = createMcpEndpoint(mcpDepsFrom(deps));

  // the answer's log line and metrics, and a failure to write the answer: functions of their
  // own rather than closures made for every MCP request
  const done = (scope: RequestScope, req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    scope.end(req.method ?? '', query < 0 ? url : url.slice(0, query), res.statusCode);
  };
  const failed = (scope: RequestScope, res: ServerResponse, err: unknown) => {
    // the endpoint answers its own failures; this is a failure to write that answer
    deps.log.error({ reqId: scope.id, err: err instanceof Error ? err.message : String(err) }, 'MCP request failed');
    if (!res.headersSent) McpAnswer.jsonRpcError(500, -32603, 'Internal error.').send(res);
    else res.destroy();
  };

  const serveMcp = (req: IncomingMessage, res: ServerResponse, dataset: string) => {
    const scope = beginRequest(deps, req, res);
    // the endpoint answers at once when nothing waits (a refusal), else by a promise: one
    // `then` for both outcomes rather than catch and finally (a promise each, per request)
    let served: unknown;
    try {
      served = runWithRequestId(scope.id, () => mcp.handle(req, res, dataset));
    } catch (err) {
      failed(scope, res, err);
    }
    if (!(served instanceof Promise)) return done(scope, req, res);
    served.then(
      () => done(scope, req, res),
      (err: unknown) => {
        failed(scope, res, err);
        done(scope, req, res);
      },
    );
  };

  const listener = ((req, res) => {
    const dataset = mcpDatasetOf(req.url);
    // the MCP server's and tools' icons (mcp/icons.ts), beside the endpoint that lists them
    if (dataset === undefined) return void (serveIcon(req, res) || koa(req, res));
    serveMcp(req, res, dataset);
  }) as GatewayListener;
  listener.close = () => mcp.close();
  return listener;
}
