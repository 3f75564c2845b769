/**
 * The gateway's Prometheus metrics (prom-client), served on their own listener
 * (GATEWAY_METRICS_PORT on GATEWAY_METRICS_HOST, default 127.0.0.1:9464), never on the
 * public origin. One registry per running gateway, so several gateways in one process
 * (tests) do not share counters. Labels are bounded: a route class (pathClass.ts), the
 * method, the status, a catalogue tool name — never a raw path, dataset or id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOn } from '@ledger/shared/ports';
import { EVENT_LOOP_SAMPLE_MS, PendingIncrements } from '@ledger/shared/metrics';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export type ToolResult = 'ok' | 'tool_error' | 'refused';
export type LimitName = 'register' | 'signin' | 'mcp';
export type McpServedBy = 'direct' | 'sdk';

export class GatewayMetrics {
  readonly registry = new Registry();

  readonly #requests = new PendingIncrements<'route' | 'method' | 'status'>();
  readonly #toolCalls = new PendingIncrements<'tool' | 'result'>();
  readonly #served = new PendingIncrements<'served_by'>();

  readonly httpRequests: Counter<'route' | 'method' | 'status'> = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered by the gateway, by route class, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
    collect: () => this.#requests.flush(this.httpRequests),
  });

  readonly httpDuration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by route class, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly mcpToolCalls: Counter<'tool' | 'result'> = new Counter({
    name: 'gateway_mcp_tool_calls_total',
    help:
      'MCP tool calls by tool and result: ok, tool_error (the tool answered an error), refused (scope, or the ' +
      'connection was refused by the ledger)',
    labelNames: ['tool', 'result'] as const,
    registers: [this.registry],
    collect: () => this.#toolCalls.flush(this.mcpToolCalls),
  });

  readonly mcpRequests: Counter<'served_by'> = new Counter({
    name: 'gateway_mcp_requests_total',
    help:
      'Admitted MCP requests by who answered them: direct (a single 2026-07-28 tools/call answered by the gateway) ' +
      'or sdk',
    labelNames: ['served_by'] as const,
    registers: [this.registry],
    collect: () => this.#served.flush(this.mcpRequests),
  });

  readonly limitStoreErrors = new Counter({
    name: 'gateway_limit_store_errors_total',
    help: 'Limit decisions the limit store (Redis) could not answer: register and signin refused, mcp let through',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method: KNOWN_METHODS.has(method) ? method : 'OTHER', status: String(status) };
    this.#requests.add(`${labels.route} ${labels.method} ${labels.status}`, labels);
    this.httpDuration.observe(labels, seconds);
  }

  toolCall(tool: string, result: ToolResult): void {
    this.#toolCalls.add(`${tool} ${result}`, { tool, result });
  }

  mcpServed(by: McpServedBy): void {
    this.#served.add(by, { served_by: by });
  }

  limitStoreError(limit: LimitName): void {
    this.limitStoreErrors.inc({ limit });
  }
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** `GET /metrics` on its own port; anything else is 404. */
export async function serveMetrics(metrics: GatewayMetrics, host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': metrics.registry.contentType })
          .end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  await listenOn(server, port, host, 'GATEWAY_METRICS_PORT');
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
