/**
 * The gateway's Node listener (src/origin/listener.ts): `/mcp/{dataset}` goes to the MCP
 * endpoint without Koa, matched as the Koa router matched it before; every other path goes
 * through the Koa app.
 */
import t from 'tap';
import { mcpDatasetOf } from '../src/mcp/index.ts';
import { startStack } from './helpers.ts';

t.test("mcpDatasetOf: the MCP endpoint's paths and nothing else", async (t) => {
  t.equal(mcpDatasetOf('/mcp/acme'), 'acme');
  t.equal(mcpDatasetOf('/mcp/acme/'), 'acme', 'a trailing slash');
  t.equal(mcpDatasetOf('/MCP/acme'), 'acme', '`mcp` in any case');
  t.equal(mcpDatasetOf('/mcp/acme?x=1&y=/2'), 'acme', 'the query string aside');
  t.equal(mcpDatasetOf('/mcp/d%20s'), 'd s', 'percent-decoded');
  t.equal(mcpDatasetOf('/mcp/%E0%A4%A'), '%E0%A4%A', 'kept as sent when it does not decode');
  for (const other of [
    undefined,
    '',
    '/',
    '/mcp',
    '/mcp/',
    '/mcp//',
    '/mcp/a/b',
    '//mcp/acme',
    '/mcpx/acme',
    '/client/acme/mcp/x',
    'http://h/mcp/acme',
    '/.well-known/oauth-protected-resource/mcp/acme',
  ]) {
    t.equal(mcpDatasetOf(other), undefined, `${other}: not the endpoint`);
  }
});

t.test("the endpoint answers its paths; other paths under /mcp are the app's 404", async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const post = (path: string) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  for (const path of [
    `/mcp/${company.dataset}`,
    `/mcp/${company.dataset}/`,
    `/MCP/${company.dataset}`,
    `/mcp/${company.dataset}?x=1`,
  ]) {
    const res = await post(path);
    t.equal(res.status, 401, `${path}: the endpoint's challenge`);
    t.match(
      res.headers.get('www-authenticate') ?? '',
      /^Bearer .*resource_metadata=/,
      `${path}: with the resource metadata`,
    );
    t.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, `${path}: with a request id`);
    await res.text();
  }
  for (const path of ['/mcp', '/mcp/', '/mcp/a/b']) {
    const res = await post(path);
    t.equal(res.status, 404, `${path}: 404`);
    t.match(await res.json(), { error: { code: 'not_found' } }, `${path}: the API error body`);
  }
  const healthz = await fetch(`${stack.url}/healthz`);
  t.same(await healthz.json(), { status: 'ok' }, 'other paths: the Koa app');
});
