// A test file for scripts/run-tests.mjs's test: it blocks its own event loop, so tap's own timeout
// cannot fire; the runner must kill it.
import t from 'tap';

t.pass('started');
setTimeout(() => {
  for (;;) {}
}, 10);
