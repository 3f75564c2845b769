import { createReadStream, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { AppDeps } from '../../kernel/deps.ts';
import { ApiError } from '../../kernel/errors.ts';
import { buildOpenApi } from '../../kernel/openapi.ts';
import { CONTRACTS } from '@ledger/shared';

/**
 * The API reference's renderer: Scalar's standalone bundle, served from the installed npm
 * package (never a CDN), so the page works offline and loads only same-origin code.
 */
const RENDERER_FILE = fileURLToPath(import.meta.resolve('@scalar/api-reference/browser/standalone.js'));
export const RENDERER_PATH = '/docs/scalar.js';

/**
 * Only same-origin scripts, requests and frames. Styles allow 'unsafe-inline' because the
 * renderer injects its CSS as <style> elements; default fonts are off (they come from a CDN).
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The reference page: a JSON (not executed) element tells the renderer where the document is.
 * The renderer's AI agent is off: it talks to Scalar's servers (which the CSP refuses anyway,
 * with console errors) and is switched on by itself on localhost. The empty icon spares the
 * browser's /favicon.ico request (a 404).
 */
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ledger REST API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<script id="api-reference" type="application/json" data-url="/openapi.json"
 data-configuration='{"withDefaultFonts":false,"hideClientButton":false,"agent":{"disabled":true}}'></script>
<script src="${RENDERER_PATH}"></script>
</body>
</html>
`;

/** Health, readiness, the OpenAPI document and its rendered reference; no authentication. */
export function metaRouter({ db, config }: AppDeps): Router {
  const router = new Router();
  let openapi: object | undefined;
  router.get('/openapi.json', (ctx) => {
    // `servers` is the public origin: the document describes the API as callers reach it
    openapi ??= buildOpenApi(CONTRACTS, config.publicUrl);
    ctx.body = openapi;
  });
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });
  router.get(RENDERER_PATH, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.length = statSync(RENDERER_FILE).size;
    ctx.body = createReadStream(RENDERER_FILE);
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await db.raw('select 1');
      ctx.body = { status: 'ready' };
    } catch {
      throw new ApiError('unavailable', 'The database is not reachable.');
    }
  });
  return router;
}
