/**
 * Cluster benchmark (issue 14): MCP `tools/call search_vendors` through one gateway and
 * through two gateways behind haproxy, against the same REST call made directly to the
 * ledgers with an API key, in the same run, on the cluster of the e2e test
 * (e2e/test/support/cluster.ts: two ledgers behind haproxy, two gateways on Postgres and
 * Redis). Prints req/s, p50, p99, the ratios against direct, and the gateways' CPU time per
 * MCP call — read from their /metrics (`process_cpu_seconds_total`) before and after each
 * stage — which, unlike throughput, hardly depends on what else runs on a shared machine.
 * Writes bench/results/cluster-<time>.json.
 *
 * Env: BENCH_CLUSTER_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_cluster;
 * dropped and re-created), BENCH_SECONDS per stage (default 8), BENCH_CONNECTIONS (default 16),
 * BENCH_WARMUP seconds per MCP side before measuring (default 6; the direct side half of it),
 * BENCH_CPU_PROF_DIR (the gateways run with a V8 CPU profiler and write
 * `gateway-<pid>.cpuprofile` there when the run ends — for finding where the time goes; it
 * inflates their CPU figures).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { recreateDatabase } from '../scripts/database.ts';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import { Browser } from '../e2e/test/support/browser.ts';
import { startCluster, type ClusterProcess } from '../e2e/test/support/cluster.ts';
import { connectRaw } from '../e2e/test/support/rawOAuth.ts';
import { person, type DemoCompany } from '../e2e/test/support/scenario.ts';

const DB_URL = process.env.BENCH_CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_cluster';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

/** CPU seconds (user + system) a process has used, from its Prometheus text. */
async function cpuSeconds(p: ClusterProcess): Promise<number> {
  const text = await (await fetch(p.metricsUrl)).text();
  const m = /^process_cpu_seconds_total(?:\{[^}]*\})? (\S+)$/m.exec(text);
  if (!m) throw new Error(`no process_cpu_seconds_total at ${p.metricsUrl}`);
  return Number(m[1]);
}

/**
 * A module the gateways preload to profile themselves: Node refuses `--cpu-prof` in
 * NODE_OPTIONS, but `--import` is allowed; the inspector session writes the profile on exit
 * (the gateway exits on the teardown's SIGTERM).
 */
function profilerPreload(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'profiler.mjs');
  writeFileSync(
    file,
    `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
process.on('exit', () => session.post('Profiler.stop', (err, r) => {
  if (!err)
    writeFileSync(${JSON.stringify(dir)} + '/gateway-' + process.pid + '.cpuprofile', JSON.stringify(r.profile));
}));
`,
  );
  return file;
}

async function stage(opts: autocannon.Options, seconds: number): Promise<Figures> {
  const r = await autocannon({ ...opts, connections: CONNECTIONS, duration: seconds });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r['2xx'],
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

/** A stage with the CPU the given gateways spent on it, in µs per answered request. */
async function measured(
  opts: autocannon.Options,
  seconds: number,
  gateways: ClusterProcess[],
): Promise<Figures & { cpuUsPerCall?: number }> {
  const before = await Promise.all(gateways.map(cpuSeconds));
  const f = await stage(opts, seconds);
  const after = await Promise.all(gateways.map(cpuSeconds));
  if (gateways.length === 0) return f;
  const spent = after.reduce((s, a, i) => s + a - before[i]!, 0);
  return { ...f, cpuUsPerCall: f.requests > 0 ? (spent * 1e6) / f.requests : 0 };
}

function merge<T extends Figures & { cpuUsPerCall?: number }>(a: T, b: T): T {
  const requests = a.requests + b.requests;
  const cpu =
    a.cpuUsPerCall !== undefined && b.cpuUsPerCall !== undefined
      ? { cpuUsPerCall: (a.cpuUsPerCall * a.requests + b.cpuUsPerCall * b.requests) / Math.max(1, requests) }
      : {};
  return {
    ...a,
    rps: (a.rps + b.rps) / 2,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    requests,
    errors: a.errors + b.errors,
    ...cpu,
  };
}

function line(label: string, f: Figures & { cpuUsPerCall?: number }): string {
  const cpu = f.cpuUsPerCall !== undefined ? `   gateway CPU ${f.cpuUsPerCall.toFixed(0).padStart(5)} µs/call` : '';
  return (
    `${label.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ` +
    `${String(f.p99).padStart(4)} ms${cpu}${f.errors ? `   ${f.errors} errors` : ''}`
  );
}

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  const teardowns: (() => unknown)[] = [];
  try {
    const migrator = createDb(DB_URL);
    await migrateLatest(migrator); // once, before two ledgers start on it
    await migrator.destroy();
    const cluster = await startCluster(
      { teardown: (fn) => teardowns.push(fn) },
      {
        databaseUrl: DB_URL,
        env: { LOG_LEVEL: 'warn', NODE_ENV: 'production' },
        gatewayEnv: {
          MCP_RATE_LIMIT: '100000000',
          ...(CPU_PROF_DIR ? { NODE_OPTIONS: `--import=${profilerPreload(CPU_PROF_DIR)}` } : {}),
        },
      },
    );
    const [g1, g2] = cluster.gateways as [ClusterProcess, ClusterProcess];
    const demo = JSON.parse(await cluster.ledgerCli(['demo', '--dataset', 'bench-cluster', '--json'])) as DemoCompany;
    const { tokens } = await connectRaw(
      cluster.apiUrl,
      new Browser(cluster.apiUrl),
      demo.mcp_url,
      person(demo),
      { contacts: 'read' },
      'Cluster Benchmark',
    );

    const direct: autocannon.Options = {
      url: `${cluster.ledgerLbUrl}/client/${demo.dataset}/arap/vendor?name=Papeterie`,
      method: 'GET',
      headers: { 'x-api-key': demo.api_key, accept: 'application/json' },
    };
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const mcpAt = (origin: string): autocannon.Options => ({
      url: `${origin}/mcp/${demo.dataset}`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'search_vendors',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_vendors', arguments: { name: 'Papeterie' }, _meta: envelope },
      }),
    });
    const oneGateway = mcpAt(g1.url);
    const twoGateways = mcpAt(cluster.apiUrl);

    // all three answer the same vendors
    const rest = (await (
      await fetch(direct.url as string, { headers: direct.headers as Record<string, string> })
    ).json()) as { id: number }[];
    for (const o of [oneGateway, twoGateways]) {
      const mcp = (await (
        await fetch(o.url as string, {
          method: 'POST',
          headers: o.headers as Record<string, string>,
          body: o.body as string,
        })
      ).json()) as { result?: { structuredContent?: { vendors?: { id: number }[] } } };
      const ids = (mcp.result?.structuredContent?.vendors ?? []).map((v) => v.id);
      if (rest.length === 0 || JSON.stringify(rest.map((v) => v.id)) !== JSON.stringify(ids))
        throw new Error(`MCP at ${o.url} and REST disagree: ${JSON.stringify(mcp)}`);
    }

    // warm-up: V8 optimises the gateways' hot functions only after some thousand calls
    for (const o of [direct, oneGateway, twoGateways]) await stage(o, o === direct ? WARMUP / 2 : WARMUP);
    const half = SECONDS / 2;
    const d1 = await measured(direct, half, []);
    const o1 = await measured(oneGateway, half, [g1]);
    const t1 = await measured(twoGateways, half, [g1, g2]);
    const d2 = await measured(direct, half, []);
    const o2 = await measured(oneGateway, half, [g1]);
    const t2 = await measured(twoGateways, half, [g1, g2]);
    const directFig = merge(d1, d2);
    const oneFig = merge(o1, o2);
    const twoFig = merge(t1, t2);
    const oneRatio = oneFig.rps / directFig.rps;
    const twoRatio = twoFig.rps / directFig.rps;

    console.log(
      `\ncluster benchmark: tools/call search_vendors via MCP vs GET /arap/vendor direct (two ledgers behind ` +
        `haproxy), ${CONNECTIONS} connections, ${SECONDS} s each, ${cpus().length} CPUs`,
    );
    console.log(line('direct REST (API key)', directFig));
    console.log(line('MCP, one gateway', oneFig));
    console.log(line('MCP, two gateways (haproxy)', twoFig));
    console.log(`ratio one gateway / direct:  ${oneRatio.toFixed(2)} (target ≥ 0.70)`);
    console.log(`ratio two gateways / direct: ${twoRatio.toFixed(2)}`);
    console.log(
      `gateway CPU per MCP call: ${oneFig.cpuUsPerCall!.toFixed(0)} µs with one gateway, ` +
        `${twoFig.cpuUsPerCall!.toFixed(0)} µs with two (target ≤ 1000 µs)`,
    );

    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/cluster-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    const round = (f: Figures & { cpuUsPerCall?: number }) => ({
      ...f,
      rps: Number(f.rps.toFixed(1)),
      ...(f.cpuUsPerCall !== undefined ? { cpuUsPerCall: Number(f.cpuUsPerCall.toFixed(1)) } : {}),
    });
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          benchmark: 'cluster',
          at: new Date().toISOString(),
          cpus: cpus().length,
          node: process.version,
          connections: CONNECTIONS,
          secondsPerStage: SECONDS,
          direct: {
            request: "GET /client/{dataset}/arap/vendor?name=Papeterie (X-API-Key) at the ledgers' haproxy",
            ...round(directFig),
          },
          oneGateway: { request: 'POST /mcp/{dataset} tools/call search_vendors at gateway 1', ...round(oneFig) },
          twoGateways: { request: 'the same at the public haproxy (two gateways)', ...round(twoFig) },
          ratios: { oneGateway: Number(oneRatio.toFixed(3)), twoGateways: Number(twoRatio.toFixed(3)) },
          targets: { oneGatewayRatio: 0.7, gatewayCpuUsPerCall: 1000 },
        },
        null,
        2,
      )}\n`,
    );
    console.log(`written ${file.pathname}`);
  } finally {
    for (const fn of teardowns.reverse()) await fn();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
