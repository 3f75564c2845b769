/**
 * `npm start` as a user runs it, for the start and stop tests: the compiled platform
 * (scripts/start.mjs builds it when the sources changed), ledger and gateway on the embedded
 * database, as real processes on free ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START = join(ROOT, 'scripts/start.mjs');
const LEDGER = join(ROOT, 'ledger-service/bin/ledger.mjs');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A port another program holds until the test ends. */
export async function takenPort(t: { teardown(fn: () => unknown): void }, host = '127.0.0.1'): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

export function baseEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    LEDGER_PORT: '0',
    GATEWAY_METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'LEDGER_URL', 'GATEWAY_DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

export interface Started {
  child: ChildProcess;
  /** the ledger's own address */
  ledgerUrl: string;
  /** the public origin as the gateway serves it on this machine */
  url: string;
  output: () => string;
  /** resolves once `text` (a string or pattern) has been printed */
  printed: (text: RegExp) => Promise<void>;
  exited: Promise<number | null>;
}

function spawnStart(env: NodeJS.ProcessEnv, opts: { npm?: boolean } = {}): Omit<Started, 'ledgerUrl' | 'url'> {
  // `npm start` in a process group of its own, so a signal reaches npm and the server together
  // as Ctrl-C in a terminal does; otherwise the launcher itself (its pid is the server's)
  const child = opts.npm
    ? spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, [START], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiting: { text: RegExp; resolve: () => void }[] = [];
  const look = (chunk: Buffer) => {
    out += chunk;
    for (const w of [...waiting]) {
      if (w.text.test(out)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.on('data', look);
  child.stderr!.on('data', look);
  // 'close': also every process that inherited the output is gone (npm may end before the server it started)
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const printed = (text: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (text.test(out)) return resolve();
      waiting.push({ text, resolve });
      void exited.then(() => reject(new Error(`exited before printing ${text}:\n${out}`)));
    });
  return { child, output: () => out, printed, exited };
}

export async function start(env: NodeJS.ProcessEnv, opts: { npm?: boolean } = {}): Promise<Started> {
  const s = spawnStart(env, opts);
  await s.printed(/gateway listening on (http:\/\/\S+);/);
  const ledgerUrl = /ledger listening on (http:\/\/\S+)/.exec(s.output())![1]!;
  const url = /gateway listening on (http:\/\/\S+);/.exec(s.output())![1]!;
  return { ...s, ledgerUrl, url };
}

export function ledgerCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LEDGER, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs start to its end (a refusal): exit code and what it printed on each stream. */
export async function refused(
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [START], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // a build message may come first (the sources changed since the last build): not part of the refusal
  stderr = stderr
    .split('\n')
    .filter((line) => !/^start: (building|built) /.test(line))
    .join('\n');
  return { code, stdout, stderr };
}

/**
 * Polls `url` until it answers (a refused or cut connection is tried again 20 ms later), as a
 * container's health check does from the moment a service starts; resolves with the status.
 */
export async function firstAnswer(url: string): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      return res.status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Data directories of this test file, removed when it ends (an embedded database is tens of MB). */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tmp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * A POST whose body arrives in two parts, in flight in between: `inFlight` resolves once the
 * server has read its headers (it answered `Expect: 100-continue`) and holds the first part.
 */
export function slowPost(url: string, path: string, apiKey: string, body: string) {
  const half = Math.floor(body.length / 2);
  const req = request(`${url}${path}`, {
    method: 'POST',
    headers: {
      'X-API-Key': apiKey,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      Expect: '100-continue',
    },
  });
  const inFlight = new Promise<void>((resolve) =>
    req.once('continue', () => req.write(body.slice(0, half), () => resolve())),
  );
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { inFlight, answer, finish: () => req.end(body.slice(half)) };
}
