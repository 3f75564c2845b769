/** The gateway's Koa application: the public origin (DESIGN.md §1). */
import Koa, { type Context, type Next } from 'koa';
import type { GatewayDeps } from '../deps.ts';
import { authorizeRouter } from '../oauth/authorize.ts';
import { metadataRouter } from '../oauth/metadata.ts';
import { registerRouter } from '../oauth/register.ts';
import { tokenRouter } from '../oauth/token/endpoint.ts';
import { connectionsRouter } from '../pages/connections.ts';
import { errorPage } from '../pages/html.ts';
import { signInRouter } from '../pages/signin.ts';
import { forwardToLedger, isLedgerRequest } from './proxy.ts';
import { parseBody } from './bodyParser.ts';
import { errorBoundary, fallbackErrors, jsonErrorBody } from './errors.ts';
import { answersHtml, routeClass } from './pathClass.ts';
import { clientIp } from './clientIp.ts';
import { requestIdFrom, runWithRequestId } from '../requestContext.ts';
import { createMcpRouter } from '../mcp/index.ts';
import { mcpDepsFrom } from '../mcp/wiring.ts';

/** Endpoints a browser-based public client may call cross-origin (no cookies involved). */
const CORS_PATHS = /^\/(\.well-known\/|oauth\/(token|revoke|register)$)/;

/**
 * Every request: its id (the caller's X-Request-Id when well-formed, else a new one; sent
 * back, on every ledger call and in every log line of the request), the client IP
 * (X-Forwarded-For only as TRUST_PROXY allows, clientIp.ts), one log line and the request
 * metrics when it is answered.
 */
function requestScope(deps: GatewayDeps) {
  return async function serveRequest(ctx: Context, next: Next) {
    const id = requestIdFrom(ctx.get('X-Request-Id'));
    ctx.state.requestId = id;
    ctx.state.log = deps.log;
    ctx.request.ip = clientIp(ctx.req.socket.remoteAddress ?? '', ctx.req.headers['x-forwarded-for'], deps.config.trustProxy);
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await runWithRequestId(id, next);
    } finally {
      const ms = performance.now() - started;
      deps.metrics.observeRequest(routeClass(ctx.path), ctx.method, ctx.status, ms / 1000);
      // the path only: query strings may carry codes or state
      deps.log.info({ reqId: id, method: ctx.method, path: ctx.path, status: ctx.status, ip: ctx.ip, ms: Math.round(ms) }, 'request');
    }
  };
}

function cors() {
  return async function allowCors(ctx: Context, next: Next) {
    if (!CORS_PATHS.test(ctx.path)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'Retry-After, WWW-Authenticate');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, Authorization, MCP-Protocol-Version');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    return next();
  };
}

export function createApp(deps: GatewayDeps): Koa {
  // X-Forwarded-* are read only where TRUST_PROXY says (clientIp.ts), never by Koa itself
  const app = new Koa({ proxy: false });
  const forward = forwardToLedger(deps.config.ledgerUrl, deps.ledger.dispatcher, deps.config.publicUrl, deps.log);

  app.use(requestScope(deps));
  // what no router's own boundary answered (each router declares its error shape)
  app.use(errorBoundary(fallbackErrors, deps.log));
  // the key-based REST API and its documentation go to the ledger untouched (body not parsed here)
  app.use(async (ctx, next) => (isLedgerRequest(ctx.method, ctx.path) ? forward(ctx) : next()));
  // before the OAuth and page routers: an MCP request (the hot path) does not walk their
  // route tables; none of them serves /mcp/…, and CORS is not offered there
  app.use(createMcpRouter(mcpDepsFrom(deps)).routes());
  app.use(cors());

  for (const router of [metadataRouter(deps), registerRouter(deps), authorizeRouter(deps), tokenRouter(deps), signInRouter(deps), connectionsRouter(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  // a body no route took is still judged before the 404 (the MCP paths read their own bodies)
  app.use(async (ctx, next) => (ctx.path.startsWith('/mcp/') || ctx.path === '/mcp' ? next() : parseBody(ctx, next)));

  app.use(async (ctx, next) => {
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path === '/readyz') {
      await deps.db.raw('select 1');
      ctx.body = { status: 'ready' };
      return;
    }
    if (ctx.path === '/' && ctx.method === 'GET') {
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect('/account/ai-connections');
    }
    return next();
  });

  app.use(async (ctx) => {
    if (ctx.body !== undefined) return;
    ctx.status = 404;
    if (answersHtml(ctx)) errorPage(ctx, 404, 'Not found', 'There is no page at this address.');
    else ctx.body = jsonErrorBody('not_found', `No route for ${ctx.method} ${ctx.path}.`);
  });
  return app;
}
