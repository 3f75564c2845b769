/**
 * What every request gets, whichever handler serves it (the Koa app, or the MCP endpoint on
 * the bare Node server, origin/listener.ts): its id (the caller's X-Request-Id when
 * well-formed, else a new one; sent back, on every ledger call and in every log line of the
 * request), the client IP (X-Forwarded-For only as TRUST_PROXY allows, clientIp.ts), and when
 * it is answered one log line and the request metrics.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayDeps } from '../deps.ts';
import { requestIdFrom } from '../requestContext.ts';
import { clientIp } from '../http/clientIp.ts';
import { routeClass } from '../http/pathClass.ts';

export interface RequestScope {
  readonly id: string;
  readonly ip: string;
  /** Logs the request and counts it in the metrics; `path` without the query string (it may carry codes or state). */
  end(method: string, path: string, status: number): void;
}

export function beginRequest(
  deps: Pick<GatewayDeps, 'config' | 'log' | 'metrics'>,
  req: IncomingMessage,
  res: ServerResponse,
): RequestScope {
  const incoming = req.headers['x-request-id'];
  const id = requestIdFrom(typeof incoming === 'string' ? incoming : undefined);
  const ip = clientIp(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], deps.config.trustProxy);
  res.setHeader('X-Request-Id', id);
  const started = performance.now();
  return {
    id,
    ip,
    end(method, path, status) {
      const ms = performance.now() - started;
      deps.metrics.observeRequest(routeClass(path), method, status, ms / 1000);
      // the line is built only when it is written (LOG_LEVEL info or lower): this runs on every request
      if (deps.log.isLevelEnabled('info'))
        deps.log.info({ reqId: id, method, path, status, ip, ms: Math.round(ms) }, 'request');
    },
  };
}
