/**
 * HTTP conventions on the public origin, with a real gateway and ledger:
 * - a rate-limited answer (429) says the policy it ran into and when it frees up: the IETF
 *   `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers) besides
 *   `Retry-After`, readable by browser clients (CORS);
 * - the REST API's 401 challenge and 201 Location come through the proxy, Location on the
 *   public origin rather than the ledger's own address.
 */
import t from 'tap';
import { connect, registerClient, startStack } from './helpers.ts';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

t.test('MCP: the request over the limit gets Retry-After, RateLimit-Policy and RateLimit', async (t) => {
  const stack = await startStack(t, { MCP_RATE_LIMIT: '2' });
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'read' } });
  const list = () =>
    fetch(resource, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${tokens.access_token}`, origin: 'https://inspector.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  for (let i = 1; i <= 2; i++) {
    const ok = await list();
    t.equal(ok.status, 200, `request ${i} of the minute`);
    await ok.body?.cancel();
  }
  const limited = await list();
  t.equal(limited.status, 429);
  const retry = Number(limited.headers.get('retry-after'));
  t.ok(retry >= 1 && retry <= 60, `Retry-After ${retry} s, within the minute`);
  t.equal(limited.headers.get('ratelimit-policy'), '"mcp";q=2;w=60', 'two requests per 60 s window');
  t.equal(limited.headers.get('ratelimit'), `"mcp";r=0;t=${retry}`, 'none left, free again when Retry-After says');
  const exposed = (limited.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
  t.ok(
    ['Retry-After', 'RateLimit-Policy', 'RateLimit'].every((h) => exposed.includes(h)),
    `a browser client may read them (${exposed.join(', ')})`,
  );
  t.match(await limited.json(), { error: 'rate_limited' });
});

t.test('client registration: the 11th in the hour gets Retry-After, RateLimit-Policy and RateLimit', async (t) => {
  const stack = await startStack(t);
  const from = { 'X-Forwarded-For': '192.0.2.91' };
  for (let i = 0; i < 10; i++) t.equal((await registerClient(stack, {}, from)).status, 201, `registration ${i + 1}`);
  const limited = await registerClient(stack, {}, from);
  t.equal(limited.status, 429);
  const retry = Number(limited.headers.get('retry-after'));
  t.ok(retry >= 1 && retry <= 3600, `Retry-After ${retry} s, within the hour`);
  t.equal(limited.headers.get('ratelimit-policy'), '"register";q=10;w=3600');
  t.equal(limited.headers.get('ratelimit'), `"register";r=0;t=${retry}`);
  t.match(limited.headers.get('access-control-expose-headers') ?? '', /RateLimit-Policy, RateLimit/);
  t.equal(limited.body.error, 'rate_limited');
});

t.test('through the proxy: the 401 challenge, and Location on the public origin', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const vendors = `${stack.url}/client/${company.dataset}/arap/vendor`;
  const anonymous = await fetch(vendors);
  t.equal(anonymous.status, 401);
  t.equal(anonymous.headers.get('www-authenticate'), 'ApiKey header="X-API-Key"');
  await anonymous.body?.cancel();

  const created = await fetch(vendors, {
    method: 'POST',
    headers: { 'X-API-Key': company.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Proxy Location AG' }),
  });
  t.equal(created.status, 201);
  const { id } = (await created.json()) as { id: number };
  t.equal(created.headers.get('location'), `${vendors}/${id}`, 'the URL the caller used, not the ledger behind it');
  const read = await fetch(created.headers.get('location')!, { headers: { 'X-API-Key': company.apiKey } });
  t.equal(read.status, 200);
  t.match(await read.json(), { id, name: 'Proxy Location AG' });
});
