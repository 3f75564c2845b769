/**
 * The `ledger` CLI while `npm start` holds the embedded database: the CLI reaches the running
 * server's embedded Postgres over its loopback socket (named in <DATA_DIR>/embedded.lock)
 * instead of refusing, and what it creates works at once against the running server.
 * A lock left by a process that is gone is still taken over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LEDGER = join(ROOT, 'ledger-service/bin/ledger.mjs');

function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LEDGER_PORT: '0',
    PORT: '0',
    GATEWAY_METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  return env;
}

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/**
 * `npm start` as its script runs it (scripts/start.mjs: the compiled build, made first when it is
 * stale), started as node directly rather than through npm, so the child's pid is the server's pid.
 */
async function start(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const look = (c: Buffer) => {
      out += c;
      const m = /ledger listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then(() => reject(new Error(`start exited: ${out}`)));
  });
  return { child, url, exited };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ledger(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LEDGER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

t.test('while npm start runs on the embedded database, the CLI works through it', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-running-'));
  const env = embeddedEnv(dataDir);
  const server = await start(env);
  t.teardown(() => server.child.kill('SIGKILL'));

  const lock = JSON.parse(readFileSync(join(dataDir, 'embedded.lock'), 'utf8')) as { pid: number; url: string };
  t.equal(lock.pid, server.child.pid, 'the lock names the process that owns the database');
  t.match(
    lock.url,
    /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/,
    'and its embedded Postgres, on loopback only',
  );

  const user = await ledger(
    ['user', 'create', 'running@example.com', '--name', 'Running Person', '--password-stdin', '--json'],
    env,
    'a long enough password\n',
  );
  t.equal(user.code, 0, `user create while the server runs: ${user.stderr}`);
  t.match(JSON.parse(user.stdout), { email: 'running@example.com', totp_secret: /\S/ });

  const member = await ledger(['member', 'add', 'demo', 'running@example.com', '--role', 'accountant', '--json'], env);
  t.equal(member.code, 0, member.stderr);

  const key = await ledger(
    ['key', 'create', 'demo', '--user', 'running@example.com', '--label', 'added while running', '--json'],
    env,
  );
  t.equal(key.code, 0, key.stderr);
  const created = JSON.parse(key.stdout) as { id: number; key: string };
  t.match(created.key, /^ak_/);

  const list = await ledger(['key', 'list', 'demo', '--json'], env);
  t.equal(list.code, 0, list.stderr);
  t.ok(
    (JSON.parse(list.stdout) as { id: number; label: string }[]).some(
      (k) => k.id === created.id && k.label === 'added while running',
    ),
    'key list shows it',
  );

  const validate = await fetch(`${server.url}/client/demo/auth/validate_api`, {
    method: 'POST',
    headers: { 'X-API-Key': created.key },
  });
  t.same(await validate.json(), { success: 1 }, 'the running server accepts the new key at once');
  const vendors = await fetch(`${server.url}/client/demo/arap/vendor`, { headers: { 'X-API-Key': created.key } });
  t.equal(vendors.status, 200, 'and serves the new member through it');

  const serve = await ledger(['serve'], { ...env, LEDGER_PORT: '0' });
  t.equal(serve.code, 1, 'a second server on the same embedded database is still refused');
  t.match(serve.stderr, new RegExp(`in use by process ${server.child.pid}`));

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'SIGTERM stops cleanly');
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'and releases the lock');
  const after = await ledger(['key', 'list', 'demo', '--json'], env);
  t.equal(after.code, 0, `with the server stopped the CLI opens the database itself: ${after.stderr}`);
  t.ok(
    (JSON.parse(after.stdout) as { id: number }[]).some((k) => k.id === created.id),
    'the key was written to the files',
  );
});

t.test('a lock left by a process that is gone is taken over', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-running-'));
  const env = embeddedEnv(dataDir);
  // a pid that is certainly gone: a child that has already exited
  const gone = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => gone.on('exit', resolve));
  writeFileSync(
    join(dataDir, 'embedded.lock'),
    JSON.stringify({ pid: gone.pid, url: 'postgres://postgres@127.0.0.1:1/postgres' }),
  );

  const company = await ledger(['company', 'create', 'stale', '--name', 'Stale Lock AG', '--json'], env);
  t.equal(company.code, 0, `the CLI opens the database itself: ${company.stderr}`);
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'and leaves no lock behind');
});
