import { request } from 'node:http';
import t from 'tap';
import { createDb } from '../db/knex.ts';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, startTestLedger, testConfig } from '../../test/helpers.ts';

t.test('bad bodies and unknown routes give the error body, never a 500', async (t) => {
  const ledger = await startTestLedger(t, { jsonLimit: 2048 });
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const malformed = await api('POST', '/arap/vendor', '{"name": "Broken",');
  t.equal(malformed.status, 400);
  t.equal(malformed.body.error.code, 'invalid_request');
  t.match(malformed.body.error.message, /not valid JSON/);

  const big = await api('POST', '/arap/vendor', { name: 'Big', address1: 'x'.repeat(4000) });
  t.equal(big.status, 413);
  t.same(big.body, { error: { code: 'payload_too_large', message: 'The request body is larger than allowed.' } });

  const noRoute = await api('GET', '/no/such/route');
  t.equal(noRoute.status, 404);
  t.equal(noRoute.body.error.code, 'not_found');
  t.match(noRoute.body.error.message, 'GET');

  const outside = await fetch(`${ledger.url}/nothing-here`);
  t.equal(outside.status, 404);
  t.equal((await outside.json()).error.code, 'not_found');

  const wrongType = await api('POST', '/arap/vendor', 'name=x', { 'Content-Type': 'text/plain' });
  t.equal(wrongType.status, 415, 'a non-JSON body is not a vendor');
  t.equal(wrongType.body.error.code, 'unsupported_media_type');
});

t.test('a missing permission is a 403 naming it', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const viewer = await a.addMember('viewer');
  const api = apiClient(ledger.url, a.dataset, viewer.apiKey);

  const vendor = await api('POST', '/arap/vendor', { name: 'Not allowed' });
  t.equal(vendor.status, 403);
  t.equal(vendor.body.error.code, 'forbidden');
  t.match(vendor.body.error.message, 'vendors.add_vendor');
  const customer = await api('POST', '/arap/customer', { name: 'Not allowed' });
  t.match(customer.body.error.message, 'customers.add_customer');
  t.equal((await api('GET', '/arap/vendor')).status, 200, 'a viewer may read');
  t.equal((await ledger.db('parties').where({ company_id: a.company.id })).length, 0, 'nothing was written');
});

t.test('health and readiness', async (t) => {
  const ledger = await startTestLedger(t);
  const health = await fetch(`${ledger.url}/healthz`);
  t.equal(health.status, 200);
  t.same(await health.json(), { status: 'ok' });
  const ready = await fetch(`${ledger.url}/readyz`);
  t.equal(ready.status, 200);
  t.same(await ready.json(), { status: 'ready' });

  // a ledger whose database is unreachable is alive but not ready
  const db = createDb('postgres://postgres@127.0.0.1:1/none');
  const down = await startLedger({
    config: testConfig(),
    database: { db, url: 'unreachable', close: () => db.destroy() },
  });
  t.teardown(async () => {
    await down.close();
    await db.destroy();
  });
  t.equal((await fetch(`${down.url}/healthz`)).status, 200);
  const notReady = await fetch(`${down.url}/readyz`);
  t.equal(notReady.status, 503);
  t.equal((await notReady.json()).error.code, 'unavailable');
});

t.test('graceful shutdown: an in-flight request completes after close()', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const body = JSON.stringify({ name: 'Created during shutdown' });

  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${ledger.url}/client/${a.dataset}/arap/vendor`,
      {
        method: 'POST',
        headers: {
          'X-API-Key': a.apiKey,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    // half of the body now, the rest after shutdown has begun
    req.write(body.slice(0, 10));
    setTimeout(() => req.end(body.slice(10)), 300);
  });
  await new Promise((r) => setTimeout(r, 100));
  let closed = false;
  const closing = ledger.close().then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 50));
  t.notOk(closed, 'close() waits for the request in flight');
  const res = await response;
  t.equal(res.status, 201, 'the in-flight request completed');
  t.match(JSON.parse(res.text), { id: Number });
  await closing;
  t.ok(closed);
  await t.rejects(fetch(`${ledger.url}/healthz`), 'new connections are refused after close');
});

t.test(
  'encoded dot segments, sent byte for byte, answer the JSON error body and never reach another route',
  async (t) => {
    const ledger = await startTestLedger(t);
    const a = await createTestCompany(ledger);
    const b = await createTestCompany(ledger);
    const { rawExchange, parseRaw } = await import('../../test/rawHttp.ts');
    // each path would name another route (or company) if %2e%2e were taken for ".." and resolved
    const paths = [
      `/client/${a.dataset}/arap/vendor/%2e%2e/%2e%2e/system/api_keys`,
      `/client/${a.dataset}/arap/%2E%2E/system/api_keys`,
      `/client/${a.dataset}/arap/vendor/%2e%2e%2f%2e%2e%2fsystem%2fapi_keys`,
      `/client/${a.dataset}/%2e%2e/${b.dataset}/arap/vendor`,
      `/client/${a.dataset}/arap/..%2f..%2fsystem/api_keys`,
      `/client/${a.dataset}/arap/.%2e/system/api_keys`,
      `/client/%2e%2e/internal/companies/${a.dataset}`,
      `/client/${a.dataset}/arap/vendor/%2e%2e%5c%2e%2e%5csystem/api_keys`,
    ];
    for (const path of paths) {
      const raw = await rawExchange(
        ledger.url,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${a.apiKey}\r\nConnection: close\r\n\r\n`,
      );
      const res = parseRaw(raw);
      t.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
      t.match(res.headers['content-type'], /^application\/json/, `${path}: JSON`);
      const body = JSON.parse(res.body) as { error: { code: string; message: string } };
      t.type(body.error.code, 'string', `${path}: the error body`);
      t.notMatch(res.body, /"prefix"|"label"|"vendornumber"/, `${path}: no other route's answer`);
    }
  },
);
