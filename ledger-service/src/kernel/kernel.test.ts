/**
 * The ledger's HTTP kernel: authentication before the body, accepted content types and
 * encodings, 405s, malformed input that must stay a 4xx, large data URIs.
 */
import { request, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { arapSetup } from '../../test/arapHelpers.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../test/helpers.ts';
import { PostgresProxy } from '../../test/postgresProxy.ts';

/** Raw HTTP: any method, headers and body bytes, with the body parsed as JSON when it is. */
async function raw(url: string, method: string, headers: Record<string, string>, body?: Buffer | string) {
  const res = await fetch(url, {
    method,
    headers,
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

t.test('authentication comes before any byte of the body is read', async (t) => {
  const ledger = await startTestLedger(t, { jsonLimit: 2048 });
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const url = `${ledger.url}/client/${a.dataset}/arap/vendor`;

  const malformed = await apiClient(ledger.url, a.dataset, undefined)('POST', '/arap/vendor', '{"name":');
  t.equal(malformed.status, 401, 'malformed JSON without a key is a 401, not a 400');
  t.equal(malformed.body.error.code, 'unauthorized');

  const foreign = await apiClient(ledger.url, a.dataset, b.apiKey)('POST', '/arap/vendor', '{"name":');
  t.equal(foreign.status, 403, 'a key of another dataset is refused before the body is parsed');
  t.equal(foreign.body.error.code, 'forbidden');

  const tooLarge = await apiClient(ledger.url, a.dataset, undefined)('POST', '/arap/vendor', {
    name: 'x'.repeat(10_000),
  });
  t.equal(tooLarge.status, 401, 'a body over the limit without a key is a 401, not a 413');

  // the 401 arrives while the client is still sending: the ledger did not wait for the body
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    req.on('error', () => undefined); // the socket may be cut once we give up sending
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
      res.on('error', reject);
    });
    req.write(`{"name":"${'x'.repeat(64 * 1024)}`); // never finished
  });
  t.equal(answer.status, 401);
  t.equal(JSON.parse(answer.body).error.code, 'unauthorized');
  t.equal((await ledger.db('parties').where({ company_id: a.company.id })).length, 0, 'nothing was written');
});

t.test('an API key sent as a bearer token is refused with a hint to X-API-Key', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const res = await apiClient(ledger.url, a.dataset, undefined)('POST', '/auth/validate_api', undefined, {
    Authorization: `Bearer ${a.apiKey}`,
  });
  t.equal(res.status, 401);
  t.equal(res.body.error.code, 'unauthorized');
  t.match(res.body.error.message, /X-API-Key/);
});

t.test('405 is the JSON error body with Allow; bodies other than JSON or multipart are 415', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const base = `${ledger.url}/client/${a.dataset}`;
  const key = { 'X-API-Key': a.apiKey };

  const patch = await raw(
    `${base}/arap/vendor`,
    'PATCH',
    { ...key, 'Content-Type': 'application/json' },
    '{"name":"x"}',
  );
  t.equal(patch.status, 405);
  t.match(patch.headers.get('content-type'), /application\/json/);
  t.equal(patch.json?.error.code, 'method_not_allowed');
  t.match(patch.headers.get('allow'), /GET/);
  t.match(patch.headers.get('allow'), /POST/);
  t.match(patch.json?.error.message, /GET/);

  const del = await raw(`${base}/auth/validate_api`, 'DELETE', key);
  t.equal(del.status, 405);
  t.equal(del.json?.error.code, 'method_not_allowed');
  t.equal(del.headers.get('allow'), 'POST');

  const unknownMethod = await raw(`${base}/arap/vendor`, 'PROPFIND', key);
  t.equal(unknownMethod.status, 405, 'a method no route implements is a 405 too, never a 501');
  t.equal(unknownMethod.json?.error.code, 'method_not_allowed');

  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
    const res = await raw(`${base}/arap/vendor`, 'POST', { ...key, 'Content-Type': type }, 'name=Acme');
    t.equal(res.status, 415, type);
    t.equal(res.json?.error.code, 'unsupported_media_type');
    t.match(res.json?.error.message, /application\/json/);
    t.match(res.json?.error.message, /multipart\/form-data/);
  }
  const untyped = await raw(`${base}/arap/vendor`, 'POST', key, Buffer.from('{"name":"Acme"}'));
  t.equal(untyped.status, 415, 'a body without Content-Type');
  const charset = await raw(
    `${base}/arap/vendor`,
    'POST',
    { ...key, 'Content-Type': 'application/json; charset=utf-8' },
    '{"name":"Acme"}',
  );
  t.equal(charset.status, 201, 'application/json with a charset is JSON');
  t.equal((await ledger.db('parties').where({ company_id: a.company.id })).length, 1, 'only the JSON request wrote');
});

t.test('routes are found by their first segment as one router found them: case, HEAD, OPTIONS, 405, 404', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const base = `${ledger.url}/client/${a.dataset}`;
  const key = { 'X-API-Key': a.apiKey };

  t.equal(
    (await raw(`${base}/ARAP/Vendor/`, 'GET', key)).status,
    200,
    'paths match regardless of case and a final slash',
  );
  const head = await raw(`${base}/arap/vendor`, 'HEAD', key);
  t.equal(head.status, 200, 'a GET route takes HEAD');
  const options = await raw(`${base}/arap/vendor`, 'OPTIONS', key);
  t.equal(options.status, 200);
  t.equal(options.headers.get('allow'), 'POST, HEAD, GET', 'OPTIONS names every method of the path');
  const put = await raw(`${base}/arap/vendor`, 'PUT', { ...key, 'Content-Type': 'application/json' }, '{}');
  t.equal(put.status, 405);
  t.equal(put.headers.get('allow'), 'POST, HEAD, GET');
  for (const path of ['/nosuch', '/', '', '/arap//vendor']) {
    const res = await raw(`${base}${path}`, 'GET', key);
    t.equal(res.status, 404, `GET ${path}`);
    t.equal(res.json?.error.code, 'not_found');
  }
  t.equal((await raw(`${base}/nosuch`, 'PROPFIND', key)).status, 404, 'an unknown method on an unknown path');

  // the client routes are reached only through /client/ (authenticated); another case of the prefix is no route
  for (const prefix of ['CLIENT', 'Client']) {
    const res = await raw(`${ledger.url}/${prefix}/${a.dataset}/arap/vendor`, 'GET', key);
    t.equal(res.status, 404, `/${prefix}/`);
    t.equal(res.json?.error.code, 'not_found');
  }

  // meta and internal routes answer 405 and OPTIONS as the client routes do
  const postHealth = await raw(`${ledger.url}/healthz`, 'POST', {});
  t.equal(postHealth.status, 405);
  t.equal(postHealth.headers.get('allow'), 'HEAD, GET');
  t.equal((await raw(`${ledger.url}/healthz`, 'OPTIONS', {})).headers.get('allow'), 'HEAD, GET');
  t.equal((await raw(`${ledger.url}/nothing`, 'GET', {})).status, 404);
});

t.test('a JSON body answers the same whether it is read on the plain path or by koa-body', async (t) => {
  const ledger = await startTestLedger(t, { jsonLimit: 2048 });
  const a = await createTestCompany(ledger);
  const url = `${ledger.url}/client/${a.dataset}/arap/vendor`;
  const key = { 'X-API-Key': a.apiKey };
  const bodies: [string, Buffer | string, number][] = [
    ['plain', '{"name":"Plain"}', 201],
    [
      'a byte order mark before it',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Bom"}')]),
      201,
    ],
    ['whitespace before it', ' \n\t\r{"name":"Spaced"}', 201],
    [
      'bytes that are not UTF-8',
      Buffer.concat([Buffer.from('{"name":"A'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('"}')]),
      201,
    ],
    ['a string', '"Plain"', 400],
    ['a number', '12', 400],
    ['null', 'null', 400],
    ['an array', '[]', 400],
    ['only whitespace', '   ', 400],
    ['malformed', '{"name":"Broken",', 400],
    ['text after it', '{"name":"Trailing"} x', 400],
    ['__proto__', '{"name":"P","__proto__":{"admin":true}}', 400],
    ['__proto__ escaped, nested', '{"name":"P","a":[{"\\u005f_proto__":{"admin":true}}]}', 400],
    ['over the limit', `{"name":"${'x'.repeat(3000)}"}`, 413],
  ];
  for (const [what, body, status] of bodies) {
    // application/json as JSON clients send it is read on the plain path; with another spelling, by koa-body
    const plain = await raw(url, 'POST', { ...key, 'Content-Type': 'application/json' }, body);
    const generic = await raw(url, 'POST', { ...key, 'Content-Type': 'Application/JSON; charset=UTF-8' }, body);
    t.equal(plain.status, status, `${what}: ${plain.text.slice(0, 200)}`);
    t.equal(generic.status, status, `${what} (koa-body): ${generic.text.slice(0, 200)}`);
    if (status !== 201) t.same(plain.json, generic.json, `${what}: the same error body`);
  }
  // a body still arriving when it is read: waited for, then the same answers
  const inPieces = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: { ...key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('response', (res: IncomingMessage) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.write(body.slice(0, 5)), 50);
      setTimeout(() => req.end(body.slice(5)), 100);
    });
  t.equal((await inPieces('{"name":"Slow"}')).status, 201, 'a body sent in pieces');
  const slowBroken = await inPieces('{"name":"Slow",');
  t.equal(slowBroken.status, 400);
  t.match(slowBroken.text, /not valid JSON/);

  const proto = await raw(url, 'POST', { ...key, 'Content-Type': 'application/json' }, '{"__proto__":{}}');
  t.same(proto.json, { error: { code: 'invalid_request', message: 'The request body is not valid JSON.' } });
  const names = await ledger.db('parties').where({ company_id: a.company.id }).pluck('name');
  t.equal(
    names.filter((n: string) => n === 'A\ufffd\ufffd').length,
    2,
    'bytes that are not UTF-8 read as U+FFFD both ways',
  );
});

t.test('malformed requests are 4xx with the error body, never 500', async (t) => {
  const s = await arapSetup(t);
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const json = { 'X-API-Key': s.co.apiKey, 'Content-Type': 'application/json' };
  const before = (await s.ledger.db('parties').where({ company_id: s.co.company.id })).length;
  const expect4xx = (res: Awaited<ReturnType<typeof raw>>, status: number, what: string) => {
    t.equal(res.status, status, `${what}: ${res.text.slice(0, 200)}`);
    t.type(res.json?.error?.code, 'string', `${what}: JSON error body`);
  };

  for (const encoding of ['gzip', 'deflate', 'br']) {
    expect4xx(
      await raw(`${base}/arap/vendor`, 'POST', { ...json, 'Content-Encoding': encoding }, '{"name":"Plain"}'),
      400,
      `body falsely labelled ${encoding}`,
    );
  }
  expect4xx(
    await raw(`${base}/arap/vendor`, 'POST', { ...json, 'Content-Encoding': 'compress' }, '{"name":"Plain"}'),
    415,
    'unsupported encoding',
  );
  const gz = await raw(
    `${base}/arap/vendor`,
    'POST',
    { ...json, 'Content-Encoding': 'gzip' },
    gzipSync('{"name":"Zipped"}'),
  );
  t.equal(gz.status, 201, 'a body that really is gzip is accepted');

  expect4xx(
    await raw(`${s.ledger.url}/client/%ZZ/arap/vendor`, 'GET', json),
    400,
    'bad percent-encoding in the dataset',
  );
  expect4xx(
    await raw(`${s.ledger.url}/client/a%00b/arap/vendor`, 'GET', { Authorization: 'Bearer x.y.z' }),
    400,
    'NUL in the dataset',
  );

  const boundary = 'XyZboundary';
  const multipart = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="transaction"',
    'Content-Transfer-Encoding: x-bogus',
    '',
    JSON.stringify(s.doc('vendor')),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  expect4xx(
    await raw(
      `${base}/arap/transaction/vendor`,
      'POST',
      { 'X-API-Key': s.co.apiKey, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      multipart,
    ),
    400,
    'unknown Content-Transfer-Encoding',
  );

  // 7bit/8bit/binary are identity transfer encodings: the JSON part is UTF-8 text (formidable
  // used them as a charset: "7bit" was an unhandled rejection, "binary" read UTF-8 as latin1)
  for (const te of ['7bit', '8bit', 'binary']) {
    const identity = multipart
      .replace('x-bogus', te)
      .replace(/"documentNumber":"[^"]*"/, `"documentNumber":"Zürich-${te}"`);
    const res = await raw(
      `${base}/arap/transaction/vendor`,
      'POST',
      { 'X-API-Key': s.co.apiKey, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      identity,
    );
    t.equal(res.status, 201, `Content-Transfer-Encoding ${te}: ${res.text.slice(0, 200)}`);
    const read = await s.api('GET', `/arap/transaction/vendor/${res.json?.id}`);
    t.equal(read.body.documentNumber, `Zürich-${te}`, `${te}: UTF-8 text read as UTF-8`);
  }

  expect4xx(
    await raw(`${base}/arap/vendor`, 'POST', json, JSON.stringify({ name: 'Nul\u0000Byte' })),
    400,
    'NUL in a string',
  );
  expect4xx(await raw(`${base}/arap/vendor`, 'POST', json, '{"name":"lone \\ud800 surrogate"}'), 400, 'lone surrogate');
  expect4xx(
    await raw(`${base}/arap/vendor`, 'POST', json, '{"name":"ok","city":"\\udc00"}'),
    400,
    'lone low surrogate',
  );
  expect4xx(await raw(`${base}/system/audit?entity=%00`, 'GET', json), 400, 'NUL in the query');
  const deep = `{"curr":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
  expect4xx(
    await raw(`${base}/arap/transaction/vendor`, 'POST', json, deep),
    400,
    'deep nesting where a currency goes',
  );
  expect4xx(
    await raw(`${base}/arap/vendor`, 'POST', json, `{"name":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`),
    400,
    'deep nesting in a body',
  );

  const hugeId = JSON.stringify(s.doc('vendor')).replace(`"vendor_id":${s.parties.vendor.id}`, '"vendor_id":1e21');
  expect4xx(await raw(`${base}/arap/transaction/vendor`, 'POST', json, hugeId), 400, 'id of 1e21 in the body');
  expect4xx(await raw(`${base}/arap/vendor/99999999999999999999`, 'GET', json), 404, 'id of 1e20 in the path');
  expect4xx(await raw(`${base}/arap/vendor/9007199254740993`, 'GET', json), 404, 'id beyond 2^53 in the path');

  t.equal(
    (await s.ledger.db('parties').where({ company_id: s.co.company.id })).length,
    before + 1,
    'only the real gzip body wrote',
  );
});

t.test('data URIs: large ones decode, over the file limit is 413, malformed base64 is 400', async (t) => {
  const s = await arapSetup(t, { fileLimit: 6 * 1024 * 1024 });
  const payload = (bytes: number) => Buffer.alloc(bytes, 'ledger attachment ').toString('base64');
  const big = payload(4_500_000); // 6 MB of base64: the old regex overflowed the stack from about 3.5 MB
  t.ok(big.length >= 6_000_000);
  const ok = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { files: [{ name: 'big.bin', data: `data:application/octet-stream;base64,${big}` }] }),
  );
  t.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
  const read = await s.api('GET', `/arap/transaction/vendor/${ok.body.id}`);
  t.equal(read.body.files[0].size, 4_500_000);

  const over = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      files: [{ name: 'over.bin', data: `data:application/octet-stream;base64,${payload(7_000_000)}` }],
    }),
  );
  t.equal(over.status, 413);
  t.equal(over.body.error.code, 'payload_too_large');
  t.equal(over.body.error.field, '/files/0/data');

  const bad = [
    'data:text/plain;base64,aGVsbG8', // missing padding
    'data:text/plain;base64,aGVs bG8=', // whitespace
    'data:text/plain;base64,aGVs*G8=',
    'data:text/plain;base64,a===',
    'data:text/plain;base64,',
    'data:;base64,aGVsbG8=',
    'data:text/plain,hello',
    `data:text/plain;base64,${big.slice(0, -4)}!!!!`,
  ];
  for (const data of bad) {
    const res = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { files: [{ name: 'bad.txt', data }] }),
    );
    t.equal(res.status, 400, data.slice(0, 40));
    t.equal(res.body.error.code, 'invalid_request');
  }
  const params = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { files: [{ name: 'p.txt', data: 'data:Text/Plain;charset=utf-8;name=a.txt;base64,aGk=' }] }),
  );
  t.equal(params.status, 201, 'media type parameters are allowed');
  t.equal((await s.api('GET', `/arap/transaction/vendor/${params.body.id}`)).body.files[0].mediaType, 'text/plain');
});

t.test('a database outage is 503 unavailable with Retry-After, and the ledger recovers by itself', async (t) => {
  const proxy = new PostgresProxy();
  await proxy.start();
  t.teardown(() => proxy.cut());
  const ledger = await startTestLedger(t, { databaseUrl: proxy.url });
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  t.equal((await api('GET', '/arap/vendor')).status, 200, 'works through the proxy');

  await proxy.cut();
  for (const [method, path, body] of [
    ['GET', '/arap/vendor'],
    ['POST', '/arap/vendor', { name: 'During the outage' }],
    ['GET', '/arap/vendor'],
  ] as const) {
    const res = await api(method, path, body);
    t.equal(res.status, 503, `${method} ${path} during the outage`);
    t.equal(res.body.error.code, 'unavailable');
    t.match(res.headers.get('retry-after'), /^[1-9][0-9]*$/, 'Retry-After in seconds');
  }

  await proxy.start(); // the same port again
  const back = await api('POST', '/arap/vendor', { name: 'After the outage' });
  t.equal(back.status, 201, 'the ledger reconnects without a restart');
  const names = (await api('GET', '/arap/vendor')).body.map((v: { name: string }) => v.name);
  t.same(names, ['After the outage'], 'the request refused during the outage wrote nothing');
});
