/**
 * The ledger client hands a plain path to undici's dispatcher without parsing a URL
 * (src/ledgerTarget.ts): the target must be exactly what undici's `request(url)` makes of
 * `${baseUrl}${path}` — dot segments resolved, characters encoded — for every path, plain or
 * not; and the ledger must receive the request it received before.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import t from 'tap';
import { LedgerClient } from '../src/ledgerClient.ts';
import { bareOrigin, isPlainPath, ledgerTarget } from '../src/ledgerTarget.ts';
import { loadKeys } from '../src/keys.ts';
import type { GatewayConfig } from '../src/config.ts';

/** What undici's `request(url)` sends for a URL string (its makeDispatcher: parseURL, then origin and path). */
function parsedTarget(url: string) {
  const u = new URL(url);
  return { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
}

const PATHS = [
  '/client/acme/arap/vendor?name=Papeterie',
  '/client/acme/arap/vendor?name=Pap%C3%A9terie&limit=20',
  '/client/acme/gl/account/1000',
  '/client/acme/arap/vendor/..',
  '/client/acme/arap/vendor/../../system/api_keys',
  '/client/acme/arap/vendor/%2e%2e/system',
  '/client/acme/arap/%2E%2E/system',
  '/client/acme/./arap',
  '/client/acme/arap/.hidden',
  '/client/acme/arap/vendor?name=a b',
  "/client/acme/arap/vendor?name=o'brien",
  '/client/acme/arap/vendor?name=x#frag',
  '/client/acme/arap/vendor?',
  '/client/acme/arap/vendor??x',
  '/client/acme\\arap',
  '/client/acme/arap/vendor?name=é',
  '/client/acme/arap/vendor?q=<a>&r="b"',
  '/client/acme//arap',
  '/client/acme/arap/vendor?x=%zz',
  '/client/acme/arap/vendor?path=/../x',
  '/internal/companies/acme/members/7',
];

t.test('a target is what parsing the URL gives, for plain paths and every other', async (t) => {
  for (const base of ['http://127.0.0.1:3001', 'http://ledger.internal:80', 'https://ledger.example']) {
    const origin = bareOrigin(base);
    for (const path of PATHS) {
      t.same(ledgerTarget(base, origin, path), parsedTarget(`${base}${path}`), `${base}${path}`);
    }
  }
  // a base URL with a path (or a trailing slash) is no bare origin: every call is parsed as before
  t.equal(bareOrigin('http://127.0.0.1:3001/'), undefined);
  t.equal(bareOrigin('http://127.0.0.1:3001/ledger'), undefined);
  t.equal(bareOrigin('http://127.0.0.1:3001'), 'http://127.0.0.1:3001');
  for (const base of ['http://127.0.0.1:3001/ledger', 'http://127.0.0.1:3001/']) {
    for (const path of PATHS) {
      t.same(ledgerTarget(base, bareOrigin(base), path), parsedTarget(`${base}${path}`), `${base}${path}`);
    }
  }
});

t.test('only paths the parser leaves alone skip it', async (t) => {
  t.ok(isPlainPath('/client/acme/arap/vendor?name=Papeterie'));
  t.ok(isPlainPath('/client/acme/gl/account/1000'));
  for (const path of [
    '/client/acme/arap/vendor/..',
    '/client/acme/arap/%2e%2e/x',
    '/client/acme/./x',
    '/client/acme/x?',
    "/client/acme/x?n=o'b",
    '/client/acme/x?n=a b',
    '/client/acme\\x',
    '/client/acme/x#f',
    'client/acme',
  ]) {
    t.notOk(isPlainPath(path), path);
  }
});

t.test('the ledger receives the same request line, headers and body', async (t) => {
  const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'x-connection-checked': 'allowed' });
      res.end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const { port } = server.address() as { port: number };
  const keys = await loadKeys({ dataDir: t.testdir() } as GatewayConfig);
  const client = new LedgerClient(`http://127.0.0.1:${port}`, keys);
  t.teardown(() => client.close());
  const subject = { id: 'c1', userId: 7, dataset: 'acme', scopes: ['ledger:read'], clientName: 'test' };
  const plain = await client.callAs(subject, 'GET', '/client/acme/arap/vendor?name=Papeterie');
  t.same(plain, { status: 200, body: { ok: true }, connectionChecked: true });
  await client.callAs(subject, 'POST', '/client/acme/arap/vendor/%2e%2e/x', { a: 1 });
  t.equal(seen.length, 2);
  t.equal(seen[0]!.url, '/client/acme/arap/vendor?name=Papeterie', 'a plain path as written');
  t.equal(seen[0]!.method, 'GET');
  t.match(seen[0]!.auth, /^Bearer ey/);
  t.equal(seen[1]!.url, '/client/acme/arap/x', 'a dot segment resolved as the URL parser does');
  t.equal(seen[1]!.type, 'application/json');
  t.equal(seen[1]!.body, '{"a":1}');
  // a client pointed elsewhere while running calls there (the origin is read again)
  Object.assign(client, { baseUrl: 'http://127.0.0.1:1' });
  await t.rejects(client.callAs(subject, 'GET', '/client/acme/arap/vendor'), { message: /ledger unreachable/ });
  t.equal(seen.length, 2);
});
