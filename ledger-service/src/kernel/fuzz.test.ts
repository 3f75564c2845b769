/**
 * Fuzz: a few thousand malformed requests with a valid API key against a real ledger.
 * Whatever arrives, the ledger answers below 500, with the JSON error body on every 4xx,
 * and a refused request writes nothing (row counts of every company table unchanged).
 */
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import t from 'tap';
import { withTenant } from '../db/knex.ts';
import { arapSetup } from '../../test/arapHelpers.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** Percent-escapes, well-formed or not: `%ZZ`, `%E0%A4%A`, `%00`, `%C0%80`. */
const percentEscape = fc.oneof(
  fc.constantFrom('%ZZ', '%', '%4', '%E0%A4%A', '%00', '%C0%80', '%ED%A0%80', '%FF', '%2e%2e', '%2F', 'caf%C3%A9'),
  fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
);
const idSegment = (realId: number) =>
  fc.oneof(
    fc.constant(String(realId)),
    fc.constantFrom('0', '-1', '1e21', '99999999999999999999', '9007199254740993', '1.5', 'abc', '0x10', ''),
    percentEscape,
    fc.nat().map(String),
  );

/** Strings with what databases and parsers choke on. */
const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\ud83d',
    '😀',
    '\u202e',
    'x'.repeat(300),
    '',
    ' ',
    '1e21',
    'NaN',
    '-0',
  ),
);
const nastyNumber = fc.oneof(
  fc.constantFrom(1e21, 2 ** 53, -1, 0, 1.5, 1e308, -1e308, 2147483648, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
/** Nested arrays/objects, sometimes thousands deep (built as text: JSON.stringify would recurse). */
const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  nastyNumber,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null),
  fc.boolean(),
);

/** A request body: a document with one or two fields replaced by something nasty, or raw text. */
function jsonBody(doc: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = [
    ...Object.keys(doc),
    'curr',
    'currency',
    'vendor_id',
    'customer_id',
    'pending',
    'files',
    'name',
    'id',
    'lines',
    'exchangerate',
    'limit',
    'date',
    '\u0000',
    '\ud800',
  ];
  const replaced = fc
    .array(
      fc.tuple(
        fc.constantFrom(...keys),
        fc.oneof(
          nastyValue,
          deepJson.map((d) => ({ __raw: d })),
        ),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((changes) => {
      let text = JSON.stringify({ ...doc, ...Object.fromEntries(changes.filter(([, v]) => !isRaw(v))) });
      // raw JSON (deep nesting) is spliced in as text
      for (const [k, v] of changes) if (isRaw(v)) text = `${text.slice(0, -1)},${JSON.stringify(k)}:${v.__raw}}`;
      return text;
    });
  const lineChange = fc
    .tuple(fc.constantFrom('account', 'amount', 'taxAccount', 'taxAmount', 'description'), nastyValue)
    .map(([k, v]) => JSON.stringify({ ...doc, lines: [{ ...(doc.lines as object[])[0], [k]: v }] }));
  return fc.oneof(
    replaced,
    lineChange,
    fc.constantFrom(
      '{"name":',
      '{',
      '[]',
      'null',
      '"x"',
      '1e21',
      '{"name":"a"}garbage',
      '\u0000',
      '{"name":"\\ud800"}',
      '{"name":"\\u0000"}',
      '{"__proto__":{"x":1}}',
    ),
    fc.string({ unit: 'binary', maxLength: 100 }),
    deepJson,
  );
}

const isRaw = (v: unknown): v is { __raw: string } => typeof v === 'object' && v !== null && '__raw' in v;

function multipart(json: string, transferEncoding: string, filename: string, closed: boolean): string {
  const parts = [
    '--B',
    'Content-Disposition: form-data; name="transaction"',
    ...(transferEncoding ? [`Content-Transfer-Encoding: ${transferEncoding}`] : []),
    '',
    json,
    '--B',
    `Content-Disposition: form-data; name="files"; filename="${filename}"`,
    'Content-Type: application/pdf',
    ...(transferEncoding ? [`Content-Transfer-Encoding: ${transferEncoding}`] : []),
    '',
    '%PDF-1.4',
    closed ? '--B--' : '--B',
    '',
  ];
  return parts.join('\r\n');
}

function requests(
  dataset: string,
  ids: { vendor: number; customer: number; doc: number },
  doc: Record<string, unknown>,
): fc.Arbitrary<FuzzRequest> {
  const anyId = fc.constantFrom(ids.vendor, ids.customer, ids.doc).chain(idSegment);
  const vc = fc.oneof(fc.constantFrom('vendor', 'customer'), nasty.map(encodeSafe), percentEscape);
  const route = fc.oneof(
    fc.constant('/arap/vendor'),
    fc.constant('/arap/customer'),
    anyId.map((id) => `/arap/vendor/${id}`),
    anyId.map((id) => `/arap/vendor/${id}/bank_accounts`),
    vc.map((v) => `/arap/transaction/${v}`),
    fc.tuple(vc, anyId).map(([v, id]) => `/arap/transaction/${v}/${id}`),
    fc
      .tuple(vc, anyId, fc.constantFrom('approve', 'reverse'))
      .map(([v, id, action]) => `/arap/transaction/${v}/${id}/${action}`),
    fc.tuple(vc, anyId, anyId).map(([v, id, file]) => `/arap/transaction/${v}/${id}/files/${file}`),
    fc.constantFrom(
      '/system/chart/accounts',
      '/system/taxes',
      '/system/api_keys',
      '/system/audit',
      '/system/close_books',
      '/auth/validate_api',
      '',
      '/',
    ),
    fc
      .array(fc.oneof(percentEscape, fc.constantFrom('..', '.', 'arap', 'x', '%2e%2e')), { minLength: 1, maxLength: 4 })
      .map((s) => `/${s.join('/')}`),
  );
  const query = fc.oneof(
    fc.constant(''),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'limit',
            'offset',
            'vendor_id',
            'customer_id',
            'name',
            'entity',
            'from',
            'to',
            'status',
            'sort',
            'x',
          ),
          fc.oneof(
            fc.constantFrom('1e21', '-1', 'abc', '%00', '%ZZ', '99999999999999999999', '2024-13-45', '', '%ED%A0%80'),
            fc.nat().map(String),
          ),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  );
  const datasetSegment = fc.oneof(
    { weight: 12, arbitrary: fc.constant(dataset) },
    { weight: 1, arbitrary: percentEscape },
    { weight: 1, arbitrary: fc.constantFrom(`${dataset}%00`, 'other-dataset', encodeURIComponent(dataset)) },
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=bogus',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=B',
    'multipart/form-data',
    'application/xml',
    'application/*',
    '',
  );
  const contentEncoding = fc.constantFrom(
    '',
    '',
    '',
    'gzip',
    'deflate',
    'br',
    'compress',
    'identity',
    'gzip, br',
    'x-bogus',
  );
  const body = fc.oneof(
    jsonBody(doc),
    fc
      .tuple(
        jsonBody(doc),
        fc.constantFrom('', 'x-bogus', 'base64', 'quoted-printable', '7bit', 'binary', 'UTF-8'),
        fc.constantFrom('a.pdf', 'a\u0000b.pdf', '\ud800.pdf', ''),
        fc.boolean(),
      )
      .map(([json, te, name, closed]) => multipart(json, te, name, closed)),
  );
  return fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'),
      dataset: datasetSegment,
      route,
      query,
      contentType,
      contentEncoding,
      body: fc.option(body, { freq: 5 }),
      reallyGzip: fc.boolean(),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      if (r.contentType) headers['Content-Type'] = r.contentType;
      if (r.contentEncoding) headers['Content-Encoding'] = r.contentEncoding;
      let bytes = r.body === null ? undefined : Buffer.from(r.body, 'utf8');
      // sometimes the body really is what its Content-Encoding says
      if (bytes && r.contentEncoding === 'gzip' && r.reallyGzip) bytes = gzipSync(bytes);
      return { method: r.method, path: `/client/${r.dataset}${r.route}${r.query}`, headers, body: bytes };
    });
}

/** Only characters a request line may carry; anything else percent-encoded byte by byte. */
function encodeSafe(s: string): string {
  return Array.from(Buffer.from(s, 'utf8'))
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
}

t.test('malformed requests never get a 5xx and refused ones write nothing', async (t) => {
  const s = await arapSetup(t, { fileLimit: 64 * 1024 });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const origin = new URL(s.ledger.url);
  const draft = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(draft.status, 201);

  // every table with company_id, counted as the superuser (no RLS) for this company
  const tables = (
    await s.ledger
      .db('information_schema.columns')
      .where({ table_schema: 'public', column_name: 'company_id' })
      .select('table_name')
  ).map((r: { table_name: string }) => r.table_name);
  t.ok(tables.includes('parties') && tables.includes('audit_log'), `counting ${tables.join(', ')}`);
  const counts = async () => {
    const sql = tables.map(() => `(select count(*) from ?? where company_id = ?)`).join(', ');
    const row = (
      await s.ledger.db.raw(
        `select ${sql}`,
        tables.flatMap((name) => [name, s.co.company.id]),
      )
    ).rows[0] as Record<string, string>;
    return Object.values(row).join(',');
  };

  const send = (r: FuzzRequest) =>
    new Promise<{ status: number; text: string; contentType: string }>((resolve, reject) => {
      const headers = {
        ...r.headers,
        'X-API-Key': s.co.apiKey,
        ...(r.body ? { 'Content-Length': String(r.body.length) } : {}),
      };
      const req = request(
        { host: origin.hostname, port: origin.port, method: r.method, path: r.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              contentType: String(res.headers['content-type'] ?? ''),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(r.body);
    });

  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      requests(
        s.co.dataset,
        { vendor: s.parties.vendor.id, customer: s.parties.customer.id, doc: draft.body.id },
        s.doc('vendor'),
      ),
      async (r) => {
        const writes = r.method !== 'GET' && r.method !== 'HEAD' && r.method !== 'OPTIONS';
        const before = writes ? await counts() : '';
        const res = await send(r);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${r.method} ${r.path} ${JSON.stringify(r.headers)} → ${res.status} ${res.text.slice(0, 200)}`;
        if (res.status >= 500) throw new Error(`5xx: ${what}`);
        if (res.status >= 400 && r.method !== 'HEAD') {
          const body = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
          if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string')
            throw new Error(`no error body: ${what}`);
          if (!res.contentType.startsWith('application/json')) throw new Error(`not JSON: ${what}`);
        }
        if (writes && res.status >= 400 && (await counts()) !== before)
          throw new Error(`a refused request wrote: ${what}`);
      },
    ),
    { numRuns: RUNS },
  );
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  t.ok(
    [...statuses.keys()].some((s) => s < 300),
    'some requests were valid enough to succeed',
  );
  t.ok(
    [...statuses.keys()].every((s) => s < 500),
    'no 5xx',
  );
  // the company's books are still readable after the run
  const vendors = await withTenant(s.ledger.db, s.co.company.id, (tx) => tx('parties').count({ n: '*' }).first());
  t.ok(Number(vendors?.n) >= 1);
});
