/**
 * Which kind of answer a path gives. API paths are called by programs: they always answer
 * JSON, whatever the Accept header says (a browser-like Accept on `/client/%2e%2e/…` must not
 * turn an API error into an HTML page). Only page routes (sign-in, consent, AI connections)
 * may answer HTML, and only to callers that prefer it.
 */
import type { Context } from 'koa';

/** `/client/…`, `/mcp/…`, the OAuth endpoints programs call, discovery metadata, the OpenAPI document, health. */
const API_PATH =
  /^\/(client|mcp|\.well-known)(\/|$)|^\/oauth\/(token|revoke|register)(\/|$)|^\/(openapi\.json|healthz|readyz)$/;

export function isApiPath(path: string): boolean {
  return API_PATH.test(path);
}

/** The endpoints OAuth clients call, which answer errors in RFC 6749's shape (`{error, error_description}`). */
const OAUTH_CLIENT_PATH = /^\/oauth\/(token|revoke|register)(\/|$)/;

export function isOAuthClientPath(path: string): boolean {
  return OAUTH_CLIENT_PATH.test(path);
}

/** True when an error or a 404 at this request is answered with an HTML page. */
export function answersHtml(ctx: Context): boolean {
  return !isApiPath(ctx.path) && ctx.accepts('html', 'json') === 'html';
}

/** Route classes for metrics: a small fixed set, so a label never carries a path, dataset or id. */
const ROUTE_CLASSES: ReadonlyArray<[RegExp, string]> = [
  [/^\/client\//, 'client'],
  [/^\/mcp(\/|$)/, 'mcp'],
  [/^\/\.well-known\//, 'well_known'],
  [/^\/oauth\/authorize$/, 'oauth_authorize'],
  [/^\/oauth\/token$/, 'oauth_token'],
  [/^\/oauth\/revoke$/, 'oauth_revoke'],
  [/^\/oauth\/register$/, 'oauth_register'],
  [/^\/sign(in|out)$/, 'signin'],
  [/^\/account\//, 'account'],
  [/^\/management\//, 'management'],
  [/^\/(healthz|readyz)$/, 'health'],
  [/^\/(openapi\.json|docs(\/|$))/, 'ledger_docs'],
];

export function routeClass(path: string): string {
  for (const [pattern, name] of ROUTE_CLASSES) if (pattern.test(path)) return name;
  return path === '/' ? 'root' : 'other';
}
