/**
 * Gateway benchmark (issue 5): `tools/call search_vendors` through the gateway's MCP
 * endpoint (protocol 2026-07-28, one JSON-RPC POST per call, as the official v2 client
 * sends it) against the same REST call made directly to the ledger with an API key
 * (`GET /client/{dataset}/arap/vendor?name=...`), at the same concurrency in the same run.
 * Both services run as real processes (their CLIs) on Postgres; the gateway's per-connection
 * rate limit is raised (MCP_RATE_LIMIT) so it does not cap the measurement. Prints req/s,
 * p50, p99, the ratio gateway / direct and the gateway's CPU time per MCP call (its
 * `process_cpu_seconds_total` from /metrics, i.e. process.cpuUsage, before and after each
 * gateway stage); writes bench/results/gateway-<time>.json. Each side is warmed up for
 * BENCH_WARMUP seconds first (default 6: V8 optimises the gateway's hot functions only after
 * some thousand calls, and a cold JIT would be measured otherwise).
 *
 * Diagnostic: the same calls through a minimal Node pass-through (bench/passThrough.ts: HTTP
 * in, one undici call to the ledger, JSON out — nothing else), with its CPU per call: the
 * floor any Node gateway pays for a call on this machine, to read the gateway's figure against.
 * Last, both at once at the same fixed rate (BENCH_SIDE_RATE calls per second each, default
 * 20), each one's CPU over the same seconds: the ratio least disturbed by a busy machine's
 * changing load.
 *
 * Env: BENCH_GATEWAY_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_gateway;
 * dropped and re-created), BENCH_SECONDS per stage (default 8), BENCH_CONNECTIONS (default 16),
 * BENCH_SIDE_ROUNDS (side-by-side rounds, default 1; the ratio printed is their median),
 * BENCH_GATEWAY_PROFILE (a directory: the gateway's measured stages are profiled, bench/cpuProfile.mjs,
 * and its CPU per call is split by serving stage, bench/stageProfile.ts; the pass-through's measured
 * stage is profiled too and split by the same kinds, so the two read side by side; the sampling
 * profiler adds its own cost, so the figures of such a run are read as shares).
 *
 * BENCH_STACK_NODE_OPTIONS: NODE_OPTIONS for the ledger and the gateway (e.g. `--perf-basic-prof
 * --interpreted-frames-native-stack`, so that Linux `perf record -g` names their JavaScript frames:
 * perf samples CPU time per thread, where the inspector's profiler also counts time a thread spent
 * descheduled inside a system call; docs/benchmarks.md "One state object a request").
 *
 * A/B: BENCH_GATEWAY_OTHER names another checkout (an extracted commit with this tree's
 * node_modules linked in, built or not, as bench/ledgerAB.ts's). Its gateway is started beside this
 * one on the same ledger and gateway database (same keys and public URL, its own port), measured
 * after this one in the full-rate stage, and joins the side-by-side rounds: the three at once at the
 * same rate, so both gateways' CPU per call is read over the same seconds of the same load.
 *
 * The last line printed is the result in one line: the gateway's CPU per call against the
 * pass-through's, measured one after the other and side by side, and `uptime`'s load average.
 */
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { recreateDatabase } from '../scripts/database.ts';
import pg from 'pg';
import { SignJWT } from 'jose';
import { SERVICE_CREDENTIAL } from '@ledger/shared';
import { Browser } from '../e2e/test/support/browser.ts';
import { freePort, startStack } from '../e2e/test/support/processes.ts';
import { connectRaw } from '../e2e/test/support/rawOAuth.ts';
import { createDemo, person } from '../e2e/test/support/scenario.ts';

const DB_URL = process.env.BENCH_GATEWAY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_gateway';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6);
const PROFILE_DIR = process.env.BENCH_GATEWAY_PROFILE;
const SIDE_RATE = Number(process.env.BENCH_SIDE_RATE ?? 20);
const SIDE_ROUNDS = Math.max(1, Number(process.env.BENCH_SIDE_ROUNDS ?? 1));
const OTHER = process.env.BENCH_GATEWAY_OTHER;
const CPU_PROFILE = new URL('./cpuProfile.mjs', import.meta.url).pathname;

/**
 * Starts bench/passThrough.ts for `direct`'s ledger call; `cpu()` reads its process.cpuUsage.
 * With `profileDir`, the process is profiled between two `toggleProfile()` calls (cpuProfile.mjs).
 */
async function startPassThrough(direct: autocannon.Options, profileDir?: string) {
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const child = fork(new URL('./passThrough.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', ...(profileDir ? ['--import', CPU_PROFILE] : [])],
    env: {
      ...process.env,
      PASS_THROUGH_URL: String(direct.url),
      PASS_THROUGH_HEADERS: JSON.stringify(direct.headers),
      ...(profileDir ? { BENCH_CPU_PROFILE_DIR: profileDir } : {}),
    },
  });
  const [port] = (await once(child, 'message')) as [number];
  return {
    url: `http://127.0.0.1:${port}/`,
    async cpuSeconds(): Promise<number> {
      child.send('cpu');
      const [usage] = (await once(child, 'message')) as [NodeJS.CpuUsage];
      return (usage.user + usage.system) / 1e6;
    },
    toggleProfile: () => (profileDir ? void child.kill('SIGUSR2') : undefined),
    stop: () => child.kill(),
  };
}

/**
 * The gateway of another checkout (BENCH_GATEWAY_OTHER) beside this one: the same environment
 * (ledger, gateway database, keys, public URL) on a port of its own; answers at `mcpUrl`'s path.
 */
async function startOtherGateway(dir: string, env: NodeJS.ProcessEnv, mcpUrl: string) {
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawn(process.execPath, [join(dir, 'mcp-gateway/bin/gateway.mjs'), 'serve'], {
    env: { ...env, PORT: String(port), GATEWAY_METRICS_PORT: String(metricsPort) },
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the other gateway (${dir}) exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error(`the other gateway (${dir}) did not become healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = new URL(mcpUrl);
  return {
    mcpUrl: `${base}${url.pathname}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    stop: () => child.kill(),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The load average now, as `uptime` prints it. */
function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

async function stage(opts: autocannon.Options, seconds: number): Promise<Figures> {
  const r = await autocannon({ ...opts, connections: opts.connections ?? CONNECTIONS, duration: seconds });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r['2xx'],
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

/** CPU seconds (user + system) the gateway has used, from its Prometheus text. */
async function cpuSeconds(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const m = /^process_cpu_seconds_total(?:\{[^}]*\})? (\S+)$/m.exec(text);
  if (!m) throw new Error(`no process_cpu_seconds_total at ${metricsUrl}`);
  return Number(m[1]);
}

/** A stage with the CPU time per answered call (µs) of the process `cpu` reads. */
async function measured(
  opts: autocannon.Options,
  seconds: number,
  cpu: string | (() => Promise<number>),
): Promise<Figures & { cpuUsPerCall: number }> {
  const read = typeof cpu === 'string' ? () => cpuSeconds(cpu) : cpu;
  const before = await read();
  const f = await stage(opts, seconds);
  const spent = (await read()) - before;
  return { ...f, cpuUsPerCall: f.requests > 0 ? (spent * 1e6) / f.requests : 0 };
}

function line(label: string, f: Figures & { cpuUsPerCall?: number }): string {
  const cpu = f.cpuUsPerCall !== undefined ? `   gateway CPU ${f.cpuUsPerCall.toFixed(0).padStart(5)} µs/call` : '';
  return (
    `${label.padEnd(26)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ` +
    `${String(f.p99).padStart(4)} ms${cpu}   ${f.errors ? `${f.errors} errors` : ''}`
  );
}

/** A process's CPU per call by serving stage (bench/stageProfile.ts), once its profile is written. */
async function stagesOfProfile(dir: string, usPerCall: number, who = 'gateway'): Promise<Record<string, number>> {
  const file = join(dir, 'gateway.cpuprofile');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  // imported here: a run of an older gateway without serve/ (a before/after pair) need not load it
  const { stageShares } = await import('./stageProfile.ts');
  const shares = stageShares(file);
  console.log(`${who} CPU per call by stage (profiled run, ${file}):`);
  const out: Record<string, number> = {};
  for (const { stage, share } of shares) {
    out[stage] = Number((share * usPerCall).toFixed(1));
    console.log(
      `  ${stage.padEnd(42)} ${(share * usPerCall).toFixed(0).padStart(5)} µs  ${(share * 100).toFixed(1)} %`,
    );
  }
  return out;
}

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  if (PROFILE_DIR) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    rmSync(join(PROFILE_DIR, 'gateway.cpuprofile'), { force: true });
  }
  const teardowns: (() => unknown)[] = [];
  try {
    const env = { LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    const gatewayEnv = { MCP_RATE_LIMIT: '100000000' };
    const metricsPort = await freePort();
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const stack = await startStack(
      { teardown: (fn) => teardowns.push(fn) },
      {
        ...gatewayEnv,
        GATEWAY_METRICS_PORT: String(metricsPort),
        ...(PROFILE_DIR
          ? {
              NODE_OPTIONS: `--import ${new URL('./cpuProfile.mjs', import.meta.url).pathname}`,
              BENCH_CPU_PROFILE_DIR: PROFILE_DIR,
            }
          : {}),
      },
      { databaseUrl: DB_URL, env },
    );
    const demo = await createDemo(stack);
    const { tokens } = await connectRaw(
      stack.apiUrl,
      new Browser(stack.apiUrl),
      demo.mcp_url,
      person(demo),
      { contacts: 'read' },
      'Benchmark Assistant',
    );

    const direct: autocannon.Options = {
      url: `${stack.ledgerUrl}/client/${demo.dataset}/arap/vendor?name=Papeterie`,
      method: 'GET',
      headers: { 'x-api-key': demo.api_key, accept: 'application/json' },
    };
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const gateway: autocannon.Options = {
      url: demo.mcp_url,
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
    };

    // the two answers carry the same vendors
    const rest = (await (
      await fetch(direct.url as string, { headers: direct.headers as Record<string, string> })
    ).json()) as { id: number }[];
    const mcp = (await (
      await fetch(gateway.url as string, {
        method: 'POST',
        headers: gateway.headers as Record<string, string>,
        body: gateway.body as string,
      })
    ).json()) as { result?: { structuredContent?: { vendors?: { id: number }[] } } };
    const viaMcp = mcp.result?.structuredContent?.vendors ?? [];
    if (rest.length === 0 || JSON.stringify(rest.map((v) => v.id)) !== JSON.stringify(viaMcp.map((v) => v.id))) {
      throw new Error(`the gateway and the ledger disagree: ${JSON.stringify(rest)} vs ${JSON.stringify(mcp)}`);
    }

    const other = OTHER ? await startOtherGateway(OTHER, { ...stack.env, ...gatewayEnv }, demo.mcp_url) : undefined;
    if (other) teardowns.push(() => other.stop());
    const otherOpts: autocannon.Options | undefined = other ? { ...gateway, url: other.mcpUrl } : undefined;
    if (otherOpts) {
      const answer = await fetch(otherOpts.url as string, {
        method: 'POST',
        headers: gateway.headers as Record<string, string>,
        body: gateway.body as string,
      });
      if (JSON.stringify(await answer.json()) !== JSON.stringify(mcp))
        throw new Error(`the other gateway (${OTHER}) answers differently`);
    }

    await stage(direct, WARMUP / 2);
    await stage(gateway, WARMUP);
    if (otherOpts) await stage(otherOpts, WARMUP);
    const profiler = PROFILE_DIR ? Number(readFileSync(join(PROFILE_DIR, 'pid'), 'utf8')) : undefined;
    if (profiler) process.kill(profiler, 'SIGUSR2');
    const d1 = await stage(direct, SECONDS / 2);
    const g1 = await measured(gateway, SECONDS / 2, metricsUrl);
    const o1 = otherOpts && other ? await measured(otherOpts, SECONDS / 2, other.metricsUrl) : undefined;
    const d2 = await stage(direct, SECONDS / 2);
    const g2 = await measured(gateway, SECONDS / 2, metricsUrl);
    const o2 = otherOpts && other ? await measured(otherOpts, SECONDS / 2, other.metricsUrl) : undefined;
    if (profiler) process.kill(profiler, 'SIGUSR2');
    // diagnostic: the ledger work behind one MCP tools/call — the same REST call with the
    // gateway's service credential (the ledger checks the connection's preconditions on it;
    // no separate lifecycle lookup any more) — as the ceiling for the gateway
    const db = new pg.Client({ connectionString: DB_URL });
    await db.connect();
    const ownerId = String((await db.query('select id from users where email = $1', [demo.user.email])).rows[0]?.id);
    await db.end();
    const credential = await new SignJWT({
      dataset: demo.dataset,
      conn: 'bench',
      scope: 'contacts:read',
      client_name: 'Benchmark Assistant',
    })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer(SERVICE_CREDENTIAL.issuer)
      .setAudience(SERVICE_CREDENTIAL.audience)
      .setSubject(ownerId)
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(stack.gatewayKey);
    const ceilingFig = await stage(
      {
        url: `${stack.ledgerUrl}/client/${demo.dataset}/arap/vendor?name=Papeterie`,
        method: 'GET',
        headers: { authorization: `Bearer ${credential}`, accept: 'application/json' },
      },
      Math.min(SECONDS / 2, 50),
    );
    const passThrough = await startPassThrough(direct, PROFILE_DIR ? join(PROFILE_DIR, 'pass') : undefined);
    teardowns.push(() => passThrough.stop());
    const passOpts: autocannon.Options = { ...gateway, url: passThrough.url };
    // warmed and measured as long as the gateway, so the two CPU figures compare
    await stage(passOpts, WARMUP);
    passThrough.toggleProfile();
    const floor = await measured(passOpts, SECONDS, () => passThrough.cpuSeconds());
    passThrough.toggleProfile();
    const passStages = PROFILE_DIR
      ? await stagesOfProfile(join(PROFILE_DIR, 'pass'), floor.cpuUsPerCall, 'pass-through')
      : undefined;
    // the gateway and the pass-through at once, at the same fixed rate, each one's CPU read over
    // the same seconds: on a shared, busy machine the load of the moment then weighs on both
    // alike, which the figures measured one after the other above cannot promise, and neither
    // batches more calls per wake-up than the other because it happens to be faster
    const beside = { connections: Math.max(1, CONNECTIONS / 2), overallRate: SIDE_RATE };
    const rounds: { gateway: number; pass: number; other?: number; gatewayRps: number; passRps: number }[] = [];
    for (let round = 0; round < SIDE_ROUNDS; round++) {
      const [g, p, o] = await Promise.all([
        measured({ ...gateway, ...beside }, SECONDS, metricsUrl),
        measured({ ...passOpts, ...beside }, SECONDS, () => passThrough.cpuSeconds()),
        otherOpts && other ? measured({ ...otherOpts, ...beside }, SECONDS, other.metricsUrl) : undefined,
      ]);
      rounds.push({
        gateway: g.cpuUsPerCall,
        pass: p.cpuUsPerCall,
        ...(o ? { other: o.cpuUsPerCall } : {}),
        gatewayRps: g.rps,
        passRps: p.rps,
      });
      console.log(
        `side by side, round ${round + 1} (load ${load()}): gateway ${g.cpuUsPerCall.toFixed(0)} µs, pass-through ` +
          `${p.cpuUsPerCall.toFixed(0)} µs${o ? `, other gateway ${o.cpuUsPerCall.toFixed(0)} µs` : ''} CPU per call`,
      );
    }
    const gatewayBeside = {
      cpuUsPerCall: median(rounds.map((r) => r.gateway)),
      rps: median(rounds.map((r) => r.gatewayRps)),
    };
    const passBeside = { cpuUsPerCall: median(rounds.map((r) => r.pass)), rps: median(rounds.map((r) => r.passRps)) };
    const besideRatio = median(rounds.map((r) => r.gateway / Math.max(1, r.pass)));
    const otherBesideRatio = other ? median(rounds.map((r) => (r.other ?? 0) / Math.max(1, r.pass))) : undefined;
    const merge = (a: Figures, b: Figures): Figures => ({
      rps: (a.rps + b.rps) / 2,
      p50: Math.max(a.p50, b.p50),
      p99: Math.max(a.p99, b.p99),
      requests: a.requests + b.requests,
      errors: a.errors + b.errors,
    });
    const directFig = merge(d1, d2);
    const gatewayFig = {
      ...merge(g1, g2),
      cpuUsPerCall:
        (g1.cpuUsPerCall * g1.requests + g2.cpuUsPerCall * g2.requests) / Math.max(1, g1.requests + g2.requests),
    };
    const ratio = gatewayFig.rps / directFig.rps;
    const otherFig =
      o1 && o2
        ? {
            ...merge(o1, o2),
            cpuUsPerCall:
              (o1.cpuUsPerCall * o1.requests + o2.cpuUsPerCall * o2.requests) / Math.max(1, o1.requests + o2.requests),
          }
        : undefined;

    console.log(
      `\ngateway benchmark: tools/call search_vendors via MCP vs GET /arap/vendor direct, ${CONNECTIONS} ` +
        `connections, ${SECONDS} s each, ${cpus().length} CPUs`,
    );
    console.log(line('direct REST (API key)', directFig));
    console.log(line('gateway MCP tools/call', gatewayFig));
    if (otherFig) console.log(line('other gateway (A/B)', otherFig));
    console.log(`ratio gateway / direct: ${ratio.toFixed(2)} (target ≥ 0.70)`);
    console.log(`gateway CPU per MCP call: ${gatewayFig.cpuUsPerCall.toFixed(0)} µs (target ≤ 1000 µs)`);
    const cpuRatio = gatewayFig.cpuUsPerCall / Math.max(1, floor.cpuUsPerCall);
    console.log(`gateway / pass-through CPU per call: ${cpuRatio.toFixed(2)} (target ≤ 1.5)`);
    console.log(
      `side by side (both at once, ${SIDE_RATE} calls/s each, ${SECONDS} s, median of ${SIDE_ROUNDS}): gateway ` +
        `${gatewayBeside.cpuUsPerCall.toFixed(0)} µs (${gatewayBeside.rps.toFixed(0)}/s), pass-through ` +
        `${passBeside.cpuUsPerCall.toFixed(0)} µs (${passBeside.rps.toFixed(0)}/s) CPU per call: ` +
        `${besideRatio.toFixed(2)} (target ≤ 1.5)` +
        (otherBesideRatio !== undefined ? `; other gateway (A/B): ${otherBesideRatio.toFixed(2)}` : ''),
    );
    const stages = PROFILE_DIR ? await stagesOfProfile(PROFILE_DIR, gatewayFig.cpuUsPerCall) : undefined;
    console.log(
      `diagnostic: a minimal Node pass-through (HTTP in, one undici call to the ledger, JSON out) answers ` +
        `${floor.rps.toFixed(0)} req/s at ${floor.cpuUsPerCall.toFixed(0)} µs CPU per call: the floor any Node ` +
        `gateway pays per call on this machine`,
    );
    console.log(
      `diagnostic: the ledger serves ${ceilingFig.rps.toFixed(0)} req/s of the same call with the service ` +
        `credential, i.e. ${(ceilingFig.rps / directFig.rps).toFixed(2)} of direct: the ceiling for one MCP call ` +
        `on this ledger`,
    );

    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/gateway-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          benchmark: 'gateway',
          at: new Date().toISOString(),
          cpus: cpus().length,
          node: process.version,
          connections: CONNECTIONS,
          secondsPerStage: SECONDS,
          direct: { request: 'GET /client/{dataset}/arap/vendor?name=Papeterie (X-API-Key)', ...directFig },
          gateway: {
            request: 'POST /mcp/{dataset} tools/call search_vendors (2026-07-28)',
            ...gatewayFig,
            cpuUsPerCall: Number(gatewayFig.cpuUsPerCall.toFixed(1)),
          },
          ratio: Number(ratio.toFixed(3)),
          cpuRatioToPassThrough: Number(cpuRatio.toFixed(2)),
          sideBySide: {
            callsPerSecondEach: SIDE_RATE,
            gatewayCpuUsPerCall: Number(gatewayBeside.cpuUsPerCall.toFixed(1)),
            passThroughCpuUsPerCall: Number(passBeside.cpuUsPerCall.toFixed(1)),
            cpuRatio: Number(besideRatio.toFixed(2)),
          },
          diagnostic: {
            serviceCredentialRps: Number(ceilingFig.rps.toFixed(1)),
            ceilingRatio: Number((ceilingFig.rps / directFig.rps).toFixed(3)),
            passThrough: { rps: Number(floor.rps.toFixed(1)), cpuUsPerCall: Number(floor.cpuUsPerCall.toFixed(1)) },
          },
          ...(stages ? { stagesUsPerCall: stages } : {}),
          ...(passStages ? { passThroughStagesUsPerCall: passStages } : {}),
          ...(otherFig
            ? {
                other: {
                  checkout: OTHER,
                  ...otherFig,
                  cpuUsPerCall: Number(otherFig.cpuUsPerCall.toFixed(1)),
                  cpuRatioToPassThrough: Number((otherFig.cpuUsPerCall / Math.max(1, floor.cpuUsPerCall)).toFixed(2)),
                  sideBySideCpuRatio: Number((otherBesideRatio ?? 0).toFixed(2)),
                },
              }
            : {}),
          sideBySideRounds: rounds.map((r) => ({
            gateway: Number(r.gateway.toFixed(1)),
            passThrough: Number(r.pass.toFixed(1)),
            ...(r.other !== undefined ? { other: Number(r.other.toFixed(1)) } : {}),
          })),
          loadAverage: loadavg(),
          warmupSeconds: WARMUP,
          target: 0.7,
          targetGatewayCpuUsPerCall: 1000,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`written ${file.pathname}`);
    console.log(
      `RESULT gateway / pass-through CPU per call: ${cpuRatio.toFixed(2)} one after the other ` +
        `(${gatewayFig.cpuUsPerCall.toFixed(0)} / ${floor.cpuUsPerCall.toFixed(0)} µs), ` +
        `${besideRatio.toFixed(2)} side by side (median of ${SIDE_ROUNDS} at ${SIDE_RATE}/s each)` +
        (otherFig
          ? `; other gateway ${(otherFig.cpuUsPerCall / Math.max(1, floor.cpuUsPerCall)).toFixed(2)} / ` +
            `${(otherBesideRatio ?? 0).toFixed(2)} (${otherFig.cpuUsPerCall.toFixed(0)} µs)`
          : '') +
        `; target ≤ 1.5; load average ${load()}`,
    );
  } finally {
    for (const fn of teardowns.reverse()) await fn();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
