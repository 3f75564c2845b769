/**
 * A company's write turns (kernel/companyTurns.ts): alone, and in the running ledger on the real
 * Postgres, where the writes waiting for a turn must not reach the database.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'koa';
import pg from 'pg';
import t from 'tap';
import { arapSetup } from '../../test/arapHelpers.ts';
import { apiClient, createTestCompany, TEST_DATABASE_URL } from '../../test/helpers.ts';
import { ClientGone, CompanyTurns, turnWaitOf } from './companyTurns.ts';
import { ApiError } from './errors.ts';

/** A task that runs until `finish()` and records when it started. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve(name);
    fail = reject;
  });
  const task = () => {
    log.push(name);
    return done;
  };
  return { task, finish: () => finish(), fail: (e: Error) => fail(e) };
}

const tick = () => new Promise((r) => setImmediate(r));

t.test('at most `width` writes of a company run at once; the others start in arrival order', async (t) => {
  const turns = new CompanyTurns({ width: 2 });
  const started: string[] = [];
  const gates = ['a', 'b', 'c', 'd', 'e'].map((n) => gate(started, n));
  const results = gates.map((g) => turns.take(7, g.task));
  await tick();
  t.same(started, ['a', 'b'], 'two run, three wait');
  t.same(turns.state(7), { running: 2, waiting: 3 });
  gates[1]!.finish();
  await tick();
  t.same(started, ['a', 'b', 'c'], 'the first waiting one takes the freed turn');
  gates[0]!.finish();
  await tick();
  t.same(started, ['a', 'b', 'c', 'd']);
  for (const g of gates.slice(2)) g.finish();
  t.same(await Promise.all(results), ['a', 'b', 'c', 'd', 'e']);
  t.same(started, ['a', 'b', 'c', 'd', 'e']);
  t.same(turns.state(7), { running: 0, waiting: 0 }, 'nothing is kept once the company is idle');
});

t.test('a failed write gives its turn on, and its error reaches the caller', async (t) => {
  const turns = new CompanyTurns({ width: 1 });
  const started: string[] = [];
  const first = gate(started, 'first');
  const second = gate(started, 'second');
  const a = turns.take(1, first.task);
  const b = turns.take(1, second.task);
  await tick();
  t.same(started, ['first']);
  first.fail(new Error('rule broken'));
  await t.rejects(a, { message: 'rule broken' });
  await tick();
  t.same(started, ['first', 'second']);
  second.finish();
  t.equal(await b, 'second');
  t.same(turns.state(1), { running: 0, waiting: 0 });
});

t.test('companies do not wait for each other', async (t) => {
  const turns = new CompanyTurns({ width: 1 });
  const started: string[] = [];
  const one = gate(started, 'company 1');
  const two = gate(started, 'company 2');
  const a = turns.take(1, one.task);
  const b = turns.take(2, two.task);
  await tick();
  t.same(started, ['company 1', 'company 2']);
  one.finish();
  two.finish();
  await Promise.all([a, b]);
});

t.test('width 0 turns the limit off', async (t) => {
  const turns = new CompanyTurns({ width: 0 });
  const started: string[] = [];
  const gates = [1, 2, 3, 4].map((n) => gate(started, String(n)));
  const results = gates.map((g) => turns.take(3, g.task));
  await tick();
  t.equal(started.length, 4);
  for (const g of gates) g.finish();
  await Promise.all(results);
});

t.test('past `maxWaiting` a write is refused with 503 unavailable and a Retry-After', async (t) => {
  const turns = new CompanyTurns({ width: 1, maxWaiting: 2 });
  const started: string[] = [];
  const gates = ['run', 'wait 1', 'wait 2'].map((n) => gate(started, n));
  const results = gates.map((g) => turns.take(5, g.task));
  await tick();
  const refused = await turns.take(5, async () => 'never').catch((e: unknown) => e);
  t.ok(refused instanceof ApiError, 'an ApiError');
  t.match(refused, { code: 'unavailable', headers: { 'Retry-After': '1' } });
  t.same(turns.state(5), { running: 1, waiting: 2 }, 'the refused one took no place');
  for (const g of gates) g.finish();
  await Promise.all(results);
  t.same(started, ['run', 'wait 1', 'wait 2']);
});

t.test(
  'in the ledger: the writes past the width wait without a connection; reads and other companies go on',
  async (t) => {
    const s = await arapSetup(t);
    const bill = () => s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
    const first = await bill();
    t.equal(first.status, 201, 'one bill first, so the company has its sequence rows');

    // hold the company's sequence rows (document numbers, events), as a long posting would
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    t.teardown(() => holder.end());
    await holder.query('begin');
    await holder.query('select kind from sequences where company_id = $1 for update', [s.co.company.id]);
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    // the backends waiting on the holder, directly or behind another waiter (Postgres queues a
    // row's second waiter behind the first)
    const blocked = async () =>
      Number(
        (
          await s.ledger.db.raw<{ rows: { n: string }[] }>(
            `with recursive waiting(pid) as (
             select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))
             union
             select a.pid from pg_stat_activity a join waiting w on w.pid = any(pg_blocking_pids(a.pid)))
           select count(*) as n from waiting`,
            [holderPid],
          )
        ).rows[0]!.n,
      );

    const bills = Array.from({ length: 5 }, () => bill());
    for (let i = 0; i < 100 && (await blocked()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    t.equal(await blocked(), 2, 'two of the five bills wait at the database');
    // the three others are waiting for a turn in the ledger; give them time to show if they would not
    await new Promise((r) => setTimeout(r, 300));
    t.equal(await blocked(), 2, 'the other three never reached it');

    const list = await s.api('GET', `/arap/transaction/vendor/${first.body.id}`);
    t.equal(list.status, 200, 'a read of the same company is answered meanwhile');
    const other = await createTestCompany(s.ledger);
    const otherVendor = await apiClient(s.ledger.url, other.dataset, other.apiKey)('POST', '/arap/vendor', {
      name: 'Other AG',
    });
    t.equal(otherVendor.status, 201, 'another company writes meanwhile');

    await holder.query('commit');
    const answers = await Promise.all(bills);
    t.same(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201],
    );
    const ids = answers.map((a) => a.body.id as number);
    const numbers = await s.q((tx) => tx('arap_transactions').whereIn('id', ids).pluck('inv_number'));
    t.equal(new Set(numbers).size, 5, 'five bills with five distinct numbers');
  },
);

t.test('a write waits at most `maxWaitMs` for its turn: then 503 with a Retry-After, and it never runs', async (t) => {
  const turns = new CompanyTurns({ width: 1, maxWaitMs: 50 });
  const started: string[] = [];
  const running = gate(started, 'running');
  const waiting = gate(started, 'waiting');
  const a = turns.take(4, running.task);
  const refused = await turns.take(4, waiting.task).catch((e: unknown) => e);
  t.match(refused, { code: 'unavailable', headers: { 'Retry-After': '1' } });
  t.same(turns.state(4), { running: 1, waiting: 0 }, 'it left the line');
  running.finish();
  await a;
  t.same(started, ['running'], 'the refused write never ran');
  t.same(turns.state(4), { running: 0, waiting: 0 });
});

t.test('a write whose client went away leaves the line at once, and the next one takes its place', async (t) => {
  const turns = new CompanyTurns({ width: 1 });
  const started: string[] = [];
  const [first, gone, next] = ['first', 'gone', 'next'].map((n) => gate(started, n)) as [
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
  ];
  const client = new AbortController();
  const a = turns.take(6, first.task);
  const b = turns.take(6, gone.task, { signal: client.signal, bytes: 100 }).catch((e: unknown) => e);
  const c = turns.take(6, next.task);
  await tick();
  t.same(turns.state(6), { running: 1, waiting: 2 });
  t.equal(turns.waitingBytes(6), 100);
  client.abort();
  t.ok((await b) instanceof ClientGone, 'refused as gone');
  t.same(turns.state(6), { running: 1, waiting: 1 });
  t.equal(turns.waitingBytes(6), 0, 'its body is no longer held');
  first.finish();
  await a;
  await tick();
  t.same(started, ['first', 'next'], 'the write of the client that went away never ran');
  next.finish();
  await c;
  const late = await turns.take(6, async () => 'never', { signal: client.signal }).catch((e: unknown) => e);
  t.ok(late instanceof ClientGone, 'a write whose client is already gone does not even queue');
});

t.test('past `maxWaitingBytes` of waiting bodies a write is refused with 503; others are not', async (t) => {
  const turns = new CompanyTurns({ width: 1, maxWaitingBytes: 1000 });
  const started: string[] = [];
  const gates = ['run', 'wait 600', 'wait 400', 'other company'].map((n) => gate(started, n));
  const run = turns.take(8, gates[0]!.task, { bytes: 5000 });
  const w1 = turns.take(8, gates[1]!.task, { bytes: 600 });
  const refused = await turns.take(8, async () => 'never', { bytes: 401 }).catch((e: unknown) => e);
  t.match(refused, { code: 'unavailable', headers: { 'Retry-After': '1' } });
  t.match((refused as Error).message, /hold too much data/);
  const w2 = turns.take(8, gates[2]!.task, { bytes: 400 });
  t.equal(turns.waitingBytes(8), 1000, 'up to the bound');
  const other = turns.take(9, gates[3]!.task, { bytes: 900 });
  await tick();
  t.same(started, ['run', 'other company'], "another company's write is not refused");
  for (const g of gates) g.finish();
  await Promise.all([run, w1, w2, other]);
  t.same(started, ['run', 'other company', 'wait 600', 'wait 400']);
});

t.test(
  "a request's wait: its Content-Length, and a signal aborted when its client closes the connection",
  async (t) => {
    let seen: { wait: ReturnType<typeof turnWaitOf>; res: ServerResponse } | undefined;
    const server = createServer((req, res) => {
      // the request as Koa hands it to route.ts: the node response and the request's length
      const ctx = { res, request: { length: Number(req.headers['content-length']) } } as unknown as Context;
      seen = { wait: turnWaitOf(ctx), res };
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise((resolve) => server.close(resolve)));
    const client = new AbortController();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const sent = fetch(url, { method: 'POST', body: 'x'.repeat(1234), signal: client.signal }).catch((e: unknown) => e);
    while (!seen) await new Promise((r) => setTimeout(r, 10));
    t.equal(seen.wait.bytes, 1234);
    t.equal(seen.wait.gone?.(), false, 'the client is still there (asked before a turn)');
    t.equal(seen.wait.signal?.aborted, false, 'the client is still there');
    const aborted = new Promise<void>((resolve) => seen!.wait.signal!.addEventListener('abort', () => resolve()));
    client.abort();
    await sent;
    await aborted;
    t.equal(seen.wait.signal?.aborted, true, 'the client went away');
    t.equal(seen.wait.gone?.(), true, 'the client went away (asked before a turn)');
  },
);
