// A test file for scripts/run-tests.mjs's test: it passes one assertion, then the process dies
// before tap can print its summary.
import t from 'tap';

t.pass('before the crash');
process.stdout.write('', () => process.kill(process.pid, 'SIGKILL'));
