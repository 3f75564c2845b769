/**
 * Deliveries survive a killed ledger: a sender process is killed (SIGKILL) while a receiver
 * holds its delivery unanswered; a new process takes the subscription over once the dead
 * one's lease has run out and delivers everything, in order. The only duplicate allowed is
 * the delivery that was in flight (same webhook-id), as at-least-once allows.
 */
// npm test: runs alone (fault injection: a ledger is killed and another takes over once the lease has run out)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { TEST_DATABASE_URL, apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';

// every process of one deployment shares the key the webhook secrets are encrypted with
const KEY = Buffer.alloc(32, 7).toString('base64');
const CHILD = fileURLToPath(new URL('./senderProcess.ts', import.meta.url));

function sender(queue: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ledger-sender-')),
      LEDGER_PORT: '0',
      LOG_LEVEL: 'silent',
      LEDGER_ENCRYPTION_KEY: KEY,
      WEBHOOKS_QUEUE: queue,
      WEBHOOKS_ALLOW_LOOPBACK: '1',
      WEBHOOK_OPTIONS: JSON.stringify({
        retry: { firstDelaySeconds: 1, maxDelaySeconds: 2, giveUpAfterSeconds: 3600 },
        timeoutMs: 60_000,
        pollingIntervalSeconds: 0.5,
        leaseSeconds: 3,
        sweepIntervalSeconds: 1,
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`sender exited (${code})`)));
  });
}

async function until(what: string, check: () => boolean, seconds = 90): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test('a sender killed mid-delivery: nothing lost, only the delivery in flight repeated', async (t) => {
  const queue = `webhooks_killed_${Math.random().toString(36).slice(2)}`;
  // this process serves the API and sends nothing (its sender off): the child processes send
  const config = testConfig({
    encryptionKey: KEY,
    events: { retentionDays: 400, allowLoopback: true, webhookQueue: queue },
  });
  const running = await startLedger({ config, webhooks: false, mail: false });
  t.teardown(() => running.close());
  const ledger = { ...running, config };
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  let secret = '';
  const received: { id: string; name: string; verified: boolean }[] = [];
  const held: ServerResponse[] = [];
  let hold = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      received.push({ id: String(req.headers['webhook-id']), name: JSON.parse(body).data.snapshot.name, verified });
      if (hold) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(async () => {
    for (const r of held) r.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const created = await api('POST', '/system/webhooks', { url, events: ['party.created'] });
  t.equal(created.status, 201);
  secret = created.body.secret;

  const first = await sender(queue);
  t.teardown(() => void first.kill('SIGKILL'));
  for (const name of ['One AG', 'Two AG', 'Three AG']) await api('POST', '/arap/customer', { name });
  await until('the first delivery to arrive', () => received.length >= 1);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  hold = false;
  for (const r of held) r.destroy();

  const second = await sender(queue);
  t.teardown(() => void second.kill('SIGKILL'));
  await until('every event delivered', () => new Set(received.map((r) => r.name)).size >= 3);
  t.ok(
    received.every((r) => r.verified),
    'every delivery signed',
  );
  const names = received.map((r) => r.name);
  t.same(names.slice(-3), ['One AG', 'Two AG', 'Three AG'], 'after the restart: everything, in order');
  t.same(names.slice(0, -3), ['One AG'], 'the only repeat is the delivery that was in flight');
  t.equal(received[0]!.id, received.at(-3)!.id, 'the repeat carries the same webhook-id');
  let deliveries = await api('GET', `/system/webhooks/${created.body.id}/deliveries`);
  const deadline = Date.now() + 30_000;
  // the last answer is recorded just after the receiver saw it
  while (deliveries.body.some((d: { status: string }) => d.status !== 'delivered') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    deliveries = await api('GET', `/system/webhooks/${created.body.id}/deliveries`);
  }
  t.same(
    deliveries.body.map((d: { status: string }) => d.status),
    ['delivered', 'delivered', 'delivered'],
    'the log shows all three delivered',
  );
});
