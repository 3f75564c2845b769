/**
 * A ledger response read whole by the gateway's own undici handler (src/wholeResponse.ts) is
 * what undici's `request()` gave: the same status, the same parsed headers, the same text
 * (`body.text()`: UTF-8, a byte order mark skipped) and bytes (`body.arrayBuffer()`), and the
 * same failures — one before the response started mapped as the caller says, one while the
 * body arrives as it is.
 */
import { createServer, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import t, { type Test } from 'tap';
import { Agent, request } from 'undici';
import { bodyBytes, bodyText, headersOf, requestWhole, type WholeResponse } from '../src/wholeResponse.ts';

/** Each answer by path: written in several chunks, with repeated and odd headers. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/json': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-connection-checked': 'allowed' });
    res.end('{"vendors":[{"name":"Papeterie"}]}');
  },
  '/chunks': (res) => {
    res.writeHead(201, [
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Empty', ''],
      ['X-Three', 'a'],
      ['x-three', ''],
      ['X-THREE', 'c\u00e9'],
    ]);
    // a BOM, then a multi-byte character split across two writes
    const text = Buffer.from('\uFEFFcafé – fin', 'utf8');
    res.write(text.subarray(0, 6));
    setTimeout(() => res.end(text.subarray(6)), 5);
  },
  '/bom-only-start': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(Buffer.from([0xef, 0xbb]));
  },
  '/file': (res) => {
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-length': '6',
      'content-disposition': 'attachment; filename="report.pdf"',
    });
    res.end(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]));
  },
  '/empty': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/informational': (res) => {
    res.writeProcessing();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  },
  '/broken': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":');
    setTimeout(() => res.destroy(), 5);
  },
};

/** A server giving ANSWERS and an undici dispatcher, both closed when the test ends. */
async function serveAnswers(t: Test): Promise<{ origin: string; dispatcher: Agent }> {
  const server = createServer((req, res) => ANSWERS[req.url ?? '']!(res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  return { origin, dispatcher };
}

t.test('the same status, headers, text and bytes as request()', async (t) => {
  const { origin, dispatcher } = await serveAnswers(t);

  for (const path of ['/json', '/chunks', '/bom-only-start', '/file', '/empty', '/informational']) {
    const before = await dispatcher.request({ origin, path, method: 'GET' });
    const text = await before.body.text();
    const bytes = Buffer.from(await (await dispatcher.request({ origin, path, method: 'GET' })).body.arrayBuffer());
    const whole = await requestWhole(
      dispatcher,
      { origin, path, method: 'GET' },
      (r: WholeResponse) => r,
      (err: Error) => err,
    );
    t.equal(whole.statusCode, before.statusCode, `${path}: status`);
    const names = Object.keys(before.headers).filter((name) => name !== 'date');
    t.ok(names.includes('content-type') || path === '/empty', `${path}: headers to compare`);
    t.same(
      headersOf(whole, [...names, 'x-absent']),
      [...names.map((name) => before.headers[name]), undefined],
      `${path}: headers`,
    );
    t.equal(bodyText(whole), text, `${path}: text`);
    t.same(bodyBytes(whole), bytes, `${path}: bytes`);
  }
});

t.test('the bytes are in memory of their own, not a view of the chunks', async (t) => {
  const chunk = Buffer.from('abc');
  const bytes = bodyBytes({ statusCode: 200, rawHeaders: [], chunks: [chunk], length: 3 });
  chunk[0] = 0x7a;
  t.equal(bytes.toString(), 'abc');
  t.equal(bytes.buffer.byteLength, 3, 'memory of their own, not a slice of a pool');
  const two = bodyBytes({ statusCode: 200, rawHeaders: [], chunks: [Buffer.from('ab'), Buffer.from('cd')], length: 4 });
  t.equal(two.toString(), 'abcd');
  t.equal(two.buffer.byteLength, 4);
});

t.test('failures: before the response mapped, during the body as they are, a throwing read rejects', async (t) => {
  const { origin, dispatcher } = await serveAnswers(t);
  const unreachable = (err: Error) => new Error(`unreachable: ${err.message}`);

  await t.rejects(
    requestWhole(dispatcher, { origin: 'http://127.0.0.1:1', path: '/json', method: 'GET' }, bodyText, unreachable),
    { message: /^unreachable: .*ECONNREFUSED/ },
    'no connection: mapped',
  );
  await t.rejects(
    requestWhole(dispatcher, { origin, path: 'no-slash', method: 'GET' }, bodyText, unreachable),
    { message: /^unreachable: / },
    'a request undici refuses: mapped',
  );
  const before = await request(`${origin}/broken`, { dispatcher });
  const beforeErr = await before.body.text().then(
    () => undefined,
    (err: Error) => err,
  );
  const err = await requestWhole(dispatcher, { origin, path: '/broken', method: 'GET' }, bodyText, unreachable).then(
    () => undefined,
    (e: Error) => e,
  );
  t.ok(beforeErr, 'request(): the body read fails');
  t.equal(err?.constructor, beforeErr?.constructor, 'the same error class, not mapped');
  t.equal(err?.message, beforeErr?.message);
  await t.rejects(
    requestWhole(
      dispatcher,
      { origin, path: '/json', method: 'GET' },
      () => {
        throw new Error('read failed');
      },
      unreachable,
    ),
    { message: 'read failed' },
  );
});
