/**
 * Webhook senders run side by side (worker.ts `senders`): a receiver that stalls holds its own
 * subscription's delivery, not another subscription's. Two companies, two loopback receivers; the
 * first never answers (its attempt only ends at the long time limit), and the second subscription's
 * delivery arrives while the first one's request is still open. The assertion is about order
 * (still open when the other arrived), not a time.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';

async function receiver(t: { teardown(fn: () => unknown): void }, stall: boolean) {
  const open: ServerResponse[] = [];
  let received = 0;
  let closedUnanswered = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (!stall) return void res.writeHead(200).end();
      open.push(res);
      res.on('close', () => {
        if (!res.writableEnded) closedUnanswered++;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    /** requests the sender gave up on (its time limit) before an answer */
    abandoned: () => closedUnanswered,
  };
}

async function until(what: string, check: () => boolean, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test("a stalled receiver does not hold another subscription's deliveries", async (t) => {
  const queue = `webhooks_${Math.random().toString(36).slice(2)}`;
  const config = testConfig({ events: { retentionDays: 400, allowLoopback: true, webhookQueue: queue } });
  const ledger = await startLedger({
    config,
    mail: false,
    // a long time limit: the stalled attempt stays open for the whole test
    webhooks: { timeoutMs: 90_000, pollingIntervalSeconds: 0.5, sweepIntervalSeconds: 600, senders: 4 },
  });
  t.teardown(() => ledger.close());
  await ledger.workersReady;
  const slow = await receiver(t, true);
  const fast = await receiver(t, false);
  const a = await createTestCompany({ ...ledger, config });
  const b = await createTestCompany({ ...ledger, config });
  const apiA = apiClient(ledger.url, a.dataset, a.apiKey);
  const apiB = apiClient(ledger.url, b.dataset, b.apiKey);
  t.equal((await apiA('POST', '/system/webhooks', { url: slow.url, events: ['party.*'] })).status, 201);
  t.equal((await apiB('POST', '/system/webhooks', { url: fast.url, events: ['party.*'] })).status, 201);

  t.equal((await apiA('POST', '/arap/customer', { name: 'Slow AG' })).status, 201);
  await until('the stalled receiver has its request', () => slow.received() >= 1);
  t.equal((await apiB('POST', '/arap/customer', { name: 'Fast AG' })).status, 201);
  await until("the other subscription's delivery", () => fast.received() >= 1);
  t.equal(slow.abandoned(), 0, "the other delivery arrived while the stalled one's request was still open");
});
