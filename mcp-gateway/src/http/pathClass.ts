/**
 * Which kind of answer a path gives. API paths are called by programs: they always answer
 * JSON, whatever the Accept header says (a browser-like Accept on `/client/%2e%2e/…` must not
 * turn an API error into an HTML page). Only page routes (sign-in, consent, AI connections)
 * may answer HTML, and only to callers that prefer it.
 */
import type { Context } from 'koa';

/** `/client/…`, `/mcp/…`, the OAuth endpoints programs call, discovery metadata, the OpenAPI document, health. */
const API_PATH = /^\/(client|mcp|\.well-known)(\/|$)|^\/oauth\/(token|revoke|register)(\/|$)|^\/(openapi\.json|healthz|readyz)$/;

export function isApiPath(path: string): boolean {
  return API_PATH.test(path);
}

/** True when an error or a 404 at this request is answered with an HTML page. */
export function answersHtml(ctx: Context): boolean {
  return !isApiPath(ctx.path) && ctx.accepts('html', 'json') === 'html';
}
