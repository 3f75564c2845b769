/**
 * Stopping `npm start`: Ctrl-C and SIGTERM let requests in flight finish, a second signal
 * exits at once, and the embedded database's lock is released on every way out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { baseEnv, slowPost, start, tmp } from '../test/platform.ts';

// several real starts of the whole platform: more than the default time of a test file
t.setTimeout(600_000);

t.test('Ctrl-C under npm start lets a request in flight finish, then stops and releases the lock', async (t) => {
  const dataDir = tmp('ledger-start-');
  const platform = await start(baseEnv(dataDir), { npm: true });
  t.teardown(() => {
    try {
      process.kill(-platform.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  });
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
  const post = slowPost(
    platform.url,
    '/client/demo/arap/customer',
    demo.api_key,
    JSON.stringify({ name: 'In Flight AG', city: 'Zürich' }),
  );
  await post.inFlight;

  // Ctrl-C: the terminal signals the whole foreground process group (npm and the server), and
  // npm forwards it to the server as well
  process.kill(-platform.child.pid!, 'SIGINT');
  await platform.printed(/SIGINT: letting requests in flight finish/);
  post.finish();
  const answer = await post.answer;
  t.equal(answer.status, 201, `the request in flight is answered: ${answer.body}`);
  t.match(JSON.parse(answer.body), { id: Number }, 'the customer was created');
  await platform.exited;
  t.notMatch(platform.output(), /again: stopping now/, 'one Ctrl-C is one request to stop, though it arrives twice');
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'the lock is released');
});

t.test('SIGTERM lets a request in flight finish; a second signal exits at once, also releasing the lock', async (t) => {
  const dataDir = tmp('ledger-start-');
  const env = baseEnv(dataDir);
  const demoRun = await start(env);
  demoRun.child.kill('SIGTERM');
  t.equal(await demoRun.exited, 0);
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));

  const graceful = await start(env);
  t.teardown(() => graceful.child.kill('SIGKILL'));
  const post = slowPost(
    graceful.ledgerUrl,
    '/client/demo/arap/customer',
    demo.api_key,
    JSON.stringify({ name: 'Graceful AG' }),
  );
  await post.inFlight;
  graceful.child.kill('SIGTERM');
  await graceful.printed(/SIGTERM: letting requests in flight finish/);
  post.finish();
  t.equal((await post.answer).status, 201, 'the request in flight is answered');
  t.equal(await graceful.exited, 0, 'then it stops with exit code 0');
  t.notOk(existsSync(join(dataDir, 'embedded.lock')));

  const impatient = await start(env);
  t.teardown(() => impatient.child.kill('SIGKILL'));
  const held = slowPost(
    impatient.ledgerUrl,
    '/client/demo/arap/customer',
    demo.api_key,
    JSON.stringify({ name: 'Never AG' }),
  );
  held.answer.catch(() => {});
  await held.inFlight;
  impatient.child.kill('SIGTERM');
  await impatient.printed(/SIGTERM: letting requests in flight finish/);
  // past the moment a repeated delivery of the same Ctrl-C would arrive (shared/src/lifecycle.ts)
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  impatient.child.kill('SIGTERM');
  t.equal(await impatient.exited, 1, 'the second signal exits at once, without waiting for the request');
  t.match(impatient.output(), /SIGTERM again: stopping now/);
  t.notOk(existsSync(join(dataDir, 'embedded.lock')), 'the lock is released on that way out too');
});
