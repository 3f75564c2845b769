/**
 * The /openapi.json a real ledger serves, linted by the two tools integrators run on it:
 * `redocly lint` (Redocly's recommended rules and our type-aware `ledger/no-ambiguous-paths`,
 * redocly.yaml and redocly/ledger-plugin.js) and `spectral lint` (the
 * `spectral:oas` ruleset, .spectral.yaml), both from node_modules/.bin, both with 0 errors
 * and 0 warnings. Neither may fetch anything: telemetry and update checks are off, and any
 * request they tried would go to a local proxy that counts it. A document with a fault
 * planted in it shows that both do report.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { startTestLedger } from '../../test/helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

type Json = Record<string, any>;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A proxy that answers nothing and counts who came: the linters' only way out. */
async function trapProxy(t: Test): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    hits.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function run(command: string, args: string[], cwd: string, proxy: string): Promise<Run> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: cwd, // no user-wide config, and nothing the tools would cache lands in the real home
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    SCARF_ANALYTICS: 'false',
    NO_COLOR: '1',
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    NO_PROXY: '',
    no_proxy: '',
  };
  return new Promise((resolve) => {
    execFile(
      join(BIN, command),
      args,
      { cwd, env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
      },
    );
  });
}

interface Problems {
  errors: string[];
  warnings: string[];
}

async function redocly(file: string, dir: string, proxy: string): Promise<Problems> {
  const r = await run('redocly', ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], dir, proxy);
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  const lines = (severity: string) =>
    report.problems
      .filter((p) => p.severity === severity)
      .map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
  return { errors: lines('error'), warnings: lines('warn') };
}

async function spectral(file: string, dir: string, proxy: string): Promise<Problems> {
  const r = await run(
    'spectral',
    ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
    dir,
    proxy,
  );
  // severity 0 error, 1 warning, 2 information, 3 hint
  const results = JSON.parse(r.stdout.trim() || '[]') as {
    code: string;
    severity: number;
    message: string;
    path: string[];
  }[];
  const lines = (severity: number) =>
    results.filter((p) => p.severity === severity).map((p) => `${p.code} ${p.path.join('.')}: ${p.message}`);
  return { errors: lines(0), warnings: lines(1) };
}

t.test('redocly and spectral report no error and no warning on /openapi.json, and fetch nothing', async (t) => {
  const ledger = await startTestLedger(t, { publicUrl: 'https://books.example.ch' });
  const doc = (await (await fetch(`${ledger.url}/openapi.json`)).json()) as Json;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const proxy = await trapProxy(t);

  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
  // a planted fault each linter must see: an operation without its description, and an example its schema refuses
  const broken = structuredClone(doc);
  delete broken.paths['/arap/vendor'].get.description;
  broken.paths['/arap/vendor'].post.requestBody.content['application/json'].example = { name: 42 };
  // and a path one request could reach besides /documents/inbox/{id}: its parameters are text
  const text = { in: 'path', required: true, schema: { type: 'string' } };
  broken.paths['/documents/{slug}/{part}'] = {
    get: {
      ...broken.paths['/documents/{id}'].get,
      operationId: 'plantedAmbiguous',
      parameters: [
        { name: 'slug', ...text },
        { name: 'part', ...text },
      ],
    },
  };
  writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken, null, 2));

  const [redoclyReport, spectralReport, redoclyBroken, spectralBroken] = await Promise.all([
    redocly('openapi.json', dir, proxy.url),
    spectral('openapi.json', dir, proxy.url),
    redocly('broken.json', dir, proxy.url),
    spectral('broken.json', dir, proxy.url),
  ]);
  t.same(redoclyReport, { errors: [], warnings: [] }, 'redocly lint: 0 errors, 0 warnings');
  t.same(spectralReport, { errors: [], warnings: [] }, 'spectral lint (spectral:oas): 0 errors, 0 warnings');

  const all = (p: Problems) => [...p.errors, ...p.warnings].join('\n');
  t.match(all(redoclyBroken), /no-invalid-media-type-examples/, 'redocly reports the example its schema refuses');
  t.match(
    redoclyBroken.errors.join('\n'),
    /ledger\/no-ambiguous-paths .*`\/documents\/inbox\/\{id\}` and `\/documents\/\{slug\}\/\{part\}`/,
    'and, as an error, the path a request could reach besides another (redocly/ledger-plugin.js)',
  );
  t.match(all(spectralBroken), /operation-description/, 'spectral reports the missing description');
  t.match(all(spectralBroken), /oas3-valid-media-example/, 'and the example its schema refuses');
  t.same(proxy.hits, [], 'nothing was fetched');
});

t.test('no request path reaches two operations (the check of redocly/ledger-plugin.js, done again here)', async (t) => {
  const ledger = await startTestLedger(t);
  const doc = (await (await fetch(`${ledger.url}/openapi.json`)).json()) as Json;
  /** Per path, each segment: a literal, or a parameter's schema type. */
  const shapes = Object.entries(doc.paths as Record<string, Json>).map(([path, item]) => {
    const params = new Map<string, string>();
    for (const op of Object.values(item)) {
      for (const p of (op as Json).parameters ?? []) if (p.in === 'path') params.set(p.name, p.schema.type);
    }
    return {
      path,
      segments: path
        .split('/')
        .slice(1)
        .map((s) => (/^\{(.+)\}$/.exec(s) ? { param: params.get(s.slice(1, -1)) ?? 'string' } : { literal: s })),
    };
  });
  type Segment = (typeof shapes)[number]['segments'][number];
  // one concrete segment fits both: equal literals, a parameter and a literal it accepts, or two parameters
  const overlap = (a: Segment, b: Segment): boolean => {
    if ('literal' in a && 'literal' in b) return a.literal === b.literal;
    const literal = 'literal' in a ? a.literal : 'literal' in b ? b.literal : undefined;
    if (literal === undefined) return true;
    const param = 'param' in a ? a.param : (b as { param: string }).param;
    return param === 'integer' ? /^\d+$/.test(literal!) : true;
  };
  const ambiguous: string[] = [];
  for (const [i, a] of shapes.entries()) {
    for (const b of shapes.slice(i + 1)) {
      if (a.segments.length === b.segments.length && a.segments.every((s, k) => overlap(s, b.segments[k]!)))
        ambiguous.push(`${a.path} ~ ${b.path}`);
    }
  }
  t.ok(shapes.length > 50, `${shapes.length} paths`);
  t.same(ambiguous, [], 'no two paths match one request');
  t.ok(
    overlap({ param: 'string' }, { literal: 'inbox' }) && !overlap({ param: 'integer' }, { literal: 'inbox' }),
    'an integer parameter never matches a word',
  );
});
