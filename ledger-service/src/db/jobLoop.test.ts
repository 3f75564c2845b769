import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { TEST_DATABASE_URL } from '../../test/helpers.ts';
import { PostgresProxy } from '../../test/postgresProxy.ts';
import { type JobSource, runJobLoop } from './jobLoop.ts';
import { createDb } from './knex.ts';
import { createQueueClient, dropQueue, makeQueue } from './queue.ts';

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

t.test('a job in hand when the database goes away: its outcome is logged, not an unhandled rejection', async (t) => {
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());
  const queue = `jobloop_${randomBytes(4).toString('hex')}`;
  await makeQueue(db, queue, {});
  t.teardown(() => dropQueue(db, queue));
  const sender = await createQueueClient(TEST_DATABASE_URL);
  await sender.start();
  t.teardown(() => sender.stop({ graceful: false, wait: true }));

  // the worker's client reaches the database through a proxy the test cuts
  const proxy = new PostgresProxy();
  await proxy.start();
  t.teardown(() => proxy.cut());
  const client = await createQueueClient(proxy.url);
  client.on('error', () => undefined);
  await client.start();
  t.teardown(() => client.stop({ graceful: false, wait: true }));

  const { log, lines } = recordingLogger();
  const handled: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const loop = runJobLoop<{ n: number }>(
    client,
    queue,
    { pollingIntervalSeconds: 0.1 },
    async (job) => {
      handled.push(String(job.data.n));
      if (job.data.n === 1) await held;
    },
    log,
  );
  t.teardown(() => loop.stop());

  const first = await sender.send(queue, { n: 1 });
  await until('the first job in hand', () => handled.length === 1);
  await proxy.cut();
  release();
  await until('the lost outcome logged', () => lines.some((l) => /could not be recorded/.test(String(l.msg))));
  const warning = lines.find((l) => /could not be recorded/.test(String(l.msg)));
  t.equal(warning?.job, first, 'the log names the job');
  t.equal(warning?.queue, queue);

  const state = async (id: string | null) =>
    (await db.raw<{ rows: { state: string }[] }>('select state from pgboss.job where name = ? and id = ?', [queue, id]))
      .rows[0]?.state;
  t.equal(await state(first), 'active', 'the job stays active: pg-boss expires it and retries it');

  // the database is back: the same loop takes the next job and records it
  await proxy.start();
  const second = await sender.send(queue, { n: 2 });
  await until('the second job recorded', async () => (await state(second)) === 'completed');
  t.same(handled, ['1', '2'], 'the loop survived the outage');

  await loop.stop();
  t.pass('stop resolves after the job in hand');
});

t.test('a handler that throws fails its job (retried by the queue policy) and the loop goes on', async (t) => {
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());
  const queue = `jobloop_${randomBytes(4).toString('hex')}`;
  await makeQueue(db, queue, { retryLimit: 0 });
  t.teardown(() => dropQueue(db, queue));
  const client = await createQueueClient(TEST_DATABASE_URL);
  await client.start();
  t.teardown(() => client.stop({ graceful: false, wait: true }));
  const { log } = recordingLogger();
  const seen: number[] = [];
  const loop = runJobLoop<{ n: number }>(
    client,
    queue,
    { pollingIntervalSeconds: 0.1 },
    async (job) => {
      seen.push(job.data.n);
      if (job.data.n === 1) throw new Error('the receiver refused');
    },
    log,
  );
  t.teardown(() => loop.stop());
  const failing = await client.send(queue, { n: 1 });
  const fine = await client.send(queue, { n: 2 });
  const row = async (id: string | null) =>
    (
      await db.raw<{ rows: { state: string; output: { message?: string } | null }[] }>(
        'select state, output from pgboss.job where name = ? and id = ?',
        [queue, id],
      )
    ).rows[0];
  await until(
    'both recorded',
    async () => (await row(failing))?.state === 'failed' && (await row(fine))?.state === 'completed',
  );
  t.equal((await row(failing))?.output?.message, 'the receiver refused', 'the failure keeps its message');
  t.same(seen, [1, 2]);
});

t.test(
  'one loop with several slots: jobs in hand at once up to its concurrency, one fetch per idle interval',
  async (t) => {
    const db = createDb(TEST_DATABASE_URL);
    t.teardown(() => db.destroy());
    const queue = `jobloop_${randomBytes(4).toString('hex')}`;
    await makeQueue(db, queue, {});
    t.teardown(() => dropQueue(db, queue));
    const client = await createQueueClient(TEST_DATABASE_URL, 4);
    await client.start();
    t.teardown(() => client.stop({ graceful: false, wait: true }));
    let fetches = 0;
    const counted: JobSource = {
      fetch: ((name: string, options: object) => {
        fetches++;
        return client.fetch(name, options);
      }) as JobSource['fetch'],
      complete: client.complete.bind(client) as JobSource['complete'],
      fail: client.fail.bind(client) as JobSource['fail'],
    };
    const { log } = recordingLogger();
    let inHand = 0;
    let most = 0;
    const done: number[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const loop = runJobLoop<{ n: number }>(
      counted,
      queue,
      { pollingIntervalSeconds: 0.2, concurrency: 3 },
      async (job) => {
        inHand++;
        most = Math.max(most, inHand);
        await held;
        inHand--;
        done.push(job.data.n);
      },
      log,
    );
    t.teardown(() => loop.stop());

    // idle: one fetch per interval, whatever the slots
    fetches = 0;
    await new Promise((r) => setTimeout(r, 1100));
    t.ok(fetches >= 3 && fetches <= 7, `an idle loop fetched ${fetches} times in 1.1 s at 0.2 s (not once per slot)`);

    for (let n = 1; n <= 4; n++) await client.send(queue, { n });
    await until('three jobs in hand', () => inHand === 3);
    await new Promise((r) => setTimeout(r, 400));
    t.equal(most, 3, 'never more than its concurrency at once');
    release();
    await until('all four done', () => done.length === 4);
    t.same([...done].sort(), [1, 2, 3, 4]);
    await loop.stop();
  },
);
