/**
 * How npm test runs the suite (docs/testing.md): the slowest-files report at its end, the test
 * database copied from a template migrated once, and the files that run alone named in the docs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { migrationSource } from '../../ledger-service/src/db/migrations/index.ts';
import { copyOfTemplate, templateUrl } from '../../scripts/database.ts';
import { TEST_DATABASE_URL } from './support/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select name from knex_migrations order by name');
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

t.test('the slowest files of the tap runs, slowest first, with their run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'slowest-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const together = join(dir, 'together');
  const alone = join(dir, 'alone');
  writeFileSync(
    together,
    [
      'TAP version 14',
      '# Subtest: a.test.ts',
      '    ok 1 - a subtest, not a file # time=99999ms',
      'ok 1 - ledger-service/src/a.test.ts # time=1500.5ms',
      'not ok 2 - mcp-gateway/test/b.test.ts # time=42000ms',
      'ok 3 - e2e/test/c.test.ts # time=300ms',
      '# { total: 3, pass: 2, fail: 1 }',
    ].join('\n'),
  );
  writeFileSync(alone, 'ok 1 - ledger-service/src/d.test.ts # time=7000ms\n# { total: 1, pass: 1 }\n');
  const run = (env: Record<string, string> = {}) =>
    execFileSync('node', ['scripts/slowest-tests.mjs', `together=${together}`, `alone=${alone}`, 'x=/no/such/log'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    })
      .trim()
      .split('\n');
  const lines = run();
  t.match(lines[0], /^# slowest test files \(of 4;/);
  t.same(
    lines.slice(1, 5).map((l) => l.replace(/\s+/g, ' ')),
    [
      '# 42.0 s mcp-gateway/test/b.test.ts (together)',
      '# 7.0 s ledger-service/src/d.test.ts (alone)',
      '# 1.5 s ledger-service/src/a.test.ts (together)',
      '# 0.3 s e2e/test/c.test.ts (together)',
    ],
    'every file once, a failed one too, slowest first; subtests are not files',
  );
  t.same(lines.slice(5), [
    '# together: 3 files, 43.8 s of file time in all',
    '# alone: 1 files, 7.0 s of file time in all',
  ]);
  t.ok(
    lines.every((l) => l.startsWith('# ')),
    'TAP comments only',
  );
  t.equal(run({ SLOWEST_TESTS: '2' }).length, 1 + 2 + 2, 'SLOWEST_TESTS=2: the two slowest');
});

t.test('the test database is a copy of a template migrated once; so is a database a test asks for', async (t) => {
  const all = (await migrationSource.getMigrations([])).slice().sort();
  // the template itself is not opened here: a connection to it would fail another file's copy meanwhile
  t.same(await appliedMigrations(TEST_DATABASE_URL), all, 'the test database: the same');
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `${url.pathname}_copy_${randomBytes(4).toString('hex')}`;
  await copyOfTemplate(url.toString(), templateUrl(TEST_DATABASE_URL));
  t.teardown(async () => {
    const admin = new pg.Client({
      connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString(),
    });
    await admin.connect();
    await admin.query(`drop database if exists "${url.pathname.slice(1)}" with (force)`);
    await admin.end();
  });
  t.same(await appliedMigrations(url.toString()), all, 'a copy is migrated without migrating');
});

t.test('the files that run alone say why, and docs/testing.md names each', async (t) => {
  const marked = spawnSync(
    'grep',
    ['-rl', '--include=*.test.ts', '^// npm test: runs alone (', 'ledger-service', 'mcp-gateway', 'e2e'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .stdout.trim()
    .split('\n')
    .filter(Boolean);
  t.ok(marked.length > 0, `${marked.length} files run alone`);
  const docs = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
  for (const file of marked) t.ok(docs.includes(`| \`${file}\` |`), `docs/testing.md names ${file}`);
});
