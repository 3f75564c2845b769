/**
 * What a fresh clone needs to run `npm ci && npm test`, and nothing more:
 * - the files the tests read are in the repository (the ISO 20022 schemas were once read from
 *   a folder beside it), checked in a copy of the repository's files with nothing beside it;
 * - `npm ci` on this Node prints no engine warning (npm's own check, as a dry run);
 * - npm test names the programs it needs and stops before running anything when they are
 *   missing and cannot be installed (scripts/test-prerequisites.sh).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function which(cmd: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${cmd} is not installed`);
  return found;
}

t.test('the bank files validate against schemas inside the repository, with nothing beside it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // what a clone holds: the files git knows (the index), copied from the working tree
  const clone = join(dir, 'main');
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);
  t.ok(files.length > 100, 'git lists the repository');
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree, not yet in the index
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(clone, file));
  }
  // the installed packages stand in for `npm ci`; they are not part of the question
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  t.notOk(existsSync(join(dir, 'shared')), 'no folder beside the copy');

  const script = `
    import { fixture, validateXsd, ISO20022_DIR } from './ledger-service/test/fixtures/bank/support.ts';
    const results = {
      dir: ISO20022_DIR,
      camt053: await validateXsd(fixture('camt.053.001.08.xml'), 'camt.053.001.08.xsd'),
      camt054: await validateXsd(fixture('camt.054.001.08.xml'), 'camt.054.001.08.xsd'),
      // read and applied: a statement is not a payment file
      pain001: await validateXsd(fixture('camt.053.001.08.xml'), 'pain.001.001.09.ch.03.xsd'),
    };
    console.log(JSON.stringify(results));
  `;
  writeFileSync(join(clone, 'xsd-check.ts'), script);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'xsd-check.ts'], { cwd: clone, encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  const results = JSON.parse(run.stdout) as Record<
    'camt053' | 'camt054' | 'pain001',
    { valid: boolean; errors: string[] }
  > & { dir: string };
  t.ok(results.dir.startsWith(clone), `the schemas are read from inside the copy (${results.dir})`);
  t.same(results.camt053, { valid: true, errors: [] });
  t.same(results.camt054, { valid: true, errors: [] });
  t.equal(results.pain001.valid, false);
  t.match(
    results.pain001.errors.join('\n'),
    /camt\.053\.001\.08}Document.: No matching global/,
    'the pain.001 schema was read: it declares no camt Document',
  );
});

t.test('npm ci prints no engine warning on this Node', async (t) => {
  // a dry run resolves the lockfile and checks every package's engines like npm ci, installing nothing
  const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(run.status, 0, run.stderr);
  t.notMatch(`${run.stdout}${run.stderr}`, /EBADENGINE/, `${run.stderr}`);
});

t.test('npm test names the programs it lacks and runs nothing without them', async (t) => {
  // a PATH with bash and dirname only: no package manager to install with, no npm to run tests with
  const bin = mkdtempSync(join(tmpdir(), 'bare-path-'));
  t.teardown(() => rmSync(bin, { recursive: true, force: true }));
  for (const cmd of ['bash', 'dirname']) symlinkSync(which(cmd), join(bin, cmd));
  const bare = (env: Record<string, string> = {}) =>
    spawnSync(join(bin, 'bash'), ['scripts/test.sh'], { cwd: ROOT, encoding: 'utf8', env: { PATH: bin, ...env } });

  const run = bare();
  t.equal(run.status, 1);
  t.equal(
    run.stderr.split('\n')[0],
    'npm test needs programs that are not installed: chromium, openssl, poppler-utils, redis-server, haproxy, ' +
      'docker-compose, hledger (Debian packages).',
  );
  t.match(run.stderr, /apt-get install chromium openssl poppler-utils redis-server haproxy docker-compose hledger/);
  t.notMatch(`${run.stdout}${run.stderr}`, /command not found|typecheck|tsc/, 'stopped before the type check');

  const chromium = bare({ CHROMIUM_PATH: join(bin, 'no-such-browser') });
  t.equal(chromium.status, 1);
  t.equal(chromium.stderr.trim(), `npm test: CHROMIUM_PATH=${join(bin, 'no-such-browser')} is not an executable file`);
});

t.test('npm test names a Postgres or Redis it cannot reach', async (t) => {
  const check = (env: Record<string, string>) =>
    spawnSync(join(ROOT, 'scripts', 'test-prerequisites.sh'), [], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
  t.equal(check({}).status, 0, 'everything is there on this machine');
  // port 1 (tcpmux) is never a database or Redis here
  const down = check({
    TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
    GATEWAY_TEST_REDIS_URL: 'redis://127.0.0.1:1',
  });
  t.equal(down.status, 1);
  t.match(down.stderr, /npm test needs Postgres at postgres:\/\/postgres@127\.0\.0\.1:1\/x: not reachable/);
  t.match(down.stderr, /npm test needs Redis at redis:\/\/127\.0\.0\.1:1: not reachable/);
});
