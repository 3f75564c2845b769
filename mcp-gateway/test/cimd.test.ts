/**
 * Client ID Metadata Documents served over real https (a throw-away CA made with openssl),
 * and the SSRF protections of the fetch.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createTestCa, type TestCa } from '../../e2e/test/support/tls.ts';
import { authorize, authorizePath, Browser, pkce, postForm, REDIRECT, startStack, type Stack } from './helpers.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, url: string) => void;

async function startDocServer(ca: TestCa) {
  const routes = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const server: Server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) return void res.writeHead(404).end();
    handler(req, res, `https://localhost:${port}${path}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    url: (path: string) => `https://localhost:${port}${path}`,
    route(path: string, handler: Handler) {
      routes.set(path, handler);
      return `https://localhost:${port}${path}`;
    },
    /** a JSON document; `build` gets the client_id */
    doc(
      path: string,
      build: (id: string) => unknown,
      headers: Record<string, string> = { 'cache-control': 'max-age=300' },
    ) {
      return this.route(path, (_req, res, id) =>
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(build(id))),
      );
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type Asserts = Pick<typeof t, 'equal' | 'match'>;

async function expectRefused(
  t: Asserts,
  stack: Stack,
  browser: Browser,
  clientId: string,
  reason: RegExp,
  label: string,
) {
  const resource = `${stack.url}/mcp/nope`;
  const page = await browser.get(
    authorizePath({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource,
    }),
  );
  t.equal(page.status, 400, `${label}: error page`);
  t.equal(page.location, null, `${label}: no redirect`);
  t.match(page.html, reason, label);
}

t.test('Client ID Metadata Documents', async (t) => {
  const ca = createTestCa();
  const docs = await startDocServer(ca);
  t.teardown(() => docs.close());
  const stack = await startStack(t, { GATEWAY_TEST_CIMD_ALLOW_PRIVATE: '1', GATEWAY_TEST_CIMD_CA: ca.caFile });
  const a = await stack.company();
  const resource = `${stack.url}/mcp/${a.dataset}`;
  const browser = new Browser(stack.url);
  await browser.signIn(a);
  const valid = (id: string) => ({ client_id: id, client_name: 'Doc Assistant', redirect_uris: [REDIRECT] });

  t.test('a valid document: verified domain, the whole flow, cached', async (t) => {
    const clientId = docs.doc('/clients/ok.json', valid);
    const { challenge, verifier } = pkce();
    const { code, consent } = await authorize(stack, browser, a, {
      client_id: clientId,
      resource,
      code_challenge: challenge,
    });
    t.match(consent.html, /Verified domain: <strong>localhost<\/strong>/);
    t.match(consent.html, /Doc Assistant/);
    t.notMatch(consent.html, /Unverified app/);
    const token = await postForm(`${stack.url}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource,
    });
    t.equal(token.status, 200, 'tokens for the metadata-document client');
    const again = await browser.get(
      authorizePath({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
      }),
    );
    t.equal(again.status, 200);
    t.equal(docs.hits.get('/clients/ok.json'), 1, 'cached (Cache-Control max-age)');

    const noStore = docs.doc('/clients/nostore.json', valid, { 'cache-control': 'no-store' });
    for (let i = 0; i < 2; i++) {
      await browser.get(
        authorizePath({
          client_id: noStore,
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource,
        }),
      );
    }
    t.equal(docs.hits.get('/clients/nostore.json'), 2, 'no-store: fetched each time');

    const moved = docs.route('/clients/moved.json', (_req, res) =>
      res.writeHead(302, { location: '/clients/ok-target.json' }).end(),
    );
    docs.doc('/clients/ok-target.json', () => valid(moved));
    const viaRedirect = await browser.get(
      authorizePath({
        client_id: moved,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
      }),
    );
    t.equal(viaRedirect.status, 200, 'a redirect on the same host is followed');

    const wrongRedirect = await browser.get(
      authorizePath({
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:7777/other',
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
      }),
    );
    t.equal(wrongRedirect.status, 400, 'a redirect URI not in the document: error page');
  });

  t.test('a document is cached for 12 hours at most, whatever its max-age', async (t) => {
    const clientId = docs.doc('/clients/week.json', valid, { 'cache-control': 'public, max-age=604800' });
    const visit = () =>
      browser.get(
        authorizePath({
          client_id: clientId,
          redirect_uri: REDIRECT,
          response_type: 'code',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource,
        }),
      );
    let moved = 0;
    const advance = (ms: number) => {
      stack.advance(ms);
      moved += ms;
    };
    t.teardown(() => stack.advance(-moved));
    t.equal((await visit()).status, 200);
    t.equal(docs.hits.get('/clients/week.json'), 1, 'fetched once');
    advance(12 * 3600_000 - 60_000);
    t.equal((await visit()).status, 200);
    t.equal(docs.hits.get('/clients/week.json'), 1, 'a minute before 12 hours: from the cache');
    advance(2 * 60_000);
    await visit();
    t.equal(docs.hits.get('/clients/week.json'), 2, 'after 12 hours: fetched again, although max-age is a week');
  });

  t.test('refused documents', async (t) => {
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/mismatch.json', () => valid('https://other.example.com/c.json')),
      /client_id does not equal its URL/,
      'client_id mismatch',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/many.json', (id) => ({
        ...valid(id),
        redirect_uris: Array.from({ length: 21 }, (_, i) => `https://app.example.com/cb${i}`),
      })),
      /more than 20 redirect_uris/,
      '21 redirect URIs',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/big.json', (id) => ({ ...valid(id), padding: 'x'.repeat(70_000) })),
      /larger than 65536 bytes/,
      'oversized',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.route('/c/chunked.json', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 20; i++) res.write('x'.repeat(8192));
        res.end();
      }),
      /larger than 65536 bytes/,
      'oversized without Content-Length',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.route('/c/away.json', (_req, res) =>
        res.writeHead(302, { location: `https://127.0.0.1:${docs.port}/c/ok.json` }).end(),
      ),
      /redirects to another host/,
      'redirect to another host',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.route('/c/loop.json', (_req, res) => res.writeHead(302, { location: '/c/loop.json' }).end()),
      /redirects too often/,
      'redirect loop',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.route('/c/html.json', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>')),
      /not JSON/,
      'not JSON',
    );
    await expectRefused(t, stack, browser, docs.url('/c/missing.json'), /HTTP 404/, 'not found');
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/noname.json', (id) => ({ client_id: id, redirect_uris: [REDIRECT] })),
      /client_name/,
      'no client_name',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/baduri.json', (id) => ({ ...valid(id), redirect_uris: ['http://evil.example.com/cb'] })),
      /http is only allowed/,
      'a forbidden redirect URI',
    );
    await expectRefused(
      t,
      stack,
      browser,
      docs.doc('/c/secret.json', (id) => ({ ...valid(id), token_endpoint_auth_method: 'private_key_jwt' })),
      /only public clients/,
      'not a public client',
    );
    await expectRefused(t, stack, browser, `https://localhost:${docs.port}/`, /must contain a path/, 'no path');
    await expectRefused(
      t,
      stack,
      browser,
      `https://localhost:${docs.port}/a/../c/ok.json`,
      /path segments/,
      'dot segments',
    );
    await expectRefused(
      t,
      stack,
      browser,
      `https://u:p@localhost:${docs.port}/c.json`,
      /credentials/,
      'credentials in the URL',
    );
    await expectRefused(
      t,
      stack,
      browser,
      `http://localhost:${docs.port}/clients/ok.json`,
      /unknown client_id/,
      'http URL',
    );
  });

  t.test('a slow or broken document server is a client-identification failure (400 page), never a 500', async (t) => {
    // the same stack with a short time limit, so the test waits well under a second per case
    const quick = await startStack(
      t,
      { GATEWAY_TEST_CIMD_ALLOW_PRIVATE: '1', GATEWAY_TEST_CIMD_CA: ca.caFile },
      { cimdTimeoutMs: 300 },
    );
    const b = await quick.company();
    const qb = new Browser(quick.url);
    await qb.signIn(b);
    const stalled: ServerResponse[] = [];
    t.teardown(() => {
      for (const res of stalled) res.destroy();
    });

    const beforeHeaders = docs.route('/c/hang.json', (_req, res) => void stalled.push(res));
    await expectRefused(t, quick, qb, beforeHeaders, /could not be fetched/, 'no answer at all');

    const stalledBody = docs.route('/c/stalled-body.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"client_id":');
      stalled.push(res);
    });
    await expectRefused(t, quick, qb, stalledBody, /could not be fetched/, 'headers, then the body stalls');

    const stalledChunked = docs.route('/c/stalled-chunked.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"client_id":');
      stalled.push(res);
    });
    await expectRefused(t, quick, qb, stalledChunked, /could not be fetched/, 'chunked body stalls');

    const cut = docs.route('/c/cut.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
      res.write('{"client_id":', () => res.destroy());
    });
    await expectRefused(t, quick, qb, cut, /could not be fetched/, 'the connection drops during the body');
  });

  t.test('SSRF: private, loopback and link-local addresses are refused without the test setting', async (t) => {
    const strict = await startStack(t, { GATEWAY_TEST_CIMD_CA: ca.caFile });
    const b = await strict.company();
    const sb = new Browser(strict.url);
    await sb.signIn(b);
    const before = docs.hits.get('/clients/ok.json');
    await expectRefused(
      t,
      strict,
      sb,
      docs.url('/clients/ok.json'),
      /resolves to an address that may not be fetched/,
      'localhost (resolves to loopback)',
    );
    // the refusal says that the address may not be fetched, not which internal address it was
    const unnamed = /resolves to an address that may not be fetched(?! \()/;
    await expectRefused(t, strict, sb, docs.url('/clients/ok.json'), unnamed, 'the address is not named');
    t.equal(docs.hits.get('/clients/ok.json'), before, 'no request reached the server');
    await expectRefused(
      t,
      strict,
      sb,
      `https://127.0.0.1:${docs.port}/clients/ok.json`,
      /not a public address/,
      'loopback literal',
    );
    await expectRefused(
      t,
      strict,
      sb,
      `https://[::1]:${docs.port}/clients/ok.json`,
      /not a public address/,
      'IPv6 loopback',
    );
    await expectRefused(
      t,
      strict,
      sb,
      'https://[::ffff:7f00:1]/c.json',
      /not a public address/,
      'IPv4-mapped loopback',
    );
    await expectRefused(
      t,
      strict,
      sb,
      'https://169.254.169.254/latest/meta-data',
      /not a public address/,
      'link-local (cloud metadata)',
    );
    await expectRefused(t, strict, sb, 'https://10.1.2.3/c.json', /not a public address/, 'private 10/8');
    await expectRefused(t, strict, sb, 'https://192.168.1.1/c.json', /not a public address/, 'private 192.168/16');
    await expectRefused(t, strict, sb, 'https://100.64.0.1/c.json', /not a public address/, 'carrier-grade NAT');
    await expectRefused(t, strict, sb, 'https://[fd00::1]/c.json', /not a public address/, 'IPv6 unique local');
    await expectRefused(t, strict, sb, 'https://0.0.0.0/c.json', /not a public address/, 'unspecified');
    // the special-purpose ranges of the guard shared with the ledger's webhook targets
    await expectRefused(t, strict, sb, 'https://198.18.0.1/c.json', /not a public address/, 'benchmarking 198.18/15');
    await expectRefused(t, strict, sb, 'https://[64:ff9b::a00:1]/c.json', /not a public address/, 'NAT64 64:ff9b::/96');
    await expectRefused(t, strict, sb, 'https://[64:ff9b:1::1]/c.json', /not a public address/, 'local NAT64');
    await expectRefused(t, strict, sb, 'https://192.0.0.8/c.json', /not a public address/, 'IETF assignments');
  });
});
