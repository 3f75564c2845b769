// A test file for scripts/run-tests.mjs's test: one passing and one failing assertion.
import t from 'tap';

t.pass('fine');
t.equal('written', 'expected', 'a failure the runner must report with this file output');
