import t, { type Test } from 'tap';
import { CONTRACTS, sidesOf } from '@ledger/shared';
import { arapSetup, CHART, type ArapSetup } from '../../test/arapHelpers.ts';
import { apiClient, createTestCompany, startTestLedger, type ApiResponse } from '../../test/helpers.ts';
import { APP_ROLE } from '../db/knex.ts';

const KEY = 'Idempotency-Key';
let counter = 0;
const freshKey = () => `test-key-${process.pid}-${Date.now()}-${++counter}`;

/** Rows of a company's table (under its RLS scope). */
/** The company's rows of a table: filtered by company as well, as api_keys is a directory table without RLS. */
function counter_(s: ArapSetup, table: string) {
  return () =>
    s.q(async (tx) =>
      Number((await tx(table).where({ company_id: s.co.company.id }).count({ n: '*' }).first())?.n ?? 0),
    );
}

t.test(
  'every POST of the API refuses a malformed Idempotency-Key before anything else, naming the header',
  async (t) => {
    const s = await arapSetup(t);
    const posts = CONTRACTS.filter((c) => c.method === 'POST');
    t.ok(posts.length >= 20, `${posts.length} POST contracts`);
    const tooLong = 'k'.repeat(256);
    for (const c of posts) {
      for (const side of sidesOf(c)) {
        const path = (side ? c.path.replace(':vc', side) : c.path).replace(/:[A-Za-z_]+/g, '1');
        const res = await s.api('POST', path, {}, { [KEY]: tooLong });
        t.equal(res.status, 400, `${c.name} ${path}`);
        t.match(res.body.error.message, /Idempotency-Key/, `${c.name}: the message names the header`);
      }
    }
    for (const bad of ['', ' ', 'schlüssel']) {
      const res = await s.api('POST', '/arap/vendor', { name: 'Never' }, { [KEY]: bad });
      t.equal(res.status, 400, `key ${JSON.stringify(bad)} refused`);
    }
    t.equal(
      (await s.api('POST', '/arap/vendor', { name: 'Exactly 255' }, { [KEY]: 'x'.repeat(255) })).status,
      201,
      '255 printable characters are fine',
    );
    t.equal(
      (await s.api('POST', '/arap/vendor', { name: 'Spaces inside' }, { [KEY]: 'order 42 / try #1' })).status,
      201,
    );
  },
);

/** Sends the request twice with one key and once with another body: replayed, then refused. */
async function replays(
  t: Test,
  api: ArapSetup['api'],
  label: string,
  path: string,
  body: unknown,
  other: unknown,
  count: () => Promise<number>,
): Promise<ApiResponse> {
  const key = freshKey();
  const before = await count();
  const first = await api('POST', path, body, { [KEY]: key });
  t.ok(first.status < 300, `${label}: first answer ${first.status} ${JSON.stringify(first.body)}`);
  t.equal(first.headers.get('idempotent-replayed'), null, `${label}: the first answer is no replay`);
  const written = await count();
  t.ok(written >= before, `${label}: rows before ${before}, after ${written}`);
  const again = await api('POST', path, body, { [KEY]: key });
  t.equal(again.status, first.status, `${label}: same status`);
  t.same(again.body, first.body, `${label}: same body`);
  t.equal(again.headers.get('idempotent-replayed'), 'true', `${label}: marked as replay`);
  t.equal(again.headers.get('location'), first.headers.get('location'), `${label}: same Location`);
  t.equal(await count(), written, `${label}: the replay wrote nothing`);
  const conflict = await api('POST', path, other, { [KEY]: key });
  t.equal(conflict.status, 409, `${label}: same key, other body`);
  t.equal(conflict.body.error.code, 'conflict');
  t.match(conflict.body.error.message, /another request/);
  t.equal(await count(), written, `${label}: the conflict wrote nothing`);
  return first;
}

t.test('a repeated POST is answered from the first answer, per route family; another body is a 409', async (t) => {
  const s = await arapSetup(t);
  const audit = counter_(s, 'audit_log');
  const vendor = s.parties.vendor.id;

  const party = await replays(
    t,
    s.api,
    'parties',
    '/arap/vendor',
    { name: 'Once AG' },
    { name: 'Twice AG' },
    counter_(s, 'parties'),
  );
  t.equal(party.status, 201);
  t.equal((await s.api('GET', '/arap/vendor?name=Once%20AG')).body.length, 1, 'one vendor "Once AG"');
  await replays(
    t,
    s.api,
    'party update',
    `/arap/vendor/${vendor}`,
    { name: 'Acme Supplies', city: 'Bern' },
    { name: 'Acme Supplies', city: 'Thun' },
    audit,
  );

  const doc = s.doc('vendor', { pending: '0' });
  const entries = counter_(s, 'ledger_entries');
  const before = await entries();
  const bill = await replays(
    t,
    s.api,
    'transactions',
    '/arap/transaction/vendor',
    doc,
    { ...doc, description: 'other' },
    entries,
  );
  t.equal(await entries(), before + 3, 'the bill is posted once (line, tax, control)');
  await replays(
    t,
    s.api,
    'reverse',
    `/arap/transaction/vendor/${bill.body.id}/reverse`,
    undefined,
    { date: '2024-03-20' },
    entries,
  );

  await replays(
    t,
    s.api,
    'invoices',
    '/arap/invoice/customer',
    {
      type: 'invoice',
      customer_id: s.parties.customer.id,
      invDate: '2024-03-15',
      items: [
        {
          description: 'Consulting',
          quantity: 2,
          price: 120,
          account: CHART.customer.line,
          taxAccount: CHART.customer.tax,
        },
      ],
    },
    {
      type: 'invoice',
      customer_id: s.parties.customer.id,
      invDate: '2024-03-15',
      items: [
        {
          description: 'Consulting',
          quantity: 3,
          price: 120,
          account: CHART.customer.line,
          taxAccount: CHART.customer.tax,
        },
      ],
    },
    counter_(s, 'arap_transactions'),
  );
  await replays(
    t,
    s.api,
    'services',
    '/arap/services',
    { description: 'Audit', price: 150 },
    { description: 'Audit', price: 160 },
    counter_(s, 'services'),
  );
  await replays(
    t,
    s.api,
    'company',
    '/system/company',
    { street: 'Bahnhofstrasse 1' },
    { street: 'Bahnhofstrasse 2' },
    audit,
  );
  await replays(
    t,
    s.api,
    'bank accounts',
    '/bank/accounts',
    { name: 'Main', iban: 'CH93 0076 2011 6238 5295 7', currency: 'CHF', account: '1020' },
    { name: 'Other', iban: 'CH93 0076 2011 6238 5295 7', currency: 'CHF', account: '1020' },
    counter_(s, 'bank_accounts'),
  );
  await replays(
    t,
    s.api,
    'vendor bank accounts',
    `/arap/vendor/${vendor}/bank_accounts`,
    { iban: 'DE89370400440532013000' },
    { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    audit,
  );
  await replays(t, s.api, 'close books', '/system/close_books', { date: '2023-12-31' }, { date: '2023-11-30' }, audit);
  await replays(t, s.api, 'validate key', '/auth/validate_api', undefined, { extra: 1 }, audit);

  const keys = counter_(s, 'api_keys');
  const created = await replays(
    t,
    s.api,
    'api keys',
    '/system/api_keys',
    { label: 'export' },
    { label: 'import' },
    keys,
  );
  const stored = await s.q((tx) =>
    tx.raw(`select body from idempotency_keys where body like '%' || ? || '%'`, [created.body.key]),
  );
  t.equal(stored.rows.length, 0, 'the kept answer holding a new API key is not stored readable');
});

t.test('a refusal of the handler is kept and replayed; a refusal before it (validation) is not', async (t) => {
  const s = await arapSetup(t);
  const key = freshKey();
  const missing = await s.api('POST', '/arap/vendor/999999', { name: 'Nobody' }, { [KEY]: key });
  t.equal(missing.status, 404);
  const again = await s.api('POST', '/arap/vendor/999999', { name: 'Nobody' }, { [KEY]: key });
  t.equal(again.status, 404);
  t.same(again.body, missing.body);
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the 404 is kept');

  // a rule refusal inside the workflow rolls back what the handler wrote, but the answer is kept
  const entries = counter_(s, 'ledger_entries');
  const before = await entries();
  const unbalanced = s.doc('vendor', { pending: '0', lines: [{ account: '9999', amount: 100 }] });
  const k2 = freshKey();
  const refused = await s.api('POST', '/arap/transaction/vendor', unbalanced, { [KEY]: k2 });
  t.equal(refused.status, 400, JSON.stringify(refused.body));
  const refusedAgain = await s.api('POST', '/arap/transaction/vendor', unbalanced, { [KEY]: k2 });
  t.same(
    [refusedAgain.status, refusedAgain.body, refusedAgain.headers.get('idempotent-replayed')],
    [400, refused.body, 'true'],
  );
  t.equal(await entries(), before);

  const k3 = freshKey();
  const invalid = await s.api('POST', '/arap/vendor', { nom: 'Typo' }, { [KEY]: k3 });
  t.equal(invalid.status, 400, 'schema refusal');
  const fixed = await s.api('POST', '/arap/vendor', { name: 'Fixed AG' }, { [KEY]: k3 });
  t.equal(fixed.status, 201, 'the key was not used up by a request that never reached its handler');
  t.equal(fixed.headers.get('idempotent-replayed'), null);
});

t.test('concurrent requests with one key: one write, every answer the same', async (t) => {
  const s = await arapSetup(t);
  const parties = counter_(s, 'parties');
  const before = await parties();
  const key = freshKey();
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => s.api('POST', '/arap/vendor', { name: 'Race AG' }, { [KEY]: key })),
  );
  t.same(
    answers.map((a) => a.status),
    Array(8).fill(201),
  );
  t.equal(new Set(answers.map((a) => a.body.id)).size, 1, 'one id for all');
  t.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === null).length, 1, 'exactly one ran');
  t.equal(await parties(), before + 1, 'one vendor written');

  const docs = counter_(s, 'arap_transactions');
  const d0 = await docs();
  const doc = s.doc('vendor', { pending: '0' });
  const k2 = freshKey();
  const bills = await Promise.all(
    Array.from({ length: 6 }, () => s.api('POST', '/arap/transaction/vendor', doc, { [KEY]: k2 })),
  );
  t.equal(new Set(bills.map((b) => `${b.status}:${b.body.id}`)).size, 1);
  t.equal(await docs(), d0 + 1, 'one bill');
});

t.test('the key space is per caller: another API key with the same key string writes anew', async (t) => {
  const s = await arapSetup(t);
  const other = await s.co.addMember('accountant');
  const otherApi = apiClient(s.ledger.url, s.co.dataset, other.apiKey);
  const key = freshKey();
  const mine = await s.api('POST', '/arap/vendor', { name: 'Mine AG' }, { [KEY]: key });
  const theirs = await otherApi('POST', '/arap/vendor', { name: 'Mine AG' }, { [KEY]: key });
  t.equal(theirs.status, 201);
  t.not(theirs.body.id, mine.body.id, 'a second vendor');
  t.equal(theirs.headers.get('idempotent-replayed'), null);
  const theirsOther = await otherApi('POST', '/arap/vendor', { name: 'Theirs AG' }, { [KEY]: freshKey() });
  t.equal(theirsOther.status, 201);

  // and per company: the same key string at another company is independent too
  const b = await createTestCompany(s.ledger);
  const atB = apiClient(s.ledger.url, b.dataset, b.apiKey);
  t.equal(
    (await atB('POST', '/arap/vendor', { name: 'Mine AG' }, { [KEY]: key })).headers.get('idempotent-replayed'),
    null,
  );
});

t.test(
  'a request whose key another transaction holds waits, then answers 409 in progress; after 24 h a key is new',
  async (t) => {
    const ledger = await startTestLedger(t, { idempotencyWaitMs: 300 });
    const co = await createTestCompany(ledger);
    const api = apiClient(ledger.url, co.dataset, co.apiKey);
    const key = freshKey();
    // another request holding the key: its row inserted in an open transaction
    const holder = await ledger.db.transaction();
    t.teardown(() => (holder.isCompleted() ? undefined : holder.rollback()));
    await holder.raw(`select set_config('app.company_id', ?, true), set_config('role', ?, true)`, [
      String(co.company.id),
      APP_ROLE,
    ]);
    await holder('idempotency_keys').insert({
      company_id: co.company.id,
      caller: `key:${co.apiKeyId}`,
      key,
      method: 'POST',
      path: 'x',
      request_hash: 'x',
      status: 0,
      body: '',
    });
    const busy = await api('POST', '/arap/vendor', { name: 'Waiting AG' }, { [KEY]: key });
    t.equal(busy.status, 409);
    t.match(busy.body.error.message, /in progress/);
    await holder.rollback();
    const after = await api('POST', '/arap/vendor', { name: 'Waiting AG' }, { [KEY]: key });
    t.equal(after.status, 201, 'once the other transaction ended without the key, this one runs');

    await ledger.db.transaction(async (tx) => {
      await tx.raw(`select set_config('app.company_id', ?, true), set_config('role', ?, true)`, [
        String(co.company.id),
        APP_ROLE,
      ]);
      await tx('idempotency_keys')
        .where({ key })
        .update({ created_at: tx.raw(`now() - interval '25 hours'`) });
    });
    const later = await api('POST', '/arap/vendor', { name: 'Waiting AG' }, { [KEY]: key });
    t.equal(later.status, 201);
    t.not(later.body.id, after.body.id, 'after 24 h the same key and body make a new vendor');
    t.equal(later.headers.get('idempotent-replayed'), null);
    const other = await api('POST', '/arap/vendor', { name: 'Expired body' }, { [KEY]: key });
    t.equal(other.status, 409, 'and the key now stands for the new request');
  },
);

t.test('multipart: a retry with a new boundary is the same request; other file bytes are another', async (t) => {
  const s = await arapSetup(t);
  const headers = { 'X-API-Key': s.co.apiKey };
  const url = `${s.ledger.url}/client/${s.co.dataset}/arap/transaction/vendor`;
  const doc = JSON.stringify(s.doc('vendor', { pending: '0' }));
  const form = (bytes: string) => {
    const f = new FormData();
    f.append('transaction', doc);
    f.append('files', new Blob([bytes], { type: 'text/plain' }), 'note.txt');
    return f;
  };
  const key = freshKey();
  const first = await fetch(url, { method: 'POST', headers: { ...headers, [KEY]: key }, body: form('hello') });
  const firstBody = await first.json();
  t.equal(first.status, 201, JSON.stringify(firstBody));
  const again = await fetch(url, { method: 'POST', headers: { ...headers, [KEY]: key }, body: form('hello') });
  t.same(await again.json(), firstBody);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  const other = await fetch(url, { method: 'POST', headers: { ...headers, [KEY]: key }, body: form('hellO') });
  t.equal(other.status, 409);
  await other.arrayBuffer();
});
