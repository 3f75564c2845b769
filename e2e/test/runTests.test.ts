/**
 * scripts/run-tests.mjs, the runner npm test starts the test files with (docs/testing.md "The
 * runner"): every file as a plain node process, its counts added up, a failure reported with the
 * file's output, a crash or a stuck file counted as a failure, and the exit code set.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => `e2e/test/support/runTests/${name}.mjs`;

function run(files: string[], env: Record<string, string> = {}, options = ['--jobs=2']) {
  const result = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...options, ...files], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: result.status, lines: result.stdout.split('\n') };
}

t.test('passing files: each named with its time, the counts summed, exit code 0', async (t) => {
  const { code, lines } = run([fixture('passes'), fixture('passes')]);
  t.equal(code, 0);
  t.match(lines, [/^TAP version 14$/]);
  const fileLines = lines.filter((l) => /^(not )?ok \d+ - /.test(l));
  t.equal(fileLines.length, 2);
  for (const l of fileLines) t.match(l, /^ok \d - e2e\/test\/support\/runTests\/passes\.mjs # time=[\d.]+ms$/);
  // each file: two passing assertions and one skip; the summary is the sum
  t.ok(lines.includes('# { total: 6, pass: 4, skip: 2 }'), lines.join('\n'));
  t.notOk(
    lines.some((l) => l.startsWith('    ')),
    'nothing of a passing file is printed',
  );
});

t.test('a failing file: its output indented as a subtest, not ok, counted, exit code 1', async (t) => {
  const { code, lines } = run([fixture('passes'), fixture('fails')]);
  t.equal(code, 1);
  t.ok(lines.includes('# Subtest: e2e/test/support/runTests/fails.mjs'));
  t.ok(lines.some((l) => /^ {4}not ok \d+ - a failure the runner must report/.test(l)));
  t.ok(lines.some((l) => /^not ok \d - e2e\/test\/support\/runTests\/fails\.mjs # time=/.test(l)));
  t.ok(lines.includes('# failed: e2e/test/support/runTests/fails.mjs'));
  t.ok(lines.includes('# { total: 5, pass: 3, fail: 1, skip: 1 }'), lines.join('\n'));
});

t.test('a file that dies before its summary counts one failure, and the next file still runs', async (t) => {
  const { code, lines } = run([fixture('crashes'), fixture('passes')], {}, ['--jobs=1']);
  t.equal(code, 1);
  t.ok(lines.some((l) => /^not ok 1 - e2e\/test\/support\/runTests\/crashes\.mjs/.test(l)));
  t.ok(lines.some((l) => /^ok 2 - e2e\/test\/support\/runTests\/passes\.mjs/.test(l)));
  t.ok(lines.includes('# { total: 4, pass: 2, fail: 1, skip: 1 }'), lines.join('\n'));
});

t.test('a file whose event loop is stuck is killed after its timeout and the grace', async (t) => {
  const { code, lines } = run([fixture('hangs')], { TEST_KILL_GRACE: '1' }, ['--timeout=1']);
  t.equal(code, 1);
  t.ok(lines.includes('    # run-tests: killed 2 s after its start'), lines.join('\n'));
  t.ok(lines.some((l) => /^not ok 1 - e2e\/test\/support\/runTests\/hangs\.mjs/.test(l)));
  t.ok(lines.includes('# { total: 1, pass: 0, fail: 1 }'), lines.join('\n'));
});
