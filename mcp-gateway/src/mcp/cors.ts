import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Browser-based MCP clients (the MCP Inspector, web assistants) call `/mcp/{dataset}` from
 * their own origin. A Bearer token is not an ambient credential: a page can send one only
 * if it holds it, so a request that carries `Authorization` is accepted from any `Origin`
 * (steps.ts checkHostAndOrigin) and the browser may read the answer. Requests without one
 * keep the DNS-rebinding protection: a foreign `Origin` is refused.
 *
 * The preflight (OPTIONS) is answered before any other step: a browser never sends the
 * token with it. Cookies are never read here, so no `Allow-Credentials`.
 */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Last-Event-ID',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Session-Id',
];
export const CORS_EXPOSED_HEADERS = [
  'WWW-Authenticate',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Retry-After',
  'RateLimit-Policy',
  'RateLimit',
];
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';

/** Sets the CORS answer headers for a request that names its Origin. */
export function allowOrigin(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
  res.setHeader('Vary', 'Origin');
}

/** Answers a CORS preflight (OPTIONS with Access-Control-Request-Method); false when the request is none. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'OPTIONS') return false;
  allowOrigin(req, res);
  res.writeHead(204, {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(', '),
    'Access-Control-Max-Age': '600',
    'Cache-Control': 'no-store',
  });
  res.end();
  return true;
}
