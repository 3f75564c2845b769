/**
 * A new AR/AP document posted over the API: its statement carries the transaction's COMMIT
 * (createTransaction `last`, db/knex.ts closingQuery) where nothing follows it — and only there:
 * not with a webhook subscription to wake, not with an Idempotency-Key's answer to keep. A
 * sequence number already used by hand is still skipped (the transaction runs again).
 *
 * The messages a request sends are read from the database's `query` listeners, on a ledger
 * without its background workers (whose polling would mix in). A statement closes only once it
 * is prepared on the connection, so each case posts until one request shows what it looks for.
 */
import t from 'tap';
import { startLedger } from '../../server.ts';
import type { Tx } from '../../db/knex.ts';
import { withTenant } from '../../db/knex.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';

t.test('a bill posted over the API commits with its own statement where nothing follows it', async (t) => {
  // loopback webhook targets allowed (nothing is sent: the sender does not run)
  const config = testConfig({
    events: { retentionDays: 400, allowLoopback: true, webhookQueue: 'webhook_deliveries_closing' },
  });
  const ledger = await startLedger({ config, mail: false, inbox: false, webhooks: false });
  t.teardown(() => ledger.close());
  const co = await createTestCompany({ ...ledger, config });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies' });
  t.equal(vendor.status, 201);
  const bill = (extra: Record<string, unknown> = {}) => ({
    type: 'transaction',
    vendor_id: vendor.body.id,
    invDate: '2024-03-15',
    pending: '0',
    lines: [{ account: CHART.vendor.line, amount: 100, taxAccount: CHART.vendor.tax }],
    ...extra,
  });
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);

  let messages: string[] = [];
  ledger.db.on('query', (m: { sql: string }) => messages.push(m.sql));
  /** Posts until a request's messages satisfy `seen` (a statement closes only once prepared on its connection). */
  const postUntil = async (
    seen: (sent: string[]) => boolean,
    body = bill(),
    headers?: () => Record<string, string>,
  ) => {
    for (let i = 0; i < 20; i++) {
      messages = [];
      const res = await api('POST', '/arap/transaction/vendor', body, headers?.());
      if (res.status !== 201) throw new Error(`bill: ${res.status} ${JSON.stringify(res.body)}`);
      if (seen(messages)) return { id: res.body.id as number, sent: messages };
    }
    throw new Error(`no request showed it; the last sent ${JSON.stringify(messages)}`);
  };
  const closing = (sent: string[]) => sent.some((m) => /^(begin; .*; )?execute p_\w+\(…\); commit$/s.test(m));
  const whole = (sent: string[]) => sent.length === 1 && /^begin; .*; execute p_\w+\(…\); commit$/s.test(sent[0]!);
  const commitApart = (sent: string[]) => sent.includes('commit');

  const first = await postUntil(closing);
  t.ok(first.sent.length <= 2, 'at most two messages: the snapshot read (with the opening), the document with COMMIT');
  // the snapshot remembered: the next like it is one message, the snapshot checked in the document's statement
  const closed = await postUntil(whole);
  t.equal(closed.sent.length, 1, 'one message: the opening, the document with its snapshot check, COMMIT');
  t.notOk(commitApart(closed.sent), 'no COMMIT of its own');
  const read = await api('GET', `/arap/transaction/vendor/${closed.id}`);
  t.equal(read.status, 200, 'committed: readable by the next request');
  t.equal(read.body.status, 'posted');
  t.equal(
    await q(
      async (tx) => (await tx('audit_log').where({ entity_id: String(closed.id), action: 'create_posted' })).length,
    ),
    1,
    'its audit entry',
  );
  t.same(
    await q((tx) =>
      tx('events')
        .where({ resource_id: String(closed.id) })
        .orderBy('seq')
        .pluck('type'),
    ),
    ['bill.created', 'bill.posted'],
    'its events',
  );

  // the next sequence number taken by hand: the closing statement commits only its number, and the request runs again
  const last = read.body.invNumber as string;
  const next = last.replace(/\d+$/, (n) => String(Number(n) + 1).padStart(n.length, '0'));
  const afterNext = last.replace(/\d+$/, (n) => String(Number(n) + 2).padStart(n.length, '0'));
  t.equal((await api('POST', '/arap/transaction/vendor', bill({ invNumber: next }))).status, 201);
  const documentsBefore = await q(async (tx) => (await tx('arap_transactions').where({ vc: 'vendor' })).length);
  messages = [];
  const skipped = await api('POST', '/arap/transaction/vendor', bill());
  t.equal(skipped.status, 201, 'a number taken by hand is skipped');
  const skippedRead = await api('GET', `/arap/transaction/vendor/${skipped.body.id}`);
  t.equal(skippedRead.body.invNumber, afterNext, 'the next free number');
  t.equal(
    await q(async (tx) => (await tx('arap_transactions').where({ vc: 'vendor' })).length),
    documentsBefore + 1,
    'one document, though the transaction ran twice',
  );
  t.same(
    await q((tx) =>
      tx('events')
        .where({ resource_id: String(skipped.body.id) })
        .orderBy('seq')
        .pluck('type'),
    ),
    ['bill.created', 'bill.posted'],
    'its events once',
  );

  // with an Idempotency-Key the key's answer is kept after the handler: COMMIT apart
  let n = 0;
  const keyed = await postUntil(commitApart, bill(), () => ({ 'Idempotency-Key': `closing-${n++}` }));
  t.notOk(closing(keyed.sent), 'a keyed write: its statement does not close the transaction');

  // with a webhook subscription the document's events wake it, in the transaction: COMMIT apart
  const hook = await api('POST', '/system/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['bill.*'] });
  t.equal(hook.status, 201);
  const woken = await postUntil(commitApart);
  t.equal(woken.sent.at(-1), 'commit', 'a subscriber to wake: its statement does not close the transaction');
  // the snapshot remembered without the subscription fails its check: rolled back, run again reading it afresh
  const attempt = woken.sent.findIndex((m) => closing([m]));
  if (attempt >= 0) t.equal(woken.sent[attempt + 1], 'rollback', 'a stale remembered snapshot: rolled back first');
  t.ok(
    await q(async (tx) => (await tx('webhook_deliveries').where({ subscription_id: hook.body.id })).length >= 2),
    'its deliveries queued',
  );
});
