import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger.ts';

/**
 * An incoming X-Request-Id is kept when it is 1–128 safe characters — the gateway's rule
 * (mcp-gateway/src/requestContext.ts), so the id the gateway logs for an MCP call or a
 * forwarded request is the one the ledger logs too; anything else is replaced by a new id.
 */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request id (kept from X-Request-Id when well-formed) and one structured log line per request.
 * The request's own logger (`requestLog`) is made only when something logs besides that line:
 * most requests log nothing else, and a pino child per request is work and garbage for nothing.
 * The request line is written by the app's logger with `reqId` first among its fields, which is
 * the line the request's logger writes.
 */
export function requestContext(log: Logger) {
  return async function withRequestId(ctx: Context, next: Next) {
    const incoming = ctx.get('X-Request-Id');
    const id = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (log.isLevelEnabled('info'))
        log.info(
          {
            reqId: id,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(performance.now() - started),
          },
          'request',
        );
    }
  };
}

/** The request's logger: every line it writes carries the request's id (`reqId`); made on first use. */
export function requestLog(ctx: Context, log: Logger): Logger {
  const state = ctx.state as { log?: Logger; requestId?: unknown };
  if (state.log) return state.log;
  if (typeof state.requestId !== 'string') return log;
  state.log = log.child({ reqId: state.requestId });
  return state.log;
}
