/**
 * Starts the ledger and the gateway as real processes (their CLIs), on free loopback ports,
 * with the Postgres test database and a fresh SQLite file, and runs CLI commands against
 * the same configuration. The gateway's key pair is generated here, so tests can also sign
 * a service credential themselves (to prove checks at the ledger).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, type CryptoKey } from 'jose';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LEDGER_BIN = join(ROOT, 'ledger-service/bin/ledger.mjs');
const GATEWAY_BIN = join(ROOT, 'mcp-gateway/bin/gateway.mjs');

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface Stack {
  /** the public origin {api_url} (the gateway) */
  apiUrl: string;
  ledgerUrl: string;
  /** the gateway's private key: signs service credentials the ledger accepts */
  gatewayKey: CryptoKey;
  env: NodeJS.ProcessEnv;
  /** runs `ledger <args>` with the stack's configuration; returns stdout (throws on a non-zero exit) */
  ledgerCli(args: string[], stdin?: string): Promise<string>;
  /** last lines the processes printed (for failure messages; never contains secrets the test did not print) */
  logs(): string;
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function waitHealthy(url: string, child: ChildProcess, name: string, logs: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${logs()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not become healthy at ${url}:\n${logs()}`);
}

export interface StackOptions {
  /** Postgres database of the ledger (default TEST_DATABASE_URL) */
  databaseUrl?: string;
  /** environment for both processes, e.g. LOG_LEVEL */
  env?: NodeJS.ProcessEnv;
}

export async function startStack(
  t: Teardown,
  extraGatewayEnv: NodeJS.ProcessEnv = {},
  opts: StackOptions = {},
): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-stack-'));
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const ledgerPort = await freePort();
  const gatewayPort = await freePort();
  const apiUrl = `http://127.0.0.1:${gatewayPort}`;
  const ledgerUrl = `http://127.0.0.1:${ledgerPort}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    // node's options for both services (a benchmark's profiling, e.g. --perf-basic-prof for Linux perf)
    ...(process.env.BENCH_STACK_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_STACK_NODE_OPTIONS } : {}),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    DATABASE_URL: opts.databaseUrl ?? TEST_DATABASE_URL,
    DATA_DIR: dataDir,
    PUBLIC_URL: apiUrl,
    LEDGER_PORT: String(ledgerPort),
    LEDGER_URL: ledgerUrl,
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    GATEWAY_DB: join(dataDir, 'gateway.sqlite'),
    // stacks run side by side: each gateway's /metrics listener on a free port of its own
    GATEWAY_METRICS_PORT: '0',
    // stacks share the test database: each sends only its own mail (its own pg-boss queue)
    MAIL_QUEUE: `e2e_mail_${randomBytes(6).toString('hex')}`,
    GATEWAY_PRIVATE_JWK: JSON.stringify(await exportJWK(privateKey)),
    GATEWAY_PUBLIC_JWK: JSON.stringify({ ...(await exportJWK(publicKey)), alg: 'EdDSA' }),
    ...opts.env,
  };
  const output: string[] = [];
  const capture = (name: string, child: ChildProcess) => {
    const push = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) output.push(`[${name}] ${line}`);
      if (output.length > 400) output.splice(0, output.length - 400);
    };
    child.stdout?.on('data', push);
    child.stderr?.on('data', push);
  };
  const logs = () => output.slice(-60).join('\n');

  const children: ChildProcess[] = [];
  const start = (name: string, bin: string, args: string[], procEnv: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: procEnv,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    capture(name, child);
    children.push(child);
    return child;
  };
  t.teardown(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(async (child) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await waitForExit(child);
        clearTimeout(timer);
      }),
    );
  });

  const ledger = start('ledger', LEDGER_BIN, ['serve'], env);
  await waitHealthy(`${ledgerUrl}/healthz`, ledger, 'ledger', logs);
  const gateway = start('gateway', GATEWAY_BIN, ['serve'], { ...env, ...extraGatewayEnv });
  await waitHealthy(`${apiUrl}/healthz`, gateway, 'gateway', logs);

  const ledgerCli = (args: string[], stdin?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [LEDGER_BIN, ...args], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
      child.stdin.end(stdin ?? '');
      child.on('exit', (code) =>
        code === 0
          ? resolve(out)
          : reject(new Error(`ledger ${args[0]} ${args[1] ?? ''} exited ${code}: ${err.trim()}`)),
      );
    });

  return { apiUrl, ledgerUrl, gatewayKey: privateKey, env, ledgerCli, logs };
}
