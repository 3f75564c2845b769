import t from 'tap';
import { eachStore, postJson, registerClient } from './helpers.ts';

eachStore(t, 'dynamic client registration (RFC 7591)', async (t, { startStack }) => {
  const stack = await startStack(t, { TRUST_PROXY: '1' });
  // each case comes from its own address (X-Forwarded-For is trusted here), so the hourly limit does not interfere
  let n = 0;
  const from = () => ({ 'X-Forwarded-For': `198.51.100.${++n}` });

  t.test('accepted registrations', async (t) => {
    const res = await registerClient(
      stack,
      {
        client_name: 'Desk App',
        redirect_uris: [
          'https://app.example.com/cb',
          'http://localhost/cb',
          'http://127.0.0.1:9999/cb',
          'http://[::1]/cb',
          'com.example.desk:/oauth',
          'cursor://anysphere.cursor/cb',
        ],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      },
      from(),
    );
    t.equal(res.status, 201);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.match(res.body.client_id, /^dcr_[A-Za-z0-9_-]{22}$/);
    t.equal(res.body.client_name, 'Desk App');
    t.equal(res.body.token_endpoint_auth_method, 'none');
    t.same(res.body.response_types, ['code']);
    t.equal(res.body.redirect_uris.length, 6);
    t.type(res.body.client_id_issued_at, 'number');
    t.notOk('client_secret' in res.body, 'public clients get no secret');
    const row = await stack.gateway.deps.db('oauth_clients').where({ client_id: res.body.client_id }).first();
    t.equal(row?.verified_host, null, 'mixed redirect URIs: not a verified domain');

    const one = await registerClient(
      stack,
      { redirect_uris: ['https://a.example.org/cb', 'https://a.example.org/other'] },
      from(),
    );
    t.equal(one.status, 201);
    const row2 = await stack.gateway.deps.db('oauth_clients').where({ client_id: one.body.client_id }).first();
    t.equal(row2?.verified_host, 'a.example.org', 'all https on one host: verified domain');
    const two = await registerClient(
      stack,
      { redirect_uris: ['https://a.example.org/cb', 'https://b.example.org/cb'] },
      from(),
    );
    t.equal(
      (await stack.gateway.deps.db('oauth_clients').where({ client_id: two.body.client_id }).first())?.verified_host,
      null,
      'two hosts: unverified',
    );
  });

  t.test('refused redirect URIs', async (t) => {
    const bad = [
      'http://app.example.com/cb', // http off loopback
      'http://10.0.0.5/cb',
      'https://app.example.com/cb#frag',
      'not a uri',
      '/relative/cb',
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'https://user:pw@app.example.com/cb',
      '',
    ];
    for (const uri of bad) {
      const res = await registerClient(stack, { redirect_uris: [uri] }, from());
      t.equal(res.status, 400, `refused: ${uri}`);
      t.equal(res.body.error, 'invalid_redirect_uri', uri);
      t.type(res.body.error_description, 'string');
    }
    t.equal(
      (await registerClient(stack, { redirect_uris: [] }, from())).body.error,
      'invalid_redirect_uri',
      'empty list',
    );
    t.equal(
      (await registerClient(stack, { redirect_uris: 'https://a.example/cb' }, from())).body.error,
      'invalid_redirect_uri',
      'not a list',
    );
    const many = Array.from({ length: 21 }, (_, i) => `https://a.example.com/cb${i}`);
    t.equal(
      (await registerClient(stack, { redirect_uris: many }, from())).body.error,
      'invalid_redirect_uri',
      'more than 20',
    );
  });

  t.test('refused metadata', async (t) => {
    const cases: [string, Record<string, unknown>][] = [
      ['confidential client', { token_endpoint_auth_method: 'client_secret_basic' }],
      ['implicit grant', { grant_types: ['implicit'] }],
      ['token response type', { response_types: ['token'] }],
      ['name not a string', { client_name: 42 }],
      ['name too long', { client_name: 'x'.repeat(201) }],
    ];
    for (const [label, meta] of cases) {
      const res = await registerClient(stack, meta, from());
      t.equal(res.status, 400, label);
      t.equal(res.body.error, 'invalid_client_metadata', label);
    }
    const notJson = await fetch(`${stack.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...from() },
      body: 'redirect_uris=x',
    });
    t.equal(notJson.status, 400);
    const broken = await fetch(`${stack.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from() },
      body: '{"redirect_uris": [',
    });
    t.equal(broken.status, 400, 'malformed JSON: 400, not 500');
    t.equal(((await broken.json()) as any).error, 'invalid_request');
  });

  t.test('10 registrations per hour per IP address, then 429 with Retry-After', async (t) => {
    const ip = { 'X-Forwarded-For': '192.0.2.77' };
    for (let i = 0; i < 10; i++) t.equal((await registerClient(stack, {}, ip)).status, 201, `registration ${i + 1}`);
    const limited = await registerClient(stack, {}, ip);
    t.equal(limited.status, 429);
    const retry = Number(limited.headers.get('retry-after'));
    t.ok(retry > 3500 && retry <= 3600, `Retry-After ${retry} s`);
    t.equal(limited.body.error, 'rate_limited');
    t.equal(
      (await registerClient(stack, {}, { 'X-Forwarded-For': '192.0.2.78' })).status,
      201,
      'another address is not affected',
    );
    // failed registrations count too: the limit is on attempts
    const other = { 'X-Forwarded-For': '192.0.2.79' };
    for (let i = 0; i < 10; i++)
      await postJson(`${stack.url}/oauth/register`, { redirect_uris: ['http://evil.example/cb'] }, other);
    t.equal((await registerClient(stack, {}, other)).status, 429);
  });
});
