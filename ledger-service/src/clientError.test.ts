import t from 'tap';
import { startTestLedger } from '../test/helpers.ts';
import { parseRaw, rawExchange } from '../test/rawHttp.ts';

t.test("requests Node's parser refuses get the JSON error body and a closed connection", async (t) => {
  const ledger = await startTestLedger(t);
  const cases = [
    {
      name: 'headers over 16 KiB',
      bytes: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      status: 431,
      code: 'request_header_fields_too_large',
    },
    { name: 'a garbage request line', bytes: 'THIS IS NOT HTTP\r\n\r\n', status: 400, code: 'invalid_request' },
    {
      name: 'a header without a colon',
      bytes: 'GET /healthz HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n',
      status: 400,
      code: 'invalid_request',
    },
  ];
  for (const c of cases) {
    const res = parseRaw(await rawExchange(ledger.url, c.bytes));
    t.equal(res.status, c.status, `${c.name}: ${c.status}`);
    t.match(res.headers['content-type'], /^application\/json/, `${c.name}: JSON`);
    t.equal(res.headers.connection, 'close', `${c.name}: the connection is closed`);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    t.equal(body.error.code, c.code, `${c.name}: code`);
    t.type(body.error.message, 'string');
  }
  const ok = await fetch(`${ledger.url}/healthz`);
  t.equal(ok.status, 200, 'the server still serves');
});
