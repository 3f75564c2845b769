/**
 * A browser-based MCP client (like the MCP Inspector in a browser) on another origin calls
 * the MCP endpoint from a page in a real headless Chromium: the CORS preflight is answered,
 * a request with a valid Bearer token is accepted whatever its Origin, and the page can
 * read the answer and the challenge headers. Without a token a foreign Origin stays refused.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Browser as Chromium } from 'playwright-core';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { connect, startStack } from './helpers.ts';

t.test('a browser client on another origin calls the MCP endpoint with its token', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const { tokens, resource } = await connect(stack, a);

  // the client's page, on its own origin (another loopback port)
  const site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Browser MCP client</title>'),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        site.closeAllConnections();
        site.close(() => r());
      }),
  );
  const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t.not(siteOrigin, new URL(stack.url).origin, 'two origins');

  const browser: Chromium = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(siteOrigin);

  const call = (token: string | null) =>
    page.evaluate(
      async ({ url, token }) => {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'Mcp-Protocol-Version': '2025-11-25',
              ...(token ? { Authorization: `Bearer ${token}` } : {}),
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          });
          return { status: res.status, challenge: res.headers.get('WWW-Authenticate'), body: await res.text() };
        } catch (err) {
          return { status: 0, challenge: null, body: String(err) };
        }
      },
      { url: resource, token },
    );

  const ok = await call(tokens.access_token);
  t.equal(ok.status, 200, ok.body.slice(0, 300));
  t.match(ok.body, /"tools":\[/, 'the page reads the tool list');

  const invalid = await call('not-a-valid-token');
  t.equal(invalid.status, 401, 'an invalid token is refused as from anywhere');
  t.match(invalid.challenge, /^Bearer .*resource_metadata=/, 'and the page can read the challenge (exposed header)');

  const none = await call(null);
  t.equal(none.status, 403, 'no token from a foreign origin: the DNS-rebinding protection holds');
  t.match(none.body, /is not allowed without an access token/);

  // the preflight itself, as a browser sends it
  const preflight = await fetch(resource, {
    method: 'OPTIONS',
    headers: {
      Origin: siteOrigin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type, mcp-protocol-version',
    },
  });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers.get('access-control-allow-origin'), siteOrigin);
  for (const header of ['Authorization', 'Content-Type', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name']) {
    t.match(preflight.headers.get('access-control-allow-headers'), header, `allows ${header}`);
  }
  t.match(preflight.headers.get('access-control-expose-headers'), /WWW-Authenticate.*Mcp-Session-Id/);
});
