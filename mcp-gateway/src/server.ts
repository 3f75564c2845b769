import { createServer, type Server } from 'node:http';
import { answerClientErrors, discardAbandonedBody } from '@ledger/shared/httpServer';
import type { AddressInfo } from 'node:net';
import { loadConfig, type GatewayConfig } from './config.ts';
import { createDeps, type DepsOverrides, type GatewayDeps } from './deps.ts';
import { migrateLatest, openDb, storeOf } from './db/knex.ts';
import { createListener } from './http/listener.ts';
import { loadKeys } from './keys.ts';
import { createLogger } from './logger.ts';
import { openLimits } from './limits.ts';
import { serveMetrics, type MetricsListener } from './metrics.ts';
import { LIFETIME } from './oauth/lifetimes.ts';

export interface RunningGateway {
  url: string;
  port: number;
  deps: GatewayDeps;
  server: Server;
  /** the /metrics URL on the metrics listener, when it runs */
  metricsUrl: string | undefined;
  close(): Promise<void>;
}

/** Removes expired codes and sessions and ends connections idle for 90 days. */
export async function housekeeping(deps: GatewayDeps): Promise<void> {
  const now = deps.now();
  await deps.db('authorization_codes').where('expires_at', '<', now - LIFETIME.code).whereNull('connection_id').delete();
  await deps.db('sessions').where('expires_at', '<', now).delete();
  const idle: string[] = await deps.db('connections').where({ state: 'active' }).where('last_used_at', '<', now - LIFETIME.idle).pluck('id');
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
  const server = createServer((req, res) => {
    // a body the gateway's own parser refused halfway (64 KiB limit) or the proxy stopped
    // relaying is read into nothing, so the client reads the answer and can reuse the connection
    discardAbandonedBody(req, res);
    return handle(req, res);
  });
  // Expect: 100-continue: Node answers 100 Continue itself (no 'checkContinue' listener); the
  // proxy does not forward the expectation (src/http/proxy.ts)
  answerClientErrors(server);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let metrics: MetricsListener | undefined;
  if (config.metricsPort !== undefined) {
    try {
      metrics = await serveMetrics(deps.metrics, config.metricsHost, config.metricsPort);
    } catch (err) {
      // e.g. the port is taken (two replicas on one host need their own GATEWAY_METRICS_PORT)
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([deps.ledger.close(), deps.cimd.close(), limits.close(), db.destroy()]);
      throw err;
    }
  }
  const sweep = setInterval(() => housekeeping(deps).catch((err) => log.warn({ err: (err as Error).message }, 'housekeeping failed')), 60 * 60_000);
  sweep.unref();
  log.info(
    { port, publicUrl: config.publicUrl, ledgerUrl: config.ledgerUrl, store: db.client.config.client === 'pg' ? 'postgres' : 'sqlite', limits: limits.kind, metrics: metrics?.url },
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
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
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
