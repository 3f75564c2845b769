// A test file for scripts/run-tests.mjs's test (e2e/test/runTests.test.ts): two passing assertions and a skip.
import t from 'tap';

t.pass('one');
t.test('a subtest', async (t) => {
  t.equal(1 + 1, 2);
});
t.test('skipped on purpose', { skip: 'the runner must count a skip' }, async () => {});
