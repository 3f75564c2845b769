import t from 'tap';
import { parseRaw, rawExchange } from '../../ledger-service/test/rawHttp.ts';
import { startStack } from './helpers.ts';

t.test('the public origin answers requests Node\'s parser refuses with the JSON error body', async (t) => {
  const stack = await startStack(t);
  const cases = [
    { name: 'headers over 16 KiB', bytes: `GET /client/x/arap/vendor HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`, status: 431, code: 'request_header_fields_too_large' },
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
