/**
 * The stop-signal rule of every long-running entry point (shared/src/lifecycle.ts), on this
 * process's own signal handlers with a clock the test sets: the first signal asks to stop,
 * the same signal again within a second is the same Ctrl-C (the terminal and npm both
 * deliver it), any later one exits at once. stop.test.ts runs the real processes.
 */
import t from 'tap';
import { DUPLICATE_MS, onStopSignals } from '@ledger/shared/lifecycle';

function harness() {
  let now = 0;
  const exits: number[] = [];
  const lines: string[] = [];
  const stop = onStopSignals({ now: () => now, exitNow: (code) => exits.push(code), log: (line) => lines.push(line) });
  return { stop, exits, lines, at: (ms: number) => (now = ms) };
}

t.test('a repeat within the duplicate window is the same request; a later signal exits at once', async (t) => {
  const h = harness();
  t.teardown(() => h.stop.dispose());
  t.equal(h.stop.requested, undefined);
  process.emit('SIGINT', 'SIGINT');
  t.equal(h.stop.requested, 'SIGINT');
  t.equal(await h.stop.whenRequested, 'SIGINT');
  t.match(h.lines, [/^SIGINT: letting requests in flight finish/]);

  h.at(40);
  process.emit('SIGINT', 'SIGINT');
  t.same(h.exits, [], 'the same Ctrl-C delivered twice does not exit');

  h.at(DUPLICATE_MS + 1);
  process.emit('SIGINT', 'SIGINT');
  t.same(h.exits, [1], 'a second Ctrl-C exits at once (code 1)');
  t.match(h.lines.at(-1), /^SIGINT again: stopping now$/);
});

t.test('another signal right after the first is not a repeat: it exits at once', async (t) => {
  const h = harness();
  t.teardown(() => h.stop.dispose());
  process.emit('SIGTERM', 'SIGTERM');
  h.at(10);
  process.emit('SIGINT', 'SIGINT');
  t.same(h.exits, [1]);
});

t.test('dispose removes the handlers', async (t) => {
  const before = process.listenerCount('SIGTERM');
  const h = harness();
  t.equal(process.listenerCount('SIGTERM'), before + 1);
  h.stop.dispose();
  t.equal(process.listenerCount('SIGTERM'), before);
});
