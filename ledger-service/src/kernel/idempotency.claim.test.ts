/**
 * The claim of an Idempotency-Key (kernel/idempotency.ts), against the real Postgres.
 *
 * The claim is one statement that raises the transaction's lock wait limit to the key wait
 * (so a second request with the key gives up with a 409 instead of waiting for ever) and puts
 * the transaction's own limit back once the row is claimed. Nothing of the ledger's answers
 * shows that limit, yet a handler left with it would give up on any row lock after the key
 * wait (10 s) instead of the limit it runs with: so a small Koa server here runs the exported
 * IdempotencyKeys inside withTenant, as the route kernel does, and answers the limit its
 * handler sees.
 *
 * Also the order of checks on a keyed JSON POST: the body is validated before the key is
 * looked at, so a reused key with an invalid body is the 400 of the body, and the key keeps
 * standing for its first request (docs/rest-api.md "Idempotency").
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import t from 'tap';
import { arapSetup } from '../../test/arapHelpers.ts';
import { createTestCompany, startTestLedger } from '../../test/helpers.ts';
import { withTenant } from '../db/knex.ts';
import { loadEncryptionKey } from '../secretKey.ts';
import { IdempotencyKeys, type KeyedRequest } from './idempotency.ts';

const KEY = 'Idempotency-Key';
let counter = 0;
const freshKey = () => `claim-key-${process.pid}-${Date.now()}-${++counter}`;

/** What the harness's handler saw: the limit before the claim and inside the handler. */
interface Seen {
  before: string;
  inHandler: string;
}

t.test('the claim puts the transaction’s own lock wait limit back before the handler runs', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const companyId = co.company.id;
  // a key wait no transaction has by itself, so the handler seeing it means it was left set
  const waitMs = 2345;
  const keys = new IdempotencyKeys(loadEncryptionKey(ledger.config), waitMs);

  const app = new Koa();
  app.use(async (ctx) => {
    const key = ctx.get(KEY);
    // the limit the transaction runs with before the claim: the session's, or one the request set
    const own = ctx.get('X-Lock-Timeout');
    const req: KeyedRequest = { key, caller: 'test:claim', method: 'POST', path: '/claim', hash: `hash-${key}` };
    const outcome = await withTenant(ledger.db, companyId, async (tx) => {
      if (own) await tx.raw(`select set_config('lock_timeout', ?, true)`, [own]);
      const before = String((await tx.raw(`select current_setting('lock_timeout') as v`)).rows[0].v);
      return keys.run(tx, ctx, companyId, req, async (sp) => {
        const inHandler = String((await sp.raw(`select current_setting('lock_timeout') as v`)).rows[0].v);
        ctx.status = 201;
        ctx.body = { before, inHandler } satisfies Seen;
      });
    });
    if ('replay' in outcome) IdempotencyKeys.replay(ctx, outcome.replay);
  });
  const server = app.listen(0, '127.0.0.1');
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  await new Promise<void>((ready) => server.once('listening', () => ready()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/claim`;
  const post = async (key: string, own?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { [KEY]: key, ...(own ? { 'X-Lock-Timeout': own } : {}) },
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed'), seen: (await res.json()) as Seen };
  };

  // the session's own limit (whatever the server's default is)
  const plain = await post(freshKey());
  t.equal(plain.status, 201);
  t.not(plain.seen.before, `${waitMs}ms`, 'the key wait is not the limit the transaction starts with');
  t.equal(plain.seen.inHandler, plain.seen.before, 'the handler runs with the limit the transaction had');

  // a limit the transaction set for itself before the claim
  const key = freshKey();
  const own = await post(key, '4321ms');
  t.equal(own.status, 201);
  t.same(own.seen, { before: '4321ms', inHandler: '4321ms' }, 'the transaction’s own limit, not the key wait');

  // a key whose 24 h ran out is claimed anew by the same statement's update: also put back
  await withTenant(ledger.db, companyId, (tx) =>
    tx('idempotency_keys')
      .where({ caller: 'test:claim', key })
      .update({ created_at: tx.raw(`now() - interval '25 hours'`) }),
  );
  const renewed = await post(key, '1234ms');
  t.equal(renewed.status, 201);
  t.equal(renewed.replayed, null, 'the expired key ran anew');
  t.same(renewed.seen, { before: '1234ms', inHandler: '1234ms' }, 'put back after claiming an expired key too');

  // and the repeat within 24 h is the kept answer, the handler not run again
  const replay = await post(key, '999ms');
  t.equal(replay.replayed, 'true');
  t.same(replay.seen, renewed.seen);
});

t.test('a reused key with an invalid JSON body is the body’s 400, and the key keeps its first answer', async (t) => {
  const s = await arapSetup(t);
  const key = freshKey();
  const doc = s.doc('vendor', { pending: '0' });
  const keyRow = () =>
    s.q((tx) => tx('idempotency_keys').where({ key }).select('request_hash', 'status', 'path', 'created_at'));
  const bills = () => s.q(async (tx) => Number((await tx('arap_transactions').count({ n: '*' }).first())?.n ?? 0));

  // a route that reads its JSON body itself (prepareBody): the order changed there
  const first = await s.api('POST', '/arap/transaction/vendor', doc, { [KEY]: key });
  t.equal(first.status, 201, JSON.stringify(first.body));
  const rowAfterFirst = await keyRow();
  t.equal(rowAfterFirst.length, 1);
  const billsAfterFirst = await bills();

  // a body that fails the contract's schema
  const invalid = await s.api('POST', '/arap/transaction/vendor', { ...doc, lines: 'none' }, { [KEY]: key });
  t.equal(invalid.status, 400, 'the invalid body is refused before the key is looked at');
  t.equal(invalid.body.error.code, 'invalid_request');
  t.notMatch(invalid.body.error.message, /Idempotency-Key/, 'a refusal of the body, not of the key');
  t.equal(invalid.headers.get('idempotent-replayed'), null);

  // a body that is not JSON at all
  const broken = await s.api('POST', '/arap/transaction/vendor', '{"type": "transaction", ', { [KEY]: key });
  t.equal(broken.status, 400);
  t.same(broken.body.error.code, 'invalid_request');
  t.match(broken.body.error.message, /not valid JSON/);

  // a route without prepareBody, for comparison: the same order
  const party = await s.api('POST', '/arap/vendor', { nom: 'Typo' }, { [KEY]: key });
  t.equal(party.status, 400);
  t.equal(party.body.error.code, 'invalid_request');

  t.same(await keyRow(), rowAfterFirst, 'nothing stored under the key by the refused requests');
  t.equal(await bills(), billsAfterFirst, 'and nothing written');

  const again = await s.api('POST', '/arap/transaction/vendor', doc, { [KEY]: key });
  t.equal(again.status, first.status);
  t.same(again.body, first.body, 'the first answer');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  // a valid other request with the key is still the reused-key 409
  const other = await s.api('POST', '/arap/transaction/vendor', { ...doc, description: 'other' }, { [KEY]: key });
  t.equal(other.status, 409);
  t.match(other.body.error.message, /another request/);
  t.equal(await bills(), billsAfterFirst);
});
