/**
 * How npm test runs the suite (docs/testing.md): the slowest-files report at its end, the test
 * database copied from a template migrated once, the files that run alone named in the docs, and
 * the test files compiled (scripts/build-tests.mjs) behaving as their sources.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { migrationSource } from '../../ledger-service/src/db/migrations/index.ts';
// @ts-expect-error: a plain JavaScript script of the repository, without type declarations
import { buildTests, partition } from '../../scripts/build-tests.mjs';
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

for (const [mark, what] of [
  ['runs alone', 'run alone'],
  ['runs from source', 'run from source'],
] as const) {
  t.test(`the files that ${what} say why, and docs/testing.md names each`, async (t) => {
    const marked = spawnSync(
      'grep',
      ['-rl', '--include=*.test.ts', `^// npm test: ${mark} (`, 'shared', 'ledger-service', 'mcp-gateway', 'e2e'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .stdout.trim()
      .split('\n')
      .filter((file) => file && !file.includes('node_modules'));
    t.ok(marked.length > 0, `${marked.length} files ${what}`);
    const docs = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
    for (const file of marked) t.ok(docs.includes(`| \`${file}\` |`), `docs/testing.md names ${file}`);
  });
}

t.test('a compiled test file finds what its source would, and is reported by its source name', async (t) => {
  const outdir = join(ROOT, `.test-build-probe-${randomBytes(4).toString('hex')}`);
  t.teardown(() => rmSync(outdir, { recursive: true, force: true }));
  const probe = 'e2e/test/support/compiledProbe.ts';
  await buildTests([probe], outdir);
  const compiled = join(outdir, 'e2e/test/support/compiledProbe.js');
  t.ok(existsSync(compiled), 'compiled beside the others, by its path');
  const seen = JSON.parse(execFileSync('node', [compiled], { cwd: ROOT, encoding: 'utf8' }));
  const source = join(ROOT, probe);
  t.same(
    { url: seen.url, dirname: seen.dirname, filename: seen.filename },
    { url: pathToFileURL(source).href, dirname: join(ROOT, 'e2e/test/support'), filename: source },
    'import.meta names the source file, so fixtures beside it are found',
  );
  t.equal(seen.job, pathToFileURL(join(outdir, 'jobs', 'statementJob.js')).href, 'a parsing job is the compiled one');
  t.ok(existsSync(join(outdir, 'jobs', 'statementJob.js')), 'which is built');
  t.equal(readFileSync(join(outdir, 'package.json'), 'utf8').trim(), '{ "type": "module" }', 'as ES modules');

  const { compiled: many, fromSource } = partition() as { compiled: string[]; fromSource: string[] };
  t.ok(fromSource.includes('ledger-service/src/untrusted/fairShare.test.ts'), 'a file marked to run from source does');
  t.notOk(many.includes('ledger-service/src/untrusted/fairShare.test.ts'), 'and is not compiled');
  t.ok(many.includes('e2e/test/testRun.test.ts'), 'the others are');

  const log = join(outdir, 'tap');
  writeFileSync(log, 'ok 1 - .test-build/ledger-service/src/x.test.js # time=1000ms\n');
  const lines = execFileSync('node', ['scripts/slowest-tests.mjs', `together=${log}`], { cwd: ROOT, encoding: 'utf8' });
  t.match(lines, /1\.0 s {2}ledger-service\/src\/x\.test\.ts \(together\)/, 'the slowest list names the source');
});
