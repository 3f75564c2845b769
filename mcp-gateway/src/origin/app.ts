/**
 * The gateway's Koa application: the public origin (docs/architecture.md) but for the MCP endpoint,
 * which the Node server serves before Koa (listener.ts).
 */
import Koa, { type Context, type Next } from 'koa';
import type { GatewayDeps } from '../deps.ts';
import { authorizeRouter } from '../oauth/authorize.ts';
import { metadataRouter } from '../oauth/metadata.ts';
import { registerRouter } from '../oauth/register.ts';
import { tokenRouter } from '../oauth/token/endpoint.ts';
import { appRouter } from '../pages/app/router.ts';
import { assetsRouter } from '../pages/app/assets.ts';
import { connectionsRouter } from '../pages/connections.tsx';
import { errorPage } from '../http/page.tsx';
import { signInRouter } from '../pages/signin.tsx';
import { forwardToLedger, isLedgerRequest } from '../http/proxy.ts';
import { parseBody } from '../http/bodyParser.ts';
import { errorBoundary, fallbackErrors, jsonErrorBody } from '../http/errors.ts';
import { answersHtml } from '../http/pathClass.ts';
import { beginRequest } from './requestScope.ts';
import { runWithRequestId } from '../requestContext.ts';

/** Endpoints a browser-based public client may call cross-origin (no cookies involved). */
const CORS_PATHS = /^\/(\.well-known\/|oauth\/(token|revoke|register)$)/;

/** The request's scope (requestScope.ts) around everything the app does for it. */
function requestScope(deps: GatewayDeps) {
  return async function serveRequest(ctx: Context, next: Next) {
    const scope = beginRequest(deps, ctx.req, ctx.res);
    ctx.state.requestId = scope.id;
    ctx.state.log = deps.log;
    ctx.request.ip = scope.ip;
    try {
      await runWithRequestId(scope.id, next);
    } finally {
      scope.end(ctx.method, ctx.path, ctx.status);
    }
  };
}

function cors() {
  return async function allowCors(ctx: Context, next: Next) {
    if (!CORS_PATHS.test(ctx.path)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'Retry-After, RateLimit-Policy, RateLimit, WWW-Authenticate');
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
  app.use(cors());

  for (const router of [
    metadataRouter(deps),
    registerRouter(deps),
    authorizeRouter(deps),
    tokenRouter(deps),
    signInRouter(deps),
    connectionsRouter(deps),
    assetsRouter(),
    appRouter(deps),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  // a body no route took is still judged before the 404; paths under /mcp never have their
  // body parsed by the gateway (the endpoint reads its own, listener.ts; others are a 404)
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
