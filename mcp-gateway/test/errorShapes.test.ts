/**
 * Each part of the public origin answers errors in its own body shape, on a real gateway and
 * ledger: RFC 6749 JSON on the OAuth endpoints programs call, the JSON error body on the API
 * paths and discovery, an HTML page on page routes for browsers (JSON for other callers),
 * the MCP endpoint its own answers; and a 404 for a path nobody serves by the same rule.
 */
import t from 'tap';
import { startStack } from './helpers.ts';

const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

t.test('error bodies by router', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const send = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${stack.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json' };

  t.test('OAuth endpoints: RFC 6749 JSON, never cached', async (t) => {
    const broken = await send('POST', '/oauth/register', '{"redirect_uris":', { ...json, accept: HTML });
    t.equal(broken.status, 400);
    t.equal(broken.headers.get('cache-control'), 'no-store');
    t.match(broken.json(), { error: 'invalid_request', error_description: String });
    const big = await send('POST', '/oauth/token', `grant_type=${'x'.repeat(70 * 1024)}`, form);
    t.equal(big.status, 413, 'a form above 64 KiB');
    t.match(big.json(), { error: 'invalid_request', error_description: String });
    t.equal(big.headers.get('cache-control'), 'no-store');
    const revoke = await send('POST', '/oauth/revoke', '{"token":', json);
    t.equal(revoke.status, 400);
    t.match(revoke.json(), { error: 'invalid_request' });
    const grant = await send('POST', '/oauth/token', 'grant_type=password', form);
    t.same(grant.json(), {
      error: 'unsupported_grant_type',
      error_description: 'Only authorization_code and refresh_token are supported.',
    });
    t.equal(grant.headers.get('pragma'), 'no-cache');
  });

  t.test('page routes: an HTML page for browsers, the JSON error body for others', async (t) => {
    const page = await send('POST', '/signin', '{"email":', { ...json, accept: HTML });
    t.equal(page.status, 400);
    t.match(page.headers.get('content-type'), /^text\/html/);
    t.match(page.text, /<title>Bad request<\/title>/);
    t.equal(page.headers.get('x-frame-options'), 'DENY', 'with the page headers');
    const program = await send('POST', '/signin', '{"email":', { ...json, accept: 'application/json' });
    t.equal(program.status, 400);
    t.match(program.json(), { error: { code: 'invalid_request', message: String } });
  });

  t.test('the ledger away: 503 in each shape, with Retry-After', async (t) => {
    const ledger = stack.gateway.deps.ledger as unknown as { baseUrl: string };
    const saved = ledger.baseUrl;
    Object.assign(ledger, { baseUrl: 'http://127.0.0.1:1' });
    t.teardown(() => Object.assign(ledger, { baseUrl: saved }));
    const meta = await send('GET', `/.well-known/oauth-protected-resource/mcp/${company.dataset}`, undefined, {
      accept: HTML,
    });
    t.equal(meta.status, 503);
    t.equal(meta.headers.get('retry-after'), '5');
    t.same(meta.json(), {
      error: { code: 'unavailable', message: 'The service is temporarily unavailable; try again shortly.' },
    });
    const signIn = await send('GET', '/signin', undefined, { accept: HTML });
    const csrf = /name="csrf" value="([^"]+)"/.exec(signIn.text)?.[1] ?? '';
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await send(
      'POST',
      '/signin',
      new URLSearchParams({ csrf, email: 'a@b.example', password: 'x', totp: '123456' }).toString(),
      { ...form, accept: HTML, cookie },
    );
    t.equal(page.status, 503);
    t.equal(page.headers.get('retry-after'), '5');
    t.match(page.text, /<title>Something went wrong<\/title>/);
  });

  t.test(
    'a path nobody serves: 404, JSON on API paths whatever Accept says, a page for browsers elsewhere',
    async (t) => {
      const api = await send('GET', '/oauth/nothing', undefined, { accept: HTML });
      t.equal(api.status, 404);
      t.match(api.headers.get('content-type'), /^text\/html/, '/oauth/nothing is not an API path');
      for (const path of ['/.well-known/nothing', '/mcp', '/oauth/token/x']) {
        const res = await send('GET', path, undefined, { accept: HTML });
        t.equal(res.status, 404, path);
        t.match(res.json(), { error: { code: 'not_found' } }, `${path}: JSON`);
      }
      const unknownPost = await send('POST', '/nothing', '{"a":', { ...json, accept: 'application/json' });
      t.equal(unknownPost.status, 400, 'a body nobody takes is still judged first');
      t.match(unknownPost.json(), { error: { code: 'invalid_request' } });
      const mcpPost = await send('POST', '/mcp', '{"a":', json);
      t.equal(mcpPost.status, 404, 'the MCP paths never have their body parsed by the gateway');
    },
  );

  t.test('the MCP endpoint: its own JSON answers, never cached', async (t) => {
    const res = await send('POST', `/mcp/${company.dataset}`, '{}', json);
    t.equal(res.status, 401, 'no token');
    t.equal(res.headers.get('cache-control'), 'no-store');
  });
});
