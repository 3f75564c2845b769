/**
 * Webhooks end to end: a real ledger, its pg-boss sender and a loopback HTTP receiver that
 * verifies every delivery with the `standardwebhooks` library. Loopback targets are allowed
 * as WEBHOOKS_ALLOW_LOOPBACK=1 allows them (the test setting); the retry schedule is shortened
 * to seconds so retries after 500s and a timeout happen within the test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { apiClient, createTestCompany, startTestLedger, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';

interface Received {
  id: string;
  type: string;
  seq: number;
  name: string | undefined;
  verified: boolean;
}

/** A receiver answering with `answer(n)` for the n-th request (0-based); 'hang' never answers. */
async function receiver(t: { teardown(fn: () => unknown): void }, answer: (n: number, id: string) => number | 'hang') {
  const requests: Received[] = [];
  const accepted: Received[] = [];
  let secret = '';
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const event = JSON.parse(body);
      const r: Received = {
        id: String(req.headers['webhook-id']),
        type: event.type,
        seq: Number(event.sequence),
        name: event.data?.snapshot?.name,
        verified,
      };
      const a = answer(requests.length, r.id);
      requests.push(r);
      if (a === 'hang') {
        hanging.push(res);
        return;
      }
      if (a >= 200 && a < 300) accepted.push(r);
      res.writeHead(a).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    accepted,
    setSecret(s: string) {
      secret = s;
    },
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const FAST = {
  retry: { firstDelaySeconds: 1, maxDelaySeconds: 2, giveUpAfterSeconds: 3600 },
  timeoutMs: 1500,
  pollingIntervalSeconds: 0.5,
  leaseSeconds: 5,
  sweepIntervalSeconds: 2,
};

function ledgerConfig(queue: string) {
  return { events: { retentionDays: 400, allowLoopback: true, webhookQueue: queue } };
}

t.test('signed deliveries in order, retried after 500s and a timeout, redelivered and replayed', async (t) => {
  const queue = `webhooks_${Math.random().toString(36).slice(2)}`;
  const config = testConfig(ledgerConfig(queue));
  const ledger = await startLedger({ config, webhooks: FAST, mail: false });
  t.teardown(() => ledger.close());
  const a = await createTestCompany({ ...ledger, config });
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  // the 1st request 500, the 2nd 500, the 3rd hangs past the time limit, then 200; later: 200
  const rx = await receiver(t, (n) => (n < 2 ? 500 : n === 2 ? 'hang' : 200));

  const refused = await api('POST', '/system/webhooks', { url: 'http://10.0.0.1/hook', events: ['party.*'] });
  t.equal(refused.status, 400, 'a private address is refused');
  t.equal(refused.body.error.field, 'url');
  const created = await api('POST', '/system/webhooks', { url: rx.url, events: ['party.*'] });
  t.equal(created.status, 201);
  t.match(created.body.secret, /^whsec_/);
  rx.setSecret(created.body.secret);
  t.notOk('secret' in (await api('GET', `/system/webhooks/${created.body.id}`)).body, 'the secret is shown once');

  for (const name of ['First AG', 'Second AG', 'Third AG']) {
    t.equal((await api('POST', '/arap/customer', { name })).status, 201);
  }
  await api('POST', '/system/api_keys', { label: 'not subscribed' });
  await until('three deliveries accepted', () => rx.accepted.length >= 3);

  t.ok(
    rx.requests.every((r) => r.verified),
    'every request verifies with the standardwebhooks library',
  );
  t.same(
    rx.requests.slice(0, 4).map((r) => r.name),
    ['First AG', 'First AG', 'First AG', 'First AG'],
    'the first event is retried (500, 500, timeout) before anything after it is sent',
  );
  t.same(
    rx.accepted.map((r) => r.name),
    ['First AG', 'Second AG', 'Third AG'],
    'accepted in order',
  );
  t.equal(new Set(rx.requests.slice(0, 4).map((r) => r.id)).size, 1, 'every attempt carries the same webhook-id');
  t.notOk(
    rx.requests.some((r) => r.type === 'api_key.created'),
    'an unsubscribed type is not sent',
  );

  const deliveries = await api('GET', `/system/webhooks/${created.body.id}/deliveries`);
  t.equal(deliveries.status, 200);
  const first = deliveries.body.find((d: { event_id: string }) => d.event_id === '1');
  t.equal(first.status, 'delivered');
  t.equal(first.attempts, 4);
  t.same(
    first.log.map((l: { status_code: number | null }) => l.status_code),
    [500, 500, null, 200],
    'the delivery log: two 500s, a timeout, then 200',
  );
  t.match(first.log[2].error, /no answer within/);

  const redelivered = await api('POST', `/system/webhooks/${created.body.id}/deliveries/${first.id}/redeliver`);
  t.equal(redelivered.status, 202);
  await until('the redelivery', () => rx.accepted.length >= 4);
  t.equal(rx.accepted[3]!.id, rx.accepted[0]!.id, 'a redelivery has the webhook-id of the first delivery');

  const replayed = await api('POST', `/system/webhooks/${created.body.id}/replay`, { after: 1 });
  t.equal(replayed.status, 202);
  t.equal(replayed.body.queued, 2, 'the two subscribed events after the cursor');
  await until('the replay', () => rx.accepted.length >= 6);
  t.same(
    rx.accepted.slice(4).map((r) => r.name),
    ['Second AG', 'Third AG'],
    'replayed in order',
  );

  t.equal((await api('DELETE', `/system/webhooks/${created.body.id}`)).status, 204);
  t.equal((await api('GET', `/system/webhooks/${created.body.id}`)).status, 404);
});

t.test('a receiver refusing with 400 is not retried; the next event follows', async (t) => {
  const queue = `webhooks_${Math.random().toString(36).slice(2)}`;
  const ledger = await startTestLedger(t, ledgerConfig(queue));
  // startTestLedger's own sender uses the default schedule; 4xx are never retried, so it fits
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const rx = await receiver(t, (n) => (n === 0 ? 400 : 200));
  const created = await api('POST', '/system/webhooks', { url: rx.url, events: ['party.created'] });
  rx.setSecret(created.body.secret);
  await api('POST', '/arap/vendor', { name: 'Refused AG' });
  await api('POST', '/arap/vendor', { name: 'Accepted AG' });
  await until('the second event', () => rx.accepted.length >= 1);
  t.same(
    rx.requests.map((r) => r.name),
    ['Refused AG', 'Accepted AG'],
  );
  const deliveries = await api('GET', `/system/webhooks/${created.body.id}/deliveries?status=failed`);
  t.equal(deliveries.body.length, 1);
  t.equal(deliveries.body[0].log[0].status_code, 400);
});
