/**
 * Forwards `/client/*` to the ledger unchanged and streamed: method, path and query,
 * headers (minus hop-by-hop ones) and body go up; status, headers and body come back.
 * X-Forwarded-For/-Proto/-Host tell the ledger who asked. Nothing else is forwarded;
 * in particular never `/internal/*`.
 */
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import type { Dispatcher } from 'undici';
import type { Logger } from '../logger.ts';

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host',
  'proxy-connection', 'http2-settings',
]);

/** True for the paths that go to the ledger's key-based REST API. */
export function isClientPath(path: string): boolean {
  // dot segments (also percent-encoded) could climb out of /client/ on a normalizing server
  return path.startsWith('/client/') && !/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path) && !path.includes('\\');
}

export function forwardToLedger(ledgerUrl: string, dispatcher: Dispatcher, publicUrl: string, log: Logger) {
  const ledger = new URL(ledgerUrl);
  const publicHost = new URL(publicUrl).host;
  const publicProto = new URL(publicUrl).protocol.slice(0, -1);
  return async function forward(ctx: Context): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    const connectionTokens = String(ctx.req.headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim());
    for (const [name, value] of Object.entries(ctx.req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.includes(name)) continue;
      if (name === 'x-forwarded-for' || name === 'x-forwarded-proto' || name === 'x-forwarded-host') continue;
      headers[name] = value;
    }
    const prior = ctx.app.proxy ? ctx.req.headers['x-forwarded-for'] : undefined;
    const peer = ctx.req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = prior ? `${prior}, ${peer}` : peer;
    headers['x-forwarded-proto'] = publicProto;
    headers['x-forwarded-host'] = publicHost;

    const hasBody = ctx.method !== 'GET' && ctx.method !== 'HEAD';
    ctx.respond = false;
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await dispatcher.request({
        origin: ledger.origin,
        path: ctx.url,
        method: ctx.method as Dispatcher.HttpMethod,
        headers,
        body: hasBody ? ctx.req : undefined,
      });
    } catch (err) {
      log.error({ err: (err as Error).message, path: ctx.path }, 'ledger unreachable');
      if (!ctx.res.headersSent) {
        ctx.res.writeHead(502, { 'content-type': 'application/json' });
        ctx.res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The ledger cannot be reached.' } }));
      }
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      out[name] = value;
    }
    ctx.res.writeHead(upstream.statusCode, out);
    try {
      await pipeline(upstream.body, ctx.res);
    } catch (err) {
      log.warn({ err: (err as Error).message, path: ctx.path }, 'forwarding interrupted');
      ctx.res.destroy();
    }
  };
}
