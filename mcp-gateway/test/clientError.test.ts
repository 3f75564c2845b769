import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { parseRaw, rawExchange } from '../../ledger-service/test/rawHttp.ts';
import { startStack } from './helpers.ts';

/**
 * Writes the chunks on a new connection with a pause between them (so the server reads them apart); everything the
 * server sends until it closes.
 */
function rawExchangeInChunks(url: string, chunks: string[], pauseMs = 50): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, async () => {
      socket.setNoDelay(true);
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await sleep(pauseMs);
        if (!socket.writable) return;
        socket.write(chunk);
      }
    });
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err),
    );
    socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
  });
}

t.test("the public origin answers requests Node's parser refuses with the JSON error body", async (t) => {
  const stack = await startStack(t);
  const cases = [
    {
      name: 'headers over 16 KiB',
      bytes:
        `GET /client/x/arap/vendor HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nX-Big: ` +
        `${'a'.repeat(20 * 1024)}\r\n\r\n`,
      status: 431,
      code: 'request_header_fields_too_large',
    },
    {
      name: "headers over what Node's parser takes",
      bytes: `GET /client/x/arap/vendor HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`,
      status: 431,
      code: 'request_header_fields_too_large',
    },
    { name: 'a garbage request line', bytes: 'THIS IS NOT HTTP\r\n\r\n', status: 400, code: 'invalid_request' },
  ];
  for (const c of cases) {
    const res = parseRaw(await rawExchange(stack.url, c.bytes));
    t.equal(res.status, c.status, `${c.name}: ${c.status}`);
    t.match(res.headers['content-type'], /^application\/json/, `${c.name}: JSON`);
    t.equal(res.headers.connection, 'close', `${c.name}: the connection is closed`);
    t.equal((JSON.parse(res.body) as { error: { code: string } }).error.code, c.code, `${c.name}: code`);
  }
  const ok = await fetch(`${stack.url}/healthz`);
  t.equal(ok.status, 200, 'the server still serves');
});

t.test('the limit is 16 KiB of target, header names and values, as Node counts them', async (t) => {
  const stack = await startStack(t);
  // '/healthz' + 'Host' + 'x' + 'X-Pad' + 'Connection' + 'close' = 33 bytes besides the padding
  const request = (pad: number) =>
    `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(pad)}\r\nConnection: close\r\n\r\n`;
  t.equal(
    parseRaw(await rawExchange(stack.url, request(16 * 1024 - 1 - 33))).status,
    200,
    'one byte under 16 KiB: served',
  );
  t.equal(parseRaw(await rawExchange(stack.url, request(16 * 1024 - 33))).status, 431, '16 KiB: refused');
});

t.test("the OAuth endpoints answer such refusals in RFC 6749's shape", async (t) => {
  const stack = await startStack(t);
  const big = (kib: number) => `X-Big: ${'a'.repeat(kib * 1024)}\r\n`;
  const cases = [
    {
      name: 'token, headers over 16 KiB',
      chunks: [`POST /oauth/token HTTP/1.1\r\nHost: x\r\n${big(20)}\r\n`],
      status: 431,
    },
    {
      name: 'register, headers over 16 KiB',
      chunks: [`POST /oauth/register HTTP/1.1\r\nHost: x\r\n${big(20)}\r\n`],
      status: 431,
    },
    {
      name: 'revoke, headers over 16 KiB',
      chunks: [`POST /oauth/revoke?x=1 HTTP/1.1\r\nHost: x\r\n${big(20)}\r\n`],
      status: 431,
    },
    {
      name: 'token, the headers arriving in several reads',
      chunks: [
        'POST /oauth/token HTTP/1.1\r\nHost: x\r\n',
        ...Array.from({ length: 5 }, (_, i) => `X-Part-${i}: ${'a'.repeat(5000)}\r\n`),
        '\r\n',
      ],
      status: 431,
    },
    {
      name: "token, headers over what Node's parser takes",
      chunks: [`POST /oauth/token HTTP/1.1\r\nHost: x\r\n${big(100)}\r\n`],
      status: 431,
    },
    {
      name: 'register, a header without a colon',
      chunks: ['POST /oauth/register HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
      status: 400,
    },
  ];
  for (const c of cases) {
    const res = parseRaw(await rawExchangeInChunks(stack.url, c.chunks));
    t.equal(res.status, c.status, `${c.name}: ${c.status}`);
    t.match(res.headers['content-type'], /^application\/json/, `${c.name}: JSON`);
    t.equal(res.headers['cache-control'], 'no-store', `${c.name}: not cached`);
    t.equal(res.headers.connection, 'close', `${c.name}: the connection is closed`);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    t.same(Object.keys(body).sort(), ['error', 'error_description'], `${c.name}: {error, error_description}`);
    t.equal(body.error, 'invalid_request', `${c.name}: invalid_request`);
    t.type(body.error_description, 'string');
  }
  const other = parseRaw(
    await rawExchangeInChunks(stack.url, ['GET /client/x/arap/vendor HTTP/1.1\r\nHost: x\r\n', `${big(20)}\r\n`]),
  );
  t.match(
    JSON.parse(other.body),
    { error: { code: 'request_header_fields_too_large' } },
    'an API path in several reads: the API error body',
  );
});
