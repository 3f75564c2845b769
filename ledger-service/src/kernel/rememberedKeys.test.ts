/**
 * Remembered API keys (kernel/auth.ts RememberedKeys): a key read once is not read again
 * before each request, its request's transaction checks it in its first message instead,
 * and every change to what authentication read still takes effect on the very next request,
 * whatever that request is (a read, a write, a refused body, an unknown path).
 */
import t from 'tap';
import { arapSetup } from '../../test/arapHelpers.ts';
import { apiClient } from '../../test/helpers.ts';

/** Counts the API-key lookups (db/apiKeys.ts FIND_KEY_SQL) the ledger sends while `fn` runs. */
async function lookupsDuring(s: Awaited<ReturnType<typeof arapSetup>>, fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const count = (q: { sql?: string }) => {
    if (q.sql?.includes('where k.key_hash')) n++;
  };
  s.ledger.db.on('query', count);
  try {
    await fn();
  } finally {
    s.ledger.db.off('query', count);
  }
  return n;
}

t.test('a key is read once; the requests after it send no lookup of their own', async (t) => {
  const s = await arapSetup(t);
  const m = await s.co.addMember('accountant');
  const api = apiClient(s.ledger.url, s.co.dataset, m.apiKey);
  const read = () => api('GET', `/arap/vendor/${s.parties.vendor.id}`);
  t.equal(await lookupsDuring(s, read), 1, 'the first request reads it');
  // its first use is written to the key's row (last_used_at), which the next request sees and reads the key again for
  const lastUsed = () => s.ledger.db('api_keys').where({ id: m.apiKeyId }).first('last_used_at');
  for (let i = 0; i < 100 && !(await lastUsed())?.last_used_at; i++) await new Promise((r) => setTimeout(r, 20));
  t.equal(await lookupsDuring(s, read), 1, 'the key changed (its last use): read again');
  const later = await lookupsDuring(s, async () => {
    for (let i = 0; i < 5; i++) {
      t.equal((await read()).status, 200);
      t.equal((await api('POST', '/arap/transaction/vendor', s.doc('vendor'))).status, 201);
    }
  });
  t.equal(later, 0, 'ten requests after it, no lookup');
  const refused = await lookupsDuring(s, async () => {
    const write = await api('POST', '/arap/transaction/vendor', s.doc('vendor', { vendor_id: 999_999_999 }));
    t.equal(write.status, 400, `the handler refuses it in its transaction: ${JSON.stringify(write.body)}`);
  });
  t.equal(refused, 0, 'a write refused inside its transaction, the key checked there: no lookup either');
});

t.test('a deleted key is refused on the next request, whatever the request', async (t) => {
  const s = await arapSetup(t);
  const owner = s.api;
  const requests: [string, (api: ReturnType<typeof apiClient>) => ReturnType<ReturnType<typeof apiClient>>][] = [
    ['a read', (api) => api('GET', `/arap/vendor/${s.parties.vendor.id}`)],
    ['a write', (api) => api('POST', '/arap/transaction/vendor', s.doc('vendor'))],
    ['a body the contract refuses', (api) => api('POST', '/arap/transaction/vendor', { lines: 'none' })],
    ['a path that does not exist', (api) => api('GET', '/no/such/path')],
    ['OPTIONS, answered without a transaction', (api) => api('OPTIONS', '/arap/transaction/vendor')],
    ['a permission the key never had', (api) => api('DELETE', `/system/members/${s.co.userId}`)],
  ];
  for (const [what, send] of requests) {
    const created = await owner('POST', '/system/api_keys', { label: what });
    t.equal(created.status, 201);
    const api = apiClient(s.ledger.url, s.co.dataset, created.body.key);
    t.equal((await api('GET', `/arap/vendor/${s.parties.vendor.id}`)).status, 200, `${what}: the key works`);
    t.equal((await owner('DELETE', `/system/api_keys/${created.body.id}`)).status, 204);
    const refused = await send(api);
    t.equal(refused.status, 401, `${what}: 401 once the key is deleted`);
    t.equal((refused.body as { error: { code: string } }).error.code, 'unauthorized');
  }
});

t.test('a changed role counts from the next request, in both directions', async (t) => {
  const s = await arapSetup(t);
  const m = await s.co.addMember('accountant');
  const api = apiClient(s.ledger.url, s.co.dataset, m.apiKey);
  t.equal((await api('POST', '/arap/transaction/vendor', s.doc('vendor'))).status, 201, 'an accountant posts');

  t.equal((await s.api('POST', `/system/members/${m.userId}`, { role: 'viewer' })).status, 200);
  const down = await api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(down.status, 403, 'as a viewer the next write is refused');
  t.equal(down.body.error.code, 'forbidden');
  t.equal((await api('GET', `/arap/vendor/${s.parties.vendor.id}`)).status, 200, 'a viewer still reads');

  t.equal((await s.api('POST', `/system/members/${m.userId}`, { role: 'accountant' })).status, 200);
  t.equal(
    (await api('POST', '/arap/transaction/vendor', s.doc('vendor'))).status,
    201,
    'promoted again, the next write is taken (a remembered viewer role refuses nothing)',
  );

  t.equal((await s.api('POST', `/system/members/${m.userId}`, { role: 'accountant', approval_limit: 50 })).status, 200);
  const limited = await api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
  t.equal(limited.status, 400, 'a new approval limit holds for the next posting');
  t.equal(limited.body.error.code, 'amount_exceeded');

  t.equal((await s.api('DELETE', `/system/members/${m.userId}`)).status, 204);
  const removed = await api('GET', `/arap/vendor/${s.parties.vendor.id}`);
  t.equal(removed.status, 403, 'a removed member is refused at once');
});

t.test('a bill that goes as one message with its key deleted meanwhile: 401, and nothing of it commits', async (t) => {
  const s = await arapSetup(t);
  const created = await s.api('POST', '/system/api_keys', { label: 'one message' });
  t.equal(created.status, 201);
  const api = apiClient(s.ledger.url, s.co.dataset, created.body.key);
  let messages: string[] = [];
  const listen = (q: { sql?: string }) => messages.push(q.sql ?? '');
  s.ledger.db.on('query', listen);
  t.teardown(() => s.ledger.db.off('query', listen));
  const whole = (m: string) => /^begin; .*ledger_check\(.*; execute p_\w+\(…\); commit$/s.test(m);
  // until a bill goes as one message: its key remembered, its snapshot remembered, its statement prepared
  let oneMessage = false;
  for (let i = 0; i < 30 && !oneMessage; i++) {
    messages = [];
    t.equal((await api('POST', '/arap/transaction/vendor', s.doc('vendor'))).status, 201);
    oneMessage = messages.length === 1 && whole(messages[0]!);
  }
  t.ok(oneMessage, 'a bill in one message, the key checked in it');
  const count = async () => Number((await s.ledger.db('arap_transactions').count({ n: '*' }).first())?.n);
  const before = await count();
  t.equal((await s.api('DELETE', `/system/api_keys/${created.body.id}`)).status, 204);
  messages = [];
  const refused = await api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(refused.status, 401, 'refused: the key was deleted');
  t.ok(messages.some(whole), 'the refused bill went as one message: the key check failed it before its COMMIT');
  t.equal(await count(), before, 'no document written');
});
