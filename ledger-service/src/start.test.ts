import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** `npm start` on the embedded database (PGlite through pglite-socket), as a user runs it. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const LEDGER = join(ROOT, 'ledger-service/bin/ledger.mjs');

function baseEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LEDGER_PORT: '0', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return env;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(TSX, [join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /ledger listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        // the demo block is printed in the same write
        resolve(m[1]!);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`start exited: ${out}`));
    });
  });
  return { child, url, output: () => out, exited };
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LEDGER, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

t.test('first start on an empty embedded database creates the demo company', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-start-'));
  const env = baseEnv(dataDir);
  const first = await start(env);
  t.teardown(() => first.child.kill('SIGKILL'));

  t.match(first.output(), /Demo company "demo"/, 'prints the demo credentials');
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  t.match(demo, { api_url: 'http://localhost:3000', dataset: 'demo', base_url: 'http://localhost:3000/client/demo', api_key: /^ak_/ });
  t.match(first.output(), demo.api_key);

  const res = await fetch(`${first.url}/client/demo/auth/validate_api`, { method: 'POST', headers: { 'X-API-Key': demo.api_key } });
  t.same(await res.json(), { success: 1 }, 'the demo key works on the embedded database');
  const vendors = await fetch(`${first.url}/client/demo/arap/vendor`, { headers: { 'X-API-Key': demo.api_key } });
  t.ok(((await vendors.json()) as unknown[]).length >= 2, 'demo vendors');
  const created = await fetch(`${first.url}/client/demo/arap/customer`, {
    method: 'POST', headers: { 'X-API-Key': demo.api_key, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Embedded AG' }),
  });
  t.equal(created.status, 201, 'writes work through RLS on PGlite');

  const whileRunning = await cli(['key', 'list', 'demo'], env);
  t.equal(whileRunning.code, 0, `the CLI works through the running server's embedded database: ${whileRunning.stderr}`);
  const secondServer = await cli(['serve'], env);
  t.equal(secondServer.code, 1, 'but a second process does not open the embedded files');
  t.match(secondServer.stderr, /in use by process/);

  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'SIGTERM stops cleanly');
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'and releases the lock');

  const keys = await cli(['key', 'list', 'demo', '--json'], env);
  t.equal(keys.code, 0, `the CLI works on the stopped embedded database ${keys.stderr}`);

  const second = await start(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.notMatch(second.output(), /Demo company/, 'the demo is created only once');
  const again = await fetch(`${second.url}/client/demo/arap/customer?name=embedded`, { headers: { 'X-API-Key': demo.api_key } });
  t.equal(((await again.json()) as unknown[]).length, 1, 'data persists under the data directory');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0);
});

t.test('a malformed variable stops start with one line naming it, exit 2', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-start-'));
  const child = spawn(TSX, [join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env: { ...baseEnv(dataDir), PUBLIC_URL: 'not a url' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.equal(code, 2);
  t.equal(err, 'start: PUBLIC_URL must be a URL, got "not a url"\n');
});
