/**
 * Forwards the ledger's public paths (`/client/*`, the OpenAPI document and the API
 * reference) to the ledger unchanged and streamed: method, path and query, headers (minus
 * hop-by-hop ones) and body go up; status, headers and body come back.
 * X-Forwarded-For/-Proto/-Host tell the ledger who asked, X-Request-Id which request this
 * is (the gateway's id, also in its own logs). Nothing else is forwarded;
 * in particular never `/internal/*`.
 *
 * Connection rules (docs/operations.md, "The public origin's proxy"):
 * - `Expect: 100-continue` is answered by the gateway's own HTTP server (Node answers
 *   `100 Continue` before the request reaches Koa) and is not forwarded: the expectation
 *   is between the client and the gateway, and undici refuses to send it.
 * - The ledger may answer before reading the whole body (401 before the body, 413 above
 *   the limit, 4xx for a body that does not decode). The upstream connection stays usable
 *   because both sides finish the message: undici drops a connection whose answer came while
 *   it was still writing, and the ledger reads the rest of an abandoned body into nothing
 * (discardAbandonedBody in shared/src/httpServer.ts, up to 64 MiB after the answer). Closing instead (`Connection:
 * close`) is worse: the ledger would close with unread bytes and the gateway's write fail (EPIPE) before it reads the
 * answer.
 * - A connection-level failure before any answer (reset, closed socket) is retried once for
 *   idempotent requests without a body; anything else becomes 502 (test/proxyRetry.test.ts).
 * - When the ledger answered before the client's body was fully sent, the client gets the
 *   answer and the gateway's server reads the rest of the body into nothing (the same
 *   discardAbandonedBody, in src/server.ts), so the client can read the answer and the
 *   connection does not stay half-read.
 */
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import type { Dispatcher } from 'undici';
import type { Logger } from '../logger.ts';
import { jsonErrorBody } from './errors.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'proxy-connection',
  'http2-settings',
  // answered by the gateway itself (see above)
  'expect',
]);

/** Retried once when they fail at the connection level before any answer (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Errors meaning the upstream connection broke, not that the ledger refused or timed out. */
const CONNECTION_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** The ledger's own documentation paths served on the public origin (GET/HEAD only). */
export const LEDGER_DOC_PATHS = /^\/(openapi\.json|docs(\/[A-Za-z0-9._-]+)?)$/;

/** True for the paths that go to the ledger's key-based REST API. */
export function isClientPath(path: string): boolean {
  // dot segments and encoded slashes/backslashes (also percent-encoded) could climb out of
  // /client/ on a normalizing server
  return path.startsWith('/client/') && !/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path) && !/\\|%2f|%5c/i.test(path);
}

/** True for every request the gateway forwards to the ledger. */
export function isLedgerRequest(method: string, path: string): boolean {
  return isClientPath(path) || ((method === 'GET' || method === 'HEAD') && LEDGER_DOC_PATHS.test(path));
}

/** A request carries a body when it says so (RFC 9112 §6.3), whatever its method. */
function hasRequestBody(headers: Context['req']['headers']): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

function isConnectionFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECTION_FAILURES.has(code);
}

export function forwardToLedger(ledgerUrl: string, dispatcher: Dispatcher, publicUrl: string, log: Logger) {
  const ledger = new URL(ledgerUrl);
  const publicHost = new URL(publicUrl).host;
  const publicProto = new URL(publicUrl).protocol.slice(0, -1);
  return async function forward(ctx: Context): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    const connectionTokens = String(ctx.req.headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim());
    for (const [name, value] of Object.entries(ctx.req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.includes(name)) continue;
      if (
        name === 'x-forwarded-for' ||
        name === 'x-forwarded-proto' ||
        name === 'x-forwarded-host' ||
        name === 'x-request-id'
      )
        continue;
      headers[name] = value;
    }
    // the client as the gateway determined it (TRUST_PROXY, clientIp.ts): one address the
    // ledger may trust, not a chain whose left end the client wrote
    headers['x-forwarded-for'] = ctx.ip;
    // the gateway's id for this request (the caller's when well-formed), so both logs share it
    if (typeof ctx.state.requestId === 'string') headers['x-request-id'] = ctx.state.requestId;
    headers['x-forwarded-proto'] = publicProto;
    headers['x-forwarded-host'] = publicHost;

    const withBody = hasRequestBody(ctx.req.headers);
    // undici destroys a request body it stops writing; the client's own request stream must
    // not go with it (that would cut the client's connection before it reads the answer)
    const body = withBody ? relayBody(ctx.req) : undefined;
    const retryable = !withBody && IDEMPOTENT.has(ctx.method);
    ctx.respond = false;

    const options: Dispatcher.RequestOptions = {
      origin: ledger.origin,
      path: ctx.url,
      method: ctx.method as Dispatcher.HttpMethod,
      headers,
      body,
    };
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await dispatcher.request(options).catch((err: unknown) => {
        if (!retryable || !isConnectionFailure(err)) throw err;
        ctx.state.log?.info({ err: (err as Error).message, path: ctx.path }, 'ledger connection failed; retrying once');
        return dispatcher.request(options);
      });
    } catch (err) {
      body?.destroy();
      log.error({ err: (err as Error).message, path: ctx.path }, 'ledger unreachable');
      if (!ctx.res.headersSent) {
        ctx.res.writeHead(502, { 'content-type': 'application/json' });
        ctx.res.end(JSON.stringify(jsonErrorBody('unavailable', 'The ledger cannot be reached.')));
      }
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      out[name] = value;
    }
    // the caller gets the id the gateway logged (the ledger's is the same when it kept ours)
    if (typeof ctx.state.requestId === 'string') out['x-request-id'] = ctx.state.requestId;
    ctx.res.writeHead(upstream.statusCode, out);
    try {
      await pipeline(upstream.body, ctx.res);
    } catch (err) {
      log.warn({ err: (err as Error).message, path: ctx.path }, 'forwarding interrupted');
      ctx.res.destroy();
    }
  };
}

/** The client's body as a separate stream for undici, ended or aborted with the client's. */
function relayBody(req: Context['req']): PassThrough {
  const relay = new PassThrough();
  req.pipe(relay);
  req.once('error', (err) => relay.destroy(err));
  req.once('close', () => {
    if (!req.complete) relay.destroy(new Error('the client aborted its request'));
  });
  return relay;
}
