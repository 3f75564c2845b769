import { request } from 'node:http';
import t from 'tap';
import { startStack } from './helpers.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request over node:http with the path sent exactly as written (a URL string would have
 * its dot segments resolved first); `expectContinue` waits for 100 Continue before the body.
 */
function send(
  url: string,
  opts: { method: string; headers?: Record<string, string>; body?: Buffer; expectContinue?: boolean },
): Promise<Answer> {
  const origin = new URL(url);
  const path = url.slice(origin.origin.length);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        path,
        method: opts.method,
        headers: { ...opts.headers, ...(opts.expectContinue ? { expect: '100-continue' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.expectContinue) req.on('continue', () => req.end(opts.body));
    else req.end(opts.body);
  });
}

t.test('Expect: 100-continue with a body over 1 MB goes through the public origin', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const body = Buffer.from(
    JSON.stringify({ name: 'Continue Vendor AG', vendornumber: 'CONT-1', country: 'CH', notes: 'x'.repeat(1_200_000) }),
  );
  const res = await send(`${stack.url}/client/${a.dataset}/arap/vendor`, {
    method: 'POST',
    expectContinue: true,
    body,
    headers: { 'x-api-key': a.apiKey, 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  // the ledger parsed all of it: it names the one field it does not accept
  t.equal(res.status, 400, res.body.slice(0, 200));
  t.equal((JSON.parse(res.body) as { error: { field: string } }).error.field, '/notes');
});

/** A chunked upload of `size` bytes, written as fast as the socket takes it. */
function oversizedChunkedUpload(url: string, size: number, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err) => resolve({ status: -1, headers: {}, body: err.message }));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < size && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"name":"');
    pump();
  });
}

/** Above the ledger's default JSON limit (15 MiB), so the ledger answers before reading it all. */
const OVERSIZED = 16 * 1024 * 1024;

t.test('an oversized upload answered early does not break the next caller', async (t) => {
  const stack = await startStack(t, { LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' });
  const a = await stack.company();
  const vendors = `${stack.url}/client/${a.dataset}/arap/vendor`;
  const post = async (n: string) => {
    const res = await fetch(vendors, {
      method: 'POST',
      headers: { 'X-API-Key': a.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `After Upload ${n} AG`, vendornumber: `AU-${n}`, country: 'CH' }),
    });
    await res.body?.cancel();
    return res.status;
  };
  for (let i = 1; i <= 3; i++) {
    const anonymous = await oversizedChunkedUpload(vendors, OVERSIZED);
    t.equal(anonymous.status, 401, `try ${i}: the upload without a key is refused: ${anonymous.body.slice(0, 100)}`);
    t.equal(await post(`${i}a`), 201, `try ${i}: the next posting succeeds`);
    const keyed = await oversizedChunkedUpload(vendors, OVERSIZED, { 'x-api-key': a.apiKey });
    t.equal(keyed.status, 413, `try ${i}: the upload with a key is too large: ${keyed.body.slice(0, 100)}`);
    t.equal(await post(`${i}b`), 201, `try ${i}: the next posting succeeds`);
    const list = await fetch(vendors, { headers: { 'X-API-Key': a.apiKey } });
    t.equal(list.status, 200, `try ${i}: the next GET succeeds`);
    await list.body?.cancel();
  }
});

t.test('bodies falsely labelled gzip/br among concurrent postings: only their senders get an error', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const vendors = `${stack.url}/client/${a.dataset}/arap/vendor`;
  const junk = Buffer.from(
    JSON.stringify({ name: 'Not Compressed AG', vendornumber: 'NC-1', country: 'CH', filler: 'z'.repeat(256 * 1024) }),
  );
  const CLIENTS = 16;
  const ROUNDS = 4;
  const results = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const statuses: { valid: boolean; status: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (client % 2 === 0) {
          const res = await fetch(vendors, {
            method: 'POST',
            headers: { 'X-API-Key': a.apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `Concurrent ${client}-${round} AG`,
              vendornumber: `CC-${client}-${round}`,
              country: 'CH',
            }),
          });
          await res.body?.cancel();
          statuses.push({ valid: true, status: res.status });
        } else {
          const res = await send(vendors, {
            method: 'POST',
            body: junk,
            headers: {
              'x-api-key': a.apiKey,
              'content-type': 'application/json',
              'content-encoding': round % 2 ? 'br' : 'gzip',
              'content-length': String(junk.length),
            },
          }).catch((err: Error) => ({ status: -1, headers: {}, body: err.message }));
          statuses.push({ valid: false, status: res.status });
        }
      }
      return statuses;
    }),
  );
  const all = results.flat();
  const valid = all.filter((r) => r.valid).map((r) => r.status);
  const bad = all.filter((r) => !r.valid).map((r) => r.status);
  t.same(
    valid,
    valid.map(() => 201),
    `every valid posting is created: ${valid.join(' ')}`,
  );
  t.ok(
    bad.every((s) => s >= 400 && s < 500),
    `every mislabelled body gets a 4xx from the ledger: ${bad.join(' ')}`,
  );
});

t.test('API paths answer JSON whatever the Accept header; pages may answer HTML', async (t) => {
  const stack = await startStack(t);
  const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  for (const path of [
    '/client/%2e%2e/x',
    '/client/..%2fx',
    '/client/%2E%2E%2Finternal/companies',
    '/client/..%5cx',
    '/mcp/nope/deeper',
    '/.well-known/nothing',
    '/oauth/register/extra',
  ]) {
    // node:http sends the path as written (fetch would resolve the dot segments first)
    const res = await send(`${stack.url}${path}`, { method: 'GET', headers: html });
    t.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status}`);
    t.match(res.headers['content-type'], /^application\/json/, `${path} answers JSON: ${res.body.slice(0, 200)}`);
    const body = JSON.parse(res.body) as { error: { code: string; message: string } };
    t.type(body.error.code, 'string', `${path}: the error body`);
  }
  const page = await fetch(`${stack.url}/no-such-page`, { headers: html });
  t.equal(page.status, 404);
  t.match(page.headers.get('content-type'), /^text\/html/, 'a page path may answer HTML');
  await page.body?.cancel();
});

t.test('the OpenAPI document and the rendered reference on the public origin', async (t) => {
  const stack = await startStack(t);
  const doc = await fetch(`${stack.url}/openapi.json`);
  t.equal(doc.status, 200);
  t.match(doc.headers.get('content-type'), /^application\/json/);
  const openapi = (await doc.json()) as {
    openapi: string;
    servers: { url: string; variables: { api_url: { default: string } } }[];
  };
  t.match(openapi.openapi, /^3\.1/);
  // the ledger's PUBLIC_URL (in production the same value as the gateway's)
  t.same(
    openapi.servers.map((s) => [s.url, s.variables.api_url.default]),
    [['{api_url}/client/{dataset}', stack.ledger.config.publicUrl]],
    'the server is the configured public URL',
  );

  const page = await fetch(`${stack.url}/docs`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, /script-src 'self'(;|$)/, 'scripts only from the origin');
  t.match(csp, /default-src 'self'/);
  const html = await page.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  const sources = scripts.map((s) => /\ssrc="([^"]*)"/.exec(s)?.[1]).filter((s): s is string => s !== undefined);
  t.ok(sources.length > 0, 'the page loads the renderer');
  for (const src of sources) t.equal(new URL(src, `${stack.url}/docs`).origin, stack.url, `${src} is same-origin`);
  for (const s of scripts.filter((s) => !/\ssrc=/.test(s))) t.match(s, /type="application\/json"/, 'no inline code');
  t.notMatch(html, /https?:\/\//, 'no absolute URL at all (no CDN)');
  for (const src of sources) {
    const asset = await fetch(new URL(src, `${stack.url}/docs`));
    t.equal(asset.status, 200, `${src} is served`);
    t.match(asset.headers.get('content-type'), /^(text|application)\/javascript/, `${src} is JavaScript`);
    t.ok((await asset.arrayBuffer()).byteLength > 100_000, `${src} is the renderer bundle`);
  }
});
