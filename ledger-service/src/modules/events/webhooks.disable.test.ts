/**
 * Automatic disabling (docs/events.md): a subscription whose deliveries fail for 3 days is
 * disabled and the company's owners are e-mailed through the mail outbox. The test keeps the
 * real 3-day limit and moves the clock instead: once the first attempt has failed, it sets
 * the delivery's `first_failed_at` 3 days back in the database, so the next retry is past the
 * limit. The mail sender is off, so the e-mail stays queued in the outbox where it is read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { withTenant } from '../../db/knex.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';

async function until(what: string, check: () => boolean | Promise<boolean>, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test('a webhook failing for 3 days is disabled and its owners are e-mailed', async (t) => {
  // a receiver that always answers 503 (a retryable failure)
  let requests = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(503).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const queue = `webhooks_${Math.random().toString(36).slice(2)}`;
  const config = testConfig({ events: { retentionDays: 400, allowLoopback: true, webhookQueue: queue } });
  const ledger = await startLedger({
    config,
    mail: false,
    webhooks: {
      // retries within seconds, but the give-up limit is the real 3 days
      retry: { firstDelaySeconds: 1, maxDelaySeconds: 1, giveUpAfterSeconds: 3 * 24 * 60 * 60 },
      pollingIntervalSeconds: 0.5,
      leaseSeconds: 5,
      sweepIntervalSeconds: 2,
      timeoutMs: 1500,
    },
  });
  t.teardown(() => ledger.close());
  const a = await createTestCompany({ ...ledger, config });
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const companyId = a.company.id;

  const created = await api('POST', '/system/webhooks', { url, events: ['party.*'] });
  t.equal(created.status, 201);
  const subId = created.body.id;
  t.equal((await api('POST', '/arap/customer', { name: 'Failing AG' })).status, 201);

  const delivery = () =>
    withTenant(ledger.db, companyId, (tx) => tx('webhook_deliveries').where({ subscription_id: subId }).first());
  await until('the first failed attempt', async () => ((await delivery())?.attempts ?? 0) >= 1);
  const before = await api('GET', `/system/webhooks/${subId}`);
  t.equal(before.body.status, 'active', 'one failure does not disable');
  t.equal(
    (await withTenant(ledger.db, companyId, (tx) => tx('messages').where({ company_id: companyId }))).length,
    0,
    'no e-mail yet',
  );

  // the clock: the delivery has been failing for 3 days and a minute
  await withTenant(ledger.db, companyId, (tx) =>
    tx('webhook_deliveries')
      .where({ subscription_id: subId })
      .update({ first_failed_at: tx.raw(`now() - interval '3 days 1 minute'`) }),
  );
  await until(
    'the subscription disabled',
    async () => (await api('GET', `/system/webhooks/${subId}`)).body.status === 'disabled',
  );

  const after = await api('GET', `/system/webhooks/${subId}`);
  t.match(after.body.disabled_reason ?? '', /3 days/, 'the reason names the 3 days');
  const d = await delivery();
  t.equal(d?.status, 'failed', 'the delivery is failed');
  const mails = await withTenant(ledger.db, companyId, (tx) => tx('messages').where({ company_id: companyId }));
  t.equal(mails.length, 1, 'one e-mail');
  t.match(mails[0].subject, new RegExp(`Webhook ${subId} disabled`));
  t.same(mails[0].to_addresses, [a.email], 'to the owner');
  const jobs = await ledger.db.raw(
    `select count(*)::int as n from pgboss.job where name = ? and data->>'messageId' = ?`,
    [config.mailQueue, String(mails[0].id)],
  );
  t.equal(jobs.rows[0].n, 1, 'its send is queued for the mail sender');

  // disabled: a new event is recorded but not sent
  const sent = requests;
  t.equal((await api('POST', '/arap/customer', { name: 'Later AG' })).status, 201);
  const events = await withTenant(ledger.db, companyId, (tx) => tx('events').where({ type: 'party.created' }));
  t.equal(events.length, 2, 'the event is still recorded (the change feed has it)');
  // real time: a send that does not happen shows only by waiting (3 s = six polls of 0.5 s)
  await new Promise((r) => setTimeout(r, 3000));
  t.equal(requests, sent, 'nothing more is sent to a disabled webhook');
});
