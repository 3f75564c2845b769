/**
 * A cluster on one machine, as docs/operations.md "Running several replicas" runs it: two ledger and two gateway
 * processes (their CLIs) on one Postgres (the test database; the gateways' state in a schema of their own) and one
 * Redis (a redis-server of its own on a free port), behind a real haproxy (Debian's package): one frontend is the
 * public origin (→ the gateways), one is the ledger address the gateways use (→ the ledgers). The haproxy config is
 * generated here.
 *
 * Every process's output is kept line by line (JSON log lines parsed), so a test can find
 * one request id in the logs of both services.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { exportJWK, generateKeyPair } from 'jose';
import { freePort, TEST_DATABASE_URL } from './processes.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LEDGER_BIN = join(ROOT, 'ledger-service/bin/ledger.mjs');
const GATEWAY_BIN = join(ROOT, 'mcp-gateway/bin/gateway.mjs');

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface LogLine {
  process: string;
  /** the parsed JSON log line, or { msg: text } for other output */
  entry: Record<string, unknown>;
}

export interface ClusterProcess {
  name: string;
  /** its own address (bypassing haproxy) */
  url: string;
  child: ChildProcess;
  /** its Prometheus endpoint (the ledger's own port; the gateway's GATEWAY_METRICS_PORT) */
  metricsUrl: string;
  /** SIGKILL, as a crash would */
  kill(): Promise<void>;
}

export interface Cluster {
  /** the public origin: haproxy → gateways */
  apiUrl: string;
  /** haproxy → ledgers (what the gateways call) */
  ledgerLbUrl: string;
  ledgers: ClusterProcess[];
  gateways: ClusterProcess[];
  env: NodeJS.ProcessEnv;
  /** every log line so far */
  logLines(): LogLine[];
  ledgerCli(args: string[]): Promise<string>;
  /** the generated haproxy configuration (for failure messages) */
  haproxyConfig: string;
}

/** Whether the programs the cluster needs are installed (npm test installs them, scripts/test-prerequisites.sh). */
export function clusterPrerequisites(): string[] {
  return ['haproxy', 'redis-server'].filter((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0);
}

function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  logs: () => string,
  child?: ChildProcess,
  ms = 60_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${logs()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${ms} ms:\n${logs()}`);
}

const ok = (url: string) => async () => (await fetch(url)).ok;

/** haproxy: L7 retries (with redispatch to the other server) only for requests that may run twice. */
export function haproxyConfig(p: {
  publicPort: number;
  ledgerLbPort: number;
  gateways: number[];
  ledgers: number[];
}): string {
  const servers = (prefix: string, ports: number[], check: string) =>
    ports
      .map((port, i) => `  server ${prefix}${i + 1} 127.0.0.1:${port} check inter 300 fall 2 rise 2 ${check}`)
      .join('\n');
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  # a request that failed at one server is tried again (up to 3 times) at another
  retries 3
  option redispatch 1
  # which failures are retried: the connection could not be made, or the server closed it
  # without an answer (a crash mid-request), or answered garbage. Never on a timeout: the
  # first attempt may still be running.
  retry-on conn-failure empty-response junk-response
  # ...but a POST only when it carries an Idempotency-Key (the ledger runs it at most once;
  # see the backends); GET/HEAD/DELETE are idempotent. Without a key, only a connection that
  # was never made is retried.

frontend public
  bind 127.0.0.1:${p.publicPort}
  # the gateways trust one proxy (TRUST_PROXY=1): this X-Forwarded-For entry is the client
  option forwardfor
  default_backend gateways

backend gateways
  balance roundrobin
  acl idempotent_post req.hdr(idempotency-key) -m found
  http-request disable-l7-retry if METH_POST !idempotent_post
  option httpchk GET /healthz
${servers('g', p.gateways, '')}

frontend ledger
  bind 127.0.0.1:${p.ledgerLbPort}
  default_backend ledgers

backend ledgers
  balance roundrobin
  acl idempotent_post req.hdr(idempotency-key) -m found
  http-request disable-l7-retry if METH_POST !idempotent_post
  option httpchk GET /readyz
${servers('l', p.ledgers, '')}
`;
}

export interface ClusterOptions {
  /** the ledgers' database (default TEST_DATABASE_URL); the gateways' schema is made in it too */
  databaseUrl?: string;
  /** environment for all four processes (e.g. LOG_LEVEL) */
  env?: NodeJS.ProcessEnv;
  /** environment for the gateways only (e.g. MCP_RATE_LIMIT) */
  gatewayEnv?: NodeJS.ProcessEnv;
}

export async function startCluster(t: Teardown, opts: ClusterOptions = {}): Promise<Cluster> {
  const databaseUrl = opts.databaseUrl ?? TEST_DATABASE_URL;
  const dir = mkdtempSync(join(tmpdir(), 'e2e-cluster-'));
  const [publicPort, ledgerLbPort, redisPort, l1, l2, g1, g2, m1, m2] = await Promise.all(
    Array.from({ length: 9 }, () => freePort()),
  );
  const lines: LogLine[] = [];
  const logs = () =>
    lines
      .slice(-80)
      .map((l) => `[${l.process}] ${JSON.stringify(l.entry)}`)
      .join('\n');
  const children: ChildProcess[] = [];
  t.teardown(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(async (child) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await waitForExit(child);
        clearTimeout(timer);
      }),
    );
  });
  const start = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess => {
    const child = spawn(command, args, { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const push = (chunk: Buffer) => {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(text) as Record<string, unknown>;
        } catch {
          entry = { msg: text };
        }
        lines.push({ process: name, entry });
      }
      if (lines.length > 20_000) lines.splice(0, lines.length - 20_000);
    };
    child.stdout?.on('data', push);
    child.stderr?.on('data', push);
    children.push(child);
    return child;
  };

  // Redis of its own: the limits of this cluster only
  const redis = start(
    'redis',
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { PATH: process.env.PATH },
  );

  // the gateways' state: a schema of its own in the test database
  const schema = `gw_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  t.teardown(async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  });
  const gatewayDb = new URL(databaseUrl);
  gatewayDb.searchParams.set('options', `-c search_path=${schema}`);

  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const apiUrl = `http://127.0.0.1:${publicPort}`;
  const ledgerLbUrl = `http://127.0.0.1:${ledgerLbPort}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    // info: the request lines carry the request ids the tests look for
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: apiUrl,
    LEDGER_URL: ledgerLbUrl,
    HOST: '127.0.0.1',
    // every replica the same: TOTP secrets and kept idempotent answers are encrypted with it
    LEDGER_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MAIL_QUEUE: `e2e_cluster_mail_${randomBytes(6).toString('hex')}`,
    GATEWAY_PRIVATE_JWK: JSON.stringify(await exportJWK(privateKey)),
    GATEWAY_PUBLIC_JWK: JSON.stringify({ ...(await exportJWK(publicKey)), alg: 'EdDSA' }),
    GATEWAY_DATABASE_URL: gatewayDb.toString(),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    TRUST_PROXY: '1',
    ...opts.env,
  };
  await waitUntil(
    'redis',
    async () =>
      spawnSync('redis-cli', ['-p', String(redisPort), 'ping'])
        .stdout.toString()
        .includes('PONG'),
    logs,
    redis,
  );

  const processOf = (name: string, url: string, child: ChildProcess, metricsUrl: string): ClusterProcess => ({
    name,
    url,
    child,
    metricsUrl,
    async kill() {
      child.kill('SIGKILL');
      await waitForExit(child);
    },
  });
  const ledgers = [l1, l2].map((port, i) => {
    const name = `ledger${i + 1}`;
    const child = start(name, process.execPath, [LEDGER_BIN, 'serve'], {
      ...env,
      LEDGER_PORT: String(port),
      DATA_DIR: join(dir, name),
    });
    return processOf(name, `http://127.0.0.1:${port}`, child, `http://127.0.0.1:${port}/metrics`);
  });
  for (const l of ledgers) await waitUntil(l.name, ok(`${l.url}/readyz`), logs, l.child);
  const gateways = [
    [g1, m1],
    [g2, m2],
  ].map(([port, metricsPort], i) => {
    const name = `gateway${i + 1}`;
    const child = start(name, process.execPath, [GATEWAY_BIN, 'serve'], {
      ...env,
      PORT: String(port),
      GATEWAY_METRICS_PORT: String(metricsPort),
      DATA_DIR: join(dir, name),
      ...opts.gatewayEnv,
    });
    return processOf(name, `http://127.0.0.1:${port}`, child, `http://127.0.0.1:${metricsPort}/metrics`);
  });
  // one after the other would also do; together they race for the migration lock, as replicas do
  for (const g of gateways) await waitUntil(g.name, ok(`${g.url}/readyz`), logs, g.child);

  const config = haproxyConfig({ publicPort, ledgerLbPort, gateways: [g1, g2], ledgers: [l1, l2] });
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, config);
  const check = spawnSync('haproxy', ['-c', '-f', configFile]);
  if (check.status !== 0)
    throw new Error(`haproxy refuses its configuration:\n${check.stdout}${check.stderr}\n${config}`);
  const haproxy = start('haproxy', 'haproxy', ['-db', '-f', configFile], { PATH: process.env.PATH });
  await waitUntil('haproxy (public)', ok(`${apiUrl}/healthz`), logs, haproxy);
  await waitUntil('haproxy (ledgers)', ok(`${ledgerLbUrl}/readyz`), logs);

  const ledgerCli = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [LEDGER_BIN, ...args], {
        env: { ...env, DATA_DIR: join(dir, 'cli') },
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
      child.on('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`ledger ${args.join(' ')} exited ${code}: ${err.trim()}`)),
      );
    });

  return { apiUrl, ledgerLbUrl, ledgers, gateways, env, logLines: () => lines, ledgerCli, haproxyConfig: config };
}
