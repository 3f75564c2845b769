import { randomBytes } from 'node:crypto';
import t from 'tap';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, TEST_DATABASE_URL, testConfig } from '../../test/helpers.ts';
import { createQueueClient, DEFAULT_RETRY_POLICY, ensureQueue } from '../db/queue.ts';

/** The value of one sample line of the Prometheus text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(',').filter(Boolean);
    if (want.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}

t.test(
  'GET /metrics on the ledger port: requests by contract and status, latency, pool, queue depth, process',
  async (t) => {
    // no mail worker: the jobs queued below stay queued
    const queue = `metrics_${randomBytes(4).toString('hex')}`;
    const config = testConfig({ mailQueue: queue });
    const ledger = { ...(await startLedger({ config, mail: false })), config };
    t.teardown(() => ledger.close());
    const boss = await createQueueClient(TEST_DATABASE_URL);
    await boss.start();
    t.teardown(() => boss.stop({ graceful: false }));
    await ensureQueue(ledger.db, queue, DEFAULT_RETRY_POLICY);
    await boss.send(queue, { companyId: 0, messageId: 0 });
    await boss.send(queue, { companyId: 0, messageId: 1 });

    const co = await createTestCompany(ledger);
    const api = apiClient(ledger.url, co.dataset, co.apiKey);
    t.equal((await api('POST', '/arap/vendor', { name: 'Metered AG' })).status, 201);
    t.equal((await api('POST', '/arap/vendor', { name: 'Metered AG' }, { 'Idempotency-Key': 'm-1' })).status, 201);
    t.equal((await api('POST', '/arap/vendor', { name: 'Metered AG' }, { 'Idempotency-Key': 'm-1' })).status, 201);
    t.equal((await api('GET', '/arap/vendor/999999')).status, 404);
    t.equal((await api('GET', '/arap/vendor?name=Metered')).status, 200);
    t.equal((await fetch(`${ledger.url}/client/${co.dataset}/arap/vendor`)).status, 401);

    const res = await fetch(`${ledger.url}/metrics`);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    t.equal(
      sample(text, 'ledger_http_requests_total', { route: 'createParty', method: 'POST', status: '201' }),
      3,
      'three vendor creations, labelled by contract',
    );
    t.equal(sample(text, 'ledger_http_requests_total', { route: 'getParty', method: 'GET', status: '404' }), 1);
    t.equal(sample(text, 'ledger_http_requests_total', { route: 'searchParties', method: 'GET', status: '200' }), 1);
    t.equal(
      sample(text, 'ledger_http_requests_total', { route: 'client_unrouted', method: 'GET', status: '401' }),
      1,
      'refused before routing',
    );
    const labels = text
      .split('\n')
      .map((l) => /\{([^}]*)\}/.exec(l)?.[1] ?? '')
      .join('\n');
    t.notOk(labels.includes('999999') || labels.includes(co.dataset), 'no ids or datasets in labels');
    t.equal(
      sample(text, 'ledger_http_request_duration_seconds_count', {
        route: 'createParty',
        method: 'POST',
        status: '201',
      }),
      3,
    );
    t.equal(
      sample(text, 'ledger_http_request_duration_seconds_bucket', {
        route: 'createParty',
        method: 'POST',
        status: '201',
        le: '+Inf',
      }),
      3,
    );
    t.equal(sample(text, 'ledger_idempotent_replays_total'), 1, 'one replay');
    t.equal(sample(text, 'ledger_db_pool_connections', { state: 'max' }), 10);
    t.type(sample(text, 'ledger_db_pool_connections', { state: 'used' }), 'number');
    t.equal(sample(text, 'ledger_job_queue_depth', { queue }), 2, 'the two queued jobs');
    t.ok((sample(text, 'process_cpu_seconds_total') ?? 0) > 0, 'default process metrics');
    t.type(sample(text, 'nodejs_eventloop_lag_seconds'), 'number');

    t.equal((await fetch(`${ledger.url}/metrics`, { method: 'POST' })).status, 404, 'only GET');
    const again = await (await fetch(`${ledger.url}/metrics`)).text();
    t.equal(
      sample(again, 'ledger_http_requests_total', { route: 'metrics', method: 'GET', status: '200' }),
      1,
      'the scrape itself is counted',
    );
  },
);
