/** The MCP endpoint `{api_url}/mcp/{dataset}` as a Koa router for the gateway app. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { createMcpEndpoint, type McpEndpoint } from './http.ts';
import type { McpDeps } from './types.ts';

export type { McpConnection, McpDeps, TokenResolution, LedgerResponse, LedgerMethod, McpLogger } from './types.ts';
export { resourceMetadataUrl } from './challenge.ts';
export { CATALOGUE } from './tools/catalogue.ts';

export interface McpRouter extends Router {
  /** aborts in-flight MCP exchanges (call on shutdown) */
  closeMcp(): Promise<void>;
}

export function createMcpRouter(deps: McpDeps): McpRouter {
  const endpoint: McpEndpoint = createMcpEndpoint(deps);
  const router = new Router() as McpRouter;
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
