/** The MCP endpoint `{api_url}/mcp/{dataset}` as a Koa router for the gateway app. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { errorBoundary, type ErrorShape } from '../http/errors.ts';
import { McpAnswer } from './answer.ts';
import { createMcpEndpoint, type McpEndpoint } from './http.ts';
import type { McpDeps } from './types.ts';

export type { McpConnection, McpDeps, TokenResolution, LedgerResponse, LedgerMethod, McpLogger } from './types.ts';
export { resourceMetadataUrl } from './challenge.ts';
export { CATALOGUE } from './tools/catalogue.ts';

export interface McpRouter extends Router {
  /** aborts in-flight MCP exchanges (call on shutdown) */
  closeMcp(): Promise<void>;
}

/**
 * A JSON-RPC error without an id, written on the Node response as the endpoint writes its
 * own answers (the endpoint catches what it throws itself; this covers the router around it).
 */
const mcpErrors: ErrorShape = (ctx, { status, message }) => {
  ctx.status = status;
  ctx.respond = false;
  McpAnswer.jsonRpcError(status, status >= 500 ? -32603 : -32600, message).send(ctx.res);
};

export function createMcpRouter(deps: McpDeps): McpRouter {
  const endpoint: McpEndpoint = createMcpEndpoint(deps);
  const router = new Router() as McpRouter;
  router.use(errorBoundary(mcpErrors, deps.log));
  router.all('/mcp/:dataset', async (ctx: Context) => {
    const dataset = String(ctx.params.dataset);
    ctx.respond = false;
    // a body parser mounted before this router may already have consumed the stream
    const parsed = ctx.req.readableEnded ? (ctx.request as { body?: unknown }).body : undefined;
    await endpoint.handle(ctx.req, ctx.res, dataset, parsed);
  });
  router.closeMcp = () => endpoint.close();
  return router;
}
