/**
 * The ledger's Prometheus metrics (prom-client), `GET /metrics` on the ledger's own port
 * (LEDGER_PORT). That port is internal — the gateway forwards only `/client/*` to it and the
 * public origin never serves metrics — so the scrape needs no credential, like /healthz.
 * One registry per app, so several ledgers in one process (tests) do not share counters.
 * Labels are bounded: the contract name (never a raw path, dataset or id), method, status.
 */
import type { Context, Next } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EVENT_LOOP_SAMPLE_MS, PendingIncrements } from '@ledger/shared/metrics';
import type { Db } from '../db/knex.ts';
import { PGBOSS_SCHEMA } from '../db/migrations/008_mail.ts';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The pool numbers tarn (knex's pool) exposes; not in knex's type declarations. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

export class LedgerMetrics {
  readonly registry = new Registry();

  readonly #requests = new PendingIncrements<'route' | 'method' | 'status'>();

  readonly httpRequests: Counter<'route' | 'method' | 'status'> = new Counter({
    name: 'ledger_http_requests_total',
    help: 'HTTP requests answered by the ledger, by route (contract name, or meta/internal path), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
    collect: () => this.#requests.flush(this.httpRequests),
  });

  readonly httpDuration = new Histogram({
    name: 'ledger_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly idempotentReplays = new Counter({
    name: 'ledger_idempotent_replays_total',
    help: 'POSTs answered from the kept answer of an earlier request with the same Idempotency-Key',
    registers: [this.registry],
  });

  constructor(db: Db) {
    // the event-loop lag sampled every 100 ms, not prom-client's 10 ms, whose timer woke an idle
    // ledger 100 times a second
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    const pool = () => (db.client as { pool?: TarnPool }).pool;
    new Gauge({
      name: 'ledger_db_pool_connections',
      help:
        'Database pool connections by state: used (lent to a request), free (idle), pending_acquire (requests ' +
        'waiting for one), pending_create, max',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return; // no connection made yet
        this.set({ state: 'used' }, p.numUsed());
        this.set({ state: 'free' }, p.numFree());
        this.set({ state: 'pending_acquire' }, p.numPendingAcquires());
        this.set({ state: 'pending_create' }, p.numPendingCreates());
        this.set({ state: 'max' }, p.max);
      },
    });
    new Gauge({
      name: 'ledger_job_queue_depth',
      help: 'Jobs waiting in a durable pg-boss queue (states created and retry), by queue (e-mail, inbox, …)',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        try {
          const { rows } = await db.raw(
            `select q.name, count(j.id)::int as n from ${PGBOSS_SCHEMA}.queue q
             left join ${PGBOSS_SCHEMA}.job j on j.name = q.name and j.state in ('created', 'retry')
             group by q.name`,
          );
          this.reset();
          for (const r of rows as { name: string; n: number }[]) this.set({ queue: r.name }, r.n);
        } catch {
          // database unreachable: the gauge is left out of this scrape rather than failing it
          this.reset();
        }
      },
    });
  }

  /** Counts and times every request; mounted outside the error middleware so it sees the final status. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const route = typeof ctx.state.route === 'string' ? ctx.state.route : routeOf(ctx);
        const labels = {
          route,
          method: KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER',
          status: String(ctx.status),
        };
        this.#requests.add(`${labels.route} ${labels.method} ${labels.status}`, labels);
        this.httpDuration.observe(labels, (performance.now() - started) / 1000);
        if (ctx.response.get('Idempotent-Replayed') === 'true') this.idempotentReplays.inc();
      }
    };
  }

  /** `GET /metrics`: the Prometheus text format. */
  route() {
    return async (ctx: Context, next: Next) => {
      if (ctx.path !== '/metrics') return next();
      ctx.state.route = 'metrics';
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.set('Cache-Control', 'no-store');
      ctx.type = this.registry.contentType;
      ctx.body = await this.registry.metrics();
    };
  }
}

/** A non-contract route: the router's template (meta and internal routes), else what kind of request it was. */
function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  return ctx.path.startsWith('/client/') ? 'client_unrouted' : 'unrouted';
}
