import { createServer, type Server } from 'node:http';
import {
  answerClientErrors,
  discardAbandonedBody,
  HEADER_LIMIT,
  refuseOversizedHeaders,
} from '@ledger/shared/httpServer';
import { listenOn } from '@ledger/shared/ports';
import { loadConfig, type GatewayConfig } from './config.ts';
import { createDeps, type DepsOverrides, type GatewayDeps } from './deps.ts';
import { migrateLatest, openDb, storeOf } from './db/knex.ts';
import { refusalBody } from './http/errors.ts';
import { createListener } from './origin/listener.ts';
import { loadKeys } from './keys.ts';
import { createLogger } from './logger.ts';
import { openLimits } from './limits.ts';
import { serveMetrics, type MetricsListener } from './metrics.ts';
import { LIFETIME } from './oauth/lifetimes.ts';
import { idleCutoff } from './oauth/liveness.ts';
import { warmCatalogue } from './mcp/tools/catalogue.ts';

export interface RunningGateway {
  url: string;
  port: number;
  deps: GatewayDeps;
  server: Server;
  /** the /metrics URL on the metrics listener, when it runs */
  metricsUrl: string | undefined;
  close(): Promise<void>;
}

/**
 * The header bytes Node's parser takes before it refuses a request itself. The 16 KiB limit
 * (HEADER_LIMIT) is enforced after parsing instead (refuseOversizedHeaders), where the path is
 * known, so a refusal at an OAuth endpoint answers RFC 6749's shape: when Node's parser
 * refuses, all it hands over is the chunk it was reading, which holds the request line only
 * if the headers came in one read. Above this, that is still how it is answered; it is kept
 * under the 64 KiB one socket read takes, so a request sent at once is refused within the
 * read that holds its request line.
 */
const PARSER_HEADER_LIMIT = 3 * HEADER_LIMIT;

/** How long after listening the MCP tools' schemas are compiled (catalogue.ts: otherwise on first use). */
const WARM_UP_DELAY_MS = 1_000;

/** How long close() lets in-flight requests run before cutting their connections (as the ledger). */
const SHUTDOWN_GRACE_MS = 25_000;

/** Removes expired codes and sessions and ends connections idle for 90 days. */
export async function housekeeping(deps: GatewayDeps): Promise<void> {
  const now = deps.now();
  await deps
    .db('authorization_codes')
    .where('expires_at', '<', now - LIFETIME.code)
    .whereNull('connection_id')
    .delete();
  await deps.db('sessions').where('expires_at', '<', now).delete();
  const idle: string[] = await deps
    .db('connections')
    .where({ state: 'active' })
    .where('last_used_at', '<', idleCutoff(now))
    .pluck('id');
  for (const id of idle) await deps.connections.end(id, 'idle');
}

/** Migrates the store, then serves; close() lets in-flight requests finish. */
export async function startGateway(opts: { config?: GatewayConfig } & DepsOverrides = {}): Promise<RunningGateway> {
  const config = opts.config ?? loadConfig();
  const log = createLogger(config.logLevel);
  const keys = await loadKeys(config);
  const db = openDb(storeOf(config));
  await migrateLatest(db);
  const limits = await openLimits(config.redisUrl, log, opts.limitKeyPrefix);
  const deps = createDeps({ ...opts, config, db, log, keys, limits });
  const handle = createListener(deps);
  const server = createServer({ maxHeaderSize: PARSER_HEADER_LIMIT }, (req, res) => {
    // a body the gateway's own parser refused halfway (64 KiB limit) or the proxy stopped
    // relaying is read into nothing, so the client reads the answer and can reuse the connection
    discardAbandonedBody(req, res);
    if (refuseOversizedHeaders(req, res, refusalBody)) return;
    return handle(req, res);
  });
  // Expect: 100-continue: Node answers 100 Continue itself (no 'checkContinue' listener); the
  // proxy does not forward the expectation (src/http/proxy.ts)
  answerClientErrors(server, refusalBody);
  server.keepAliveTimeout = 5_000;
  // the ports are the last thing a start can fail on: then everything opened so far is closed again
  const closeOpened = async () => {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    await Promise.all([handle.close(), deps.ledger.close(), deps.cimd.close(), limits.close(), db.destroy()]);
  };
  let port: number;
  let metrics: MetricsListener | undefined;
  try {
    port = await listenOn(server, config.port, config.host, 'PORT');
    // e.g. the port is taken (two replicas on one host need their own GATEWAY_METRICS_PORT)
    if (config.metricsPort !== undefined)
      metrics = await serveMetrics(deps.metrics, config.metricsHost, config.metricsPort);
  } catch (err) {
    await closeOpened();
    throw err;
  }
  // the MCP tools' schemas, compiled once the gateway answers; a moment later, so it does not
  // compete with the rest of a start (npm start still opens the CLI socket and prints)
  const warm = setTimeout(
    () => void warmCatalogue().catch((err: unknown) => log.error({ err }, 'compiling the MCP tool schemas failed')),
    WARM_UP_DELAY_MS,
  );
  warm.unref();
  const sweep = setInterval(
    () => housekeeping(deps).catch((err) => log.warn({ err: (err as Error).message }, 'housekeeping failed')),
    60 * 60_000,
  );
  sweep.unref();
  log.info(
    {
      port,
      publicUrl: config.publicUrl,
      ledgerUrl: config.ledgerUrl,
      store: db.client.config.client === 'pg' ? 'postgres' : 'sqlite',
      limits: limits.kind,
      metrics: metrics?.url,
    },
    'gateway listening',
  );
  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`,
    port,
    deps,
    server,
    metricsUrl: metrics?.url,
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        clearTimeout(warm);
        // in-flight requests finish (a forwarded request waits for the ledger's answer);
        // keep-alive sockets are closed as soon as they go idle, and whatever still hangs
        // after the grace period (an MCP stream held open, a client that stopped reading) is cut
        await new Promise<void>((resolve) => {
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
          server.close(() => {
            clearInterval(idle);
            clearTimeout(deadline);
            resolve();
          });
          server.closeIdleConnections();
        });
        await handle.close();
        await metrics?.close();
        await deps.ledger.close();
        await deps.cimd.close();
        await limits.close();
        await db.destroy();
      })();
      return closing;
    },
  };
}
