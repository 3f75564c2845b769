/**
 * Gateway soak (issue 20, point 9): BENCH_SOAK_SECONDS (default 60) of mixed traffic against
 * one gateway process, after BENCH_SOAK_WARMUP_SECONDS (default 30) of the same, following
 * its memory after a forced full GC every BENCH_SOAK_SAMPLE_SECONDS (default 3). A leak
 * shows as a heapUsed floor that keeps rising with the requests served; memory that only
 * grows to a working size shows as floors that flatten once warm (the warm-up is there so
 * that compiled code, connection pools and the caches' working set — entries live up to
 * 60 s — are in place before the first sample).
 *
 * Traffic (BENCH_SOAK_CONNECTIONS clients, default 8, cycling through the same mix): MCP
 * `tools/call` of read and write tools (small answers, a report, an invoice PDF, an image
 * upload) and `tools/list`, in both protocol eras (2026-07-28 with the `_meta` envelope: a
 * single call takes the gateway's direct path, the rest goes through the SDK; 2025-11-25
 * without it: the SDK's stateless fallback answering over SSE, `initialize` and a batch
 * included), resources, two connections with different scopes, a browser client from
 * another origin, a `subscriptions/listen` stream the client leaves, calls the client gives
 * up on before the answer, the discovery documents, REST through the gateway with the
 * company's API key, and refused requests (no token, a token that does not exist, another
 * origin without a token, an unknown tool, a tool outside the scope, GET/DELETE, a body that
 * is not JSON or nested too deep, headers too large, an unknown dataset, an invalid refresh
 * token, an authorization request without parameters, registrations over the limit). Beside
 * them one client refreshes the OAuth token all the time (rotation; the others use the newest
 * access token) and one assistant is connected anew again and again (each consent a new
 * connection that lists its tools and calls one).
 *
 * The gateway's memory is read by bench/soakProbe.mjs, which this part alone loads into the
 * gateway (NODE_OPTIONS `--expose-gc --import`); the gateway carries no hook of its own.
 * Printed: RSS and heapUsed after GC per third of the run (lowest sample), the growth of
 * those floors from the middle to the last third as MiB/min, a least-squares slope over the
 * last two thirds, and what the RSS is made of at the end (V8's committed heap, of which the
 * young generation; native memory; mapped files).
 *
 * Env: BENCH_SOAK_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/ledger_bench_soak;
 * dropped and re-created). BENCH_SOAK_STORE=postgres runs the gateway as replicas run it
 * (its store in that database, schema `gateway`, its limits in Redis BENCH_SOAK_REDIS_URL,
 * default redis://127.0.0.1:6379/7, whose `gw:*` keys are deleted first) instead of on
 * SQLite and in memory. BENCH_SOAK_PER_KIND=<n> then sends each request kind alone (those
 * whose name contains BENCH_SOAK_PER_KIND_ONLY, when set), twice n times, and prints the
 * heap each kind leaves behind per request (objects, compiled code left out, after the
 * gateway has settled), to point at the kind that leaks, if one does.
 * BENCH_SOAK_SNAPSHOTS=<dir> writes heap snapshots at the end of the first third and at the
 * end of the run, to compare object counts (a snapshot inflates the RSS that follows it).
 * Writes bench/results/soak-<time>.json.
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { Redis } from 'ioredis';
import pg from 'pg';
import { recreateDatabase } from '../scripts/database.ts';
import { authorizeInBrowser, Browser } from '../e2e/test/support/browser.ts';
import { freePort, startStack } from '../e2e/test/support/processes.ts';
import { connectRaw, registerClient, tokenRequest, type TokenSet } from '../e2e/test/support/rawOAuth.ts';
import { createDemo, person } from '../e2e/test/support/scenario.ts';

const DB_URL = process.env.BENCH_SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_bench_soak';
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 3);
const WARMUP = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 8);
const SNAPSHOTS = process.env.BENCH_SOAK_SNAPSHOTS;
const STORE = process.env.BENCH_SOAK_STORE === 'postgres' ? 'postgres' : 'sqlite';
const REDIS_URL = process.env.BENCH_SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
const PER_KIND = Number(process.env.BENCH_SOAK_PER_KIND ?? 0);
const PER_KIND_ONLY = process.env.BENCH_SOAK_PER_KIND_ONLY;
/** how long the gateway is left alone before a per-kind reading (calls given up on are still running) */
const SETTLE_MS = 5_000;
/**
 * What the main assistant is granted: reads and writes of several areas, so the tools answer small and large results.
 */
const AREAS = { contacts: 'write', accounting: 'read', invoices: 'write', documents: 'write' } as const;
const PROBE = fileURLToPath(new URL('./soakProbe.mjs', import.meta.url));
const MiB = 1024 * 1024;

interface Sample {
  /** seconds since the traffic started */
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** anonymous and file-backed parts of the RSS (Linux) */
  rssAnon?: number;
  rssFile?: number;
  /** V8 heap spaces: committed and used bytes */
  spaces: Record<string, { physical: number; used: number }>;
}

interface Op {
  name: string;
  /** statuses this request is expected to get; anything else counts as unexpected */
  expect: number[];
  /** at most this many at a time in the per-kind runs (default: every client) */
  concurrency?: number;
  /** how long the per-kind run leaves the gateway alone before reading (default SETTLE_MS) */
  settleMs?: number;
  send(): Promise<Response>;
}

/** A valid PNG of random pixels (incompressible): an upload of realistic size. */
function noisePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bit, RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) randomFillSync(rows, y * (width * 3 + 1) + 1, width * 3); // filter byte 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface RssParts {
  /** what V8 has committed for its heap (all spaces) */
  v8Committed: number;
  /** of which the young generation (new space): grows to its maximum under a high allocation rate */
  youngGeneration: number;
  /** anonymous memory outside V8's heap: malloc (buffers, sockets, SQLite, TLS, V8's own bookkeeping) */
  native: number;
  /** mapped files: the node binary and shared libraries */
  files: number;
}

function rssParts(s: Sample): RssParts {
  const v8Committed = Object.values(s.spaces).reduce((sum, space) => sum + space.physical, 0);
  return {
    v8Committed,
    youngGeneration: s.spaces.new_space?.physical ?? 0,
    native: (s.rssAnon ?? s.rss) - v8Committed,
    files: s.rssFile ?? 0,
  };
}

/** The heap's objects: heapUsed without compiled code, which grows as V8 optimises more of the code a kind runs. */
function objects(m: Omit<Sample, 't'>): number {
  return m.heapUsed - (m.spaces.code_space?.used ?? 0) - (m.spaces.code_large_object_space?.used ?? 0);
}

/**
 * Each request kind alone: `n` requests (CONNECTIONS at a time), then `n` more, with the
 * heap read after a forced GC once the gateway has settled before and after each. The
 * second round is the figure (the first one still includes warm-up: compiled code, pools,
 * caches filling); a kind that leaks leaves about as much behind in both.
 */
async function retainedPerKind(ops: readonly Op[], n: number, memory: () => Promise<Omit<Sample, 't'>>) {
  const burst = async (op: Op, count: number) => {
    let sent = 0;
    await Promise.all(
      Array.from({ length: op.concurrency ?? CONNECTIONS }, async () => {
        while (sent++ < count) {
          try {
            await (await op.send()).arrayBuffer();
          } catch {
            // counted in the main run; here only the memory matters
          }
        }
      }),
    );
  };
  const settled = async (op: Op) => {
    await new Promise((r) => setTimeout(r, op.settleMs ?? SETTLE_MS));
    return memory();
  };
  const rows: { kind: string; firstBytesPerRequest: number; secondBytesPerRequest: number }[] = [];
  console.log(
    `\ngateway soak, heap objects left behind per request, each kind alone (${n} requests twice, ` +
      `${CONNECTIONS} clients, read ${SETTLE_MS / 1000} s after the last answer — a new connection 65 s after, ` +
      `when what it cached has expired — after GC)`,
  );
  for (const op of ops) {
    if (PER_KIND_ONLY && !op.name.includes(PER_KIND_ONLY)) continue;
    await burst(op, Math.min(100, n));
    const m0 = await settled(op);
    await burst(op, n);
    const m1 = await settled(op);
    await burst(op, n);
    const m2 = await settled(op);
    const row = {
      kind: op.name,
      firstBytesPerRequest: Math.round((objects(m1) - objects(m0)) / n),
      secondBytesPerRequest: Math.round((objects(m2) - objects(m1)) / n),
    };
    rows.push(row);
    console.log(
      `${row.kind.padEnd(56)} ${String(row.firstBytesPerRequest).padStart(7)} B/request, then ` +
        `${String(row.secondBytesPerRequest).padStart(7)} B/request`,
    );
  }
  return rows;
}

/** Least-squares slope of y over t (per second); 0 for fewer than two points. */
export function lsSlope(points: readonly { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Per third of the run: the lowest and the last value of `key` (MiB). */
function thirds(samples: readonly Sample[], seconds: number, key: 'rss' | 'heapUsed') {
  const parts = [0, 1, 2].map((i) =>
    samples.filter((s) => s.t >= (i * seconds) / 3 && (i === 2 || s.t < ((i + 1) * seconds) / 3)),
  );
  const floors = parts.map((p) => (p.length ? Math.min(...p.map((s) => s[key])) / MiB : NaN));
  // the floors of the middle and last thirds are a third of the run apart
  const floorGrowth = floors[2]! - floors[1]!;
  const perMinute = floorGrowth / (seconds / 3 / 60);
  const late = samples.filter((s) => s.t >= seconds / 3).map((s) => ({ t: s.t, y: s[key] / MiB }));
  return { floors, floorGrowth, perMinute, lsPerMinute: lsSlope(late) * 60 };
}

export async function run(): Promise<void> {
  await recreateDatabase(DB_URL);
  const teardowns: (() => unknown)[] = [];
  try {
    const probePort = await freePort();
    const probe = `http://127.0.0.1:${probePort}`;
    let replicaStore: NodeJS.ProcessEnv = {};
    if (STORE === 'postgres') {
      const admin = new pg.Client({ connectionString: DB_URL });
      await admin.connect();
      await admin.query('create schema gateway');
      await admin.end();
      const url = new URL(DB_URL);
      url.searchParams.set('options', '-c search_path=gateway');
      replicaStore = { GATEWAY_DATABASE_URL: url.toString(), REDIS_URL };
      // the limits of an earlier run (an hour's registrations) start from zero
      const redis = new Redis(REDIS_URL, { lazyConnect: true });
      await redis.connect();
      const keys = await redis.keys('gw:*');
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    const stack = await startStack(
      { teardown: (fn) => teardowns.push(fn) },
      {
        MCP_RATE_LIMIT: '100000000',
        NODE_OPTIONS: `--expose-gc --import=${PROBE}`,
        BENCH_PROBE_PORT: String(probePort),
        ...replicaStore,
      },
      { databaseUrl: DB_URL, env: { LOG_LEVEL: 'warn', NODE_ENV: 'production' } },
    );
    const demo = await createDemo(stack);
    const browser = new Browser(stack.apiUrl);
    const { client, tokens: first } = await connectRaw(
      stack.apiUrl,
      browser,
      demo.mcp_url,
      person(demo),
      AREAS,
      'Soak Assistant',
    );
    let tokens: TokenSet = first;
    // an assistant connected again and again (a person connecting an app anew, many assistants
    // over a day): each consent is a new connection that lists its tools and calls one
    const reconnecting = await registerClient(stack.apiUrl, 'Soak Reconnecting Assistant');
    const consent = async (): Promise<TokenSet> => {
      const verifier = randomBytes(32).toString('base64url');
      const url = new URL(`${stack.apiUrl}/oauth/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: reconnecting.clientId,
        redirect_uri: reconnecting.redirectUri,
        state: 's',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource: demo.mcp_url,
        scope: 'contacts:read',
      }).toString();
      const { callback } = await authorizeInBrowser(browser, url, person(demo), AREAS);
      const res = await tokenRequest(stack.apiUrl, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: reconnecting.redirectUri,
        client_id: reconnecting.clientId,
        code_verifier: verifier,
        resource: demo.mcp_url,
      });
      if (res.status !== 200) throw new Error(`code exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as unknown as TokenSet;
    };
    // a second assistant with read access only: a second connection, scope set and credential
    const reader = await connectRaw(
      stack.apiUrl,
      browser,
      demo.mcp_url,
      person(demo),
      { contacts: 'read', accounting: 'read' },
      'Soak Reader',
    );

    const mcpHeaders = (
      era: '2026-07-28' | '2025-11-25',
      method: string,
      name: string | undefined,
      token: string | undefined,
    ): Record<string, string> => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': era,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(era === '2026-07-28' ? { 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) } : {}),
    });
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    let rpcId = 0;
    type Era = '2026-07-28' | '2025-11-25';
    const mcp = (
      era: Era,
      method: string,
      params: Record<string, unknown> = {},
      opts: {
        token?: string | null;
        headers?: Record<string, string>;
        signal?: AbortSignal;
        notification?: boolean;
      } = {},
    ) => {
      // Mcp-Name mirrors params.name (tools) or params.uri (resources)
      const name =
        typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
      const token = opts.token === null ? undefined : (opts.token ?? tokens.access_token);
      const body = {
        jsonrpc: '2.0',
        ...(opts.notification ? {} : { id: ++rpcId }),
        method,
        params: era === '2026-07-28' ? { ...params, _meta: envelope } : params,
      };
      return fetch(demo.mcp_url, {
        method: 'POST',
        signal: opts.signal,
        headers: { ...mcpHeaders(era, method, name, token), ...opts.headers },
        body: JSON.stringify(body),
      });
    };
    /** A raw request to the MCP endpoint (2025-era headers) with the given method and body. */
    const rawMcp = (method: string, body?: string, headers: Record<string, string> = {}) =>
      fetch(demo.mcp_url, {
        method,
        headers: { ...mcpHeaders('2025-11-25', method, undefined, tokens.access_token), ...headers },
        body,
      });
    /**
     * A request the client gives up on after `ms` (an assistant that timed out, a closed
     * tab); reading the answer is abandoned too. Answers status 0 when nothing came back.
     */
    const givenUp = async (ms: number, send: (signal: AbortSignal) => Promise<Response>): Promise<Response> => {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), ms);
      try {
        const res = await send(ac.signal);
        await res.arrayBuffer().catch(() => undefined);
        return new Response(null, { status: res.status });
      } catch {
        return new Response(null, { status: 200 });
      } finally {
        clearTimeout(timer);
      }
    };

    // the vendor the read and write tools use
    const found = (await (
      await mcp('2026-07-28', 'tools/call', { name: 'search_vendors', arguments: { name: 'Papeterie' } })
    ).json()) as { result?: { structuredContent?: { vendors?: { id: number }[] } } };
    const vendorId = found.result?.structuredContent?.vendors?.[0]?.id;
    if (vendorId === undefined) throw new Error(`no vendor to soak with: ${JSON.stringify(found)}`);

    // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
    const callTool = async (name: string, args: Record<string, unknown>): Promise<Record<string, any>> => {
      const res = (await (await mcp('2026-07-28', 'tools/call', { name, arguments: args })).json()) as {
        // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the benchmark reads field by field
        result?: { isError?: boolean; structuredContent?: Record<string, any> };
      };
      if (!res.result || res.result.isError || !res.result.structuredContent)
        throw new Error(`${name} failed: ${JSON.stringify(res)}`);
      return res.result.structuredContent;
    };
    // a posted invoice, whose PDF the soak asks for (a file answer: bytes, then base64 in the result)
    const customer = await callTool('create_customer', {
      name: 'Soak Kunde AG',
      address1: 'Bundesplatz',
      street: '3',
      zipcode: '3005',
      city: 'Bern',
      country: 'CH',
    });
    const accounts = (await callTool('get_chart_of_accounts', {})).accounts as {
      accno: string;
      link?: string | null;
    }[];
    const income = accounts.find((a) =>
      String(a.link ?? '')
        .split(':')
        .includes('AR_amount'),
    );
    if (!income) throw new Error('no AR_amount account in the chart');
    const invoiceBody = {
      customer_id: customer.id,
      invDate: new Date().toISOString().slice(0, 10),
      items: [{ description: 'Consulting', quantity: 3, unit: 'h', price: 150, account: String(income.accno) }],
    };
    // the soak's assistant posts without the person confirming each posting (docs/mcp.md "The person
    // confirms what an assistant books"): the company setting an owner would switch on
    const setting = await fetch(`${stack.apiUrl}/client/${demo.dataset}/system/company`, {
      method: 'POST',
      headers: { 'x-api-key': demo.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ ai_may_post_without_confirmation: true }),
    });
    if (setting.status !== 200) throw new Error(`company setting: HTTP ${setting.status}`);
    const invoiceId = (await callTool('create_invoice', invoiceBody)).id as number;
    await callTool('update_invoice', { id: invoiceId, ...invoiceBody, pending: '0' });
    const upload = { name: 'soak.png', media_type: 'image/png', data: noisePng(256, 256).toString('base64') };

    let phone = 0;
    const nextPhone = () =>
      `+41 44 ${String(100_0000 + (++phone % 900_0000)).replace(/(\d{3})(\d{2})(\d{2})$/, '$1 $2 $3')}`;
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.apiUrl}${path}`, { headers });
    const ops: Op[] = [
      {
        name: 'mcp 2026 tools/call search_vendors',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'search_vendors', arguments: { name: 'Papeterie' } }),
      },
      {
        name: 'mcp 2026 tools/call get_vendor',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'get_vendor', arguments: { id: vendorId } }),
      },
      {
        name: 'mcp 2026 tools/call update_vendor',
        expect: [200],
        send: () =>
          mcp('2026-07-28', 'tools/call', { name: 'update_vendor', arguments: { id: vendorId, phone: nextPhone() } }),
      },
      { name: 'mcp 2026 tools/list', expect: [200], send: () => mcp('2026-07-28', 'tools/list') },
      {
        name: 'mcp 2026 tools/call search_vendors',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'search_vendors', arguments: { name: 'a' } }),
      },
      {
        name: 'mcp 2025 initialize',
        expect: [200],
        send: () =>
          mcp('2025-11-25', 'initialize', {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'soak', version: '1.0.0' },
          }),
      },
      { name: 'mcp 2025 tools/list', expect: [200], send: () => mcp('2025-11-25', 'tools/list') },
      {
        name: 'mcp 2025 tools/call search_vendors',
        expect: [200],
        send: () => mcp('2025-11-25', 'tools/call', { name: 'search_vendors', arguments: { name: 'Papeterie' } }),
      },
      {
        name: 'mcp 2025 tools/call update_vendor',
        expect: [200],
        send: () =>
          mcp('2025-11-25', 'tools/call', { name: 'update_vendor', arguments: { id: vendorId, phone: nextPhone() } }),
      },
      {
        name: 'GET authorization-server metadata',
        expect: [200],
        send: () => get('/.well-known/oauth-authorization-server'),
      },
      {
        name: 'GET protected-resource metadata',
        expect: [200],
        send: () => get(`/.well-known/oauth-protected-resource/mcp/${demo.dataset}`),
      },
      {
        name: 'REST via gateway (API key)',
        expect: [200],
        send: () => get(`/client/${demo.dataset}/arap/vendor?name=Papeterie`, { 'x-api-key': demo.api_key }),
      },
      {
        name: 'mcp 2026 tools/call search_customers',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'search_customers', arguments: { name: 'a' } }),
      },
      {
        name: 'mcp 2026 tools/call trial_balance',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'trial_balance', arguments: {} }),
      },
      {
        name: 'mcp 2026 tools/call get_invoice_pdf',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'get_invoice_pdf', arguments: { id: invoiceId } }),
      },
      {
        name: 'mcp 2026 tools/call list_journal_entries',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'list_journal_entries', arguments: {} }),
      },
      {
        name: 'mcp 2026 tools/call upload_to_inbox',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'upload_to_inbox', arguments: upload }),
      },
      {
        name: 'mcp 2025 tools/call get_invoice_pdf',
        expect: [200],
        send: () => mcp('2025-11-25', 'tools/call', { name: 'get_invoice_pdf', arguments: { id: invoiceId } }),
      },
      {
        name: 'mcp 2026 tools/list (reader)',
        expect: [200],
        send: () => mcp('2026-07-28', 'tools/list', {}, { token: reader.tokens.access_token }),
      },
      {
        name: 'mcp 2026 tools/call search_vendors (reader)',
        expect: [200],
        send: () =>
          mcp(
            '2026-07-28',
            'tools/call',
            { name: 'search_vendors', arguments: { name: 'Papeterie' } },
            { token: reader.tokens.access_token },
          ),
      },
      {
        name: 'mcp 2025 tools/call trial_balance (reader)',
        expect: [200],
        send: () =>
          mcp(
            '2025-11-25',
            'tools/call',
            { name: 'trial_balance', arguments: {} },
            { token: reader.tokens.access_token },
          ),
      },
      {
        name: 'mcp 2025 batch (tools/list + tools/call)',
        expect: [200],
        send: () =>
          rawMcp(
            'POST',
            JSON.stringify([
              { jsonrpc: '2.0', id: ++rpcId, method: 'tools/list' },
              {
                jsonrpc: '2.0',
                id: ++rpcId,
                method: 'tools/call',
                params: { name: 'search_vendors', arguments: { name: 'a' } },
              },
            ]),
          ),
      },
      {
        name: 'mcp 2025 notification',
        expect: [202],
        send: () => mcp('2025-11-25', 'notifications/initialized', {}, { notification: true }),
      },
      {
        name: 'mcp 2026 notification',
        expect: [202],
        send: () => mcp('2026-07-28', 'notifications/cancelled', { requestId: 1 }, { notification: true }),
      },
      { name: 'mcp 2026 server/discover', expect: [200], send: () => mcp('2026-07-28', 'server/discover') },
      {
        name: 'mcp 2026 tools/call from a browser client (another Origin)',
        expect: [200],
        send: () =>
          mcp(
            '2026-07-28',
            'tools/call',
            { name: 'search_vendors', arguments: { name: 'Papeterie' } },
            { headers: { origin: 'https://assistant.example' } },
          ),
      },
      {
        name: 'mcp CORS preflight',
        expect: [204],
        send: () =>
          fetch(demo.mcp_url, {
            method: 'OPTIONS',
            headers: {
              origin: 'https://assistant.example',
              'access-control-request-method': 'POST',
              'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
            },
          }),
      },
      { name: 'mcp 2026 resources/list', expect: [200], send: () => mcp('2026-07-28', 'resources/list') },
      {
        name: 'mcp 2026 resources/read (chart of accounts)',
        expect: [200],
        send: () => mcp('2026-07-28', 'resources/read', { uri: `ledger://${demo.dataset}/chart/accounts` }),
      },
      {
        name: 'mcp 2025 resources/read (trial balance CSV)',
        expect: [200],
        send: () => mcp('2025-11-25', 'resources/read', { uri: `ledger://${demo.dataset}/reports/trial_balance.csv` }),
      },
      { name: 'mcp 2025 resources/list', expect: [200], send: () => mcp('2025-11-25', 'resources/list') },
      {
        name: 'mcp 2026 subscriptions/listen, left after 300 ms',
        expect: [200],
        send: () => givenUp(300, (signal) => mcp('2026-07-28', 'subscriptions/listen', {}, { signal })),
      },
      {
        name: 'mcp 2026 tools/call given up after 5 ms',
        expect: [200],
        send: () =>
          givenUp(5, (signal) => mcp('2026-07-28', 'tools/call', { name: 'trial_balance', arguments: {} }, { signal })),
      },
      {
        name: 'mcp 2025 tools/call given up after 5 ms',
        expect: [200],
        send: () =>
          givenUp(5, (signal) => mcp('2025-11-25', 'tools/call', { name: 'trial_balance', arguments: {} }, { signal })),
      },
      // refused
      {
        name: 'refused: mcp GET (no SSE stream)',
        expect: [405],
        send: () => rawMcp('GET', undefined, { accept: 'text/event-stream' }),
      },
      { name: 'refused: mcp DELETE', expect: [405], send: () => rawMcp('DELETE') },
      { name: 'refused: mcp body not JSON', expect: [400], send: () => rawMcp('POST', '{"jsonrpc":') },
      {
        name: 'refused: mcp body nested too deep',
        expect: [400],
        send: () => rawMcp('POST', `${'['.repeat(100)}${']'.repeat(100)}`),
      },
      {
        name: 'refused: mcp headers too large',
        expect: [431],
        send: () => rawMcp('POST', '{}', { 'x-padding': 'a'.repeat(20_000) }),
      },
      {
        name: 'refused: mcp without token',
        expect: [401],
        send: () => mcp('2026-07-28', 'tools/list', {}, { token: null }),
      },
      {
        name: 'refused: mcp unknown token',
        expect: [401],
        send: () => mcp('2025-11-25', 'tools/list', {}, { token: `mcp_at_${'x'.repeat(43)}` }),
      },
      {
        name: 'refused: mcp from another Origin without a token',
        expect: [403],
        send: () => mcp('2026-07-28', 'tools/list', {}, { token: null, headers: { origin: 'https://evil.example' } }),
      },
      {
        name: 'refused: mcp unknown tool',
        expect: [200, 400, 404],
        send: () => mcp('2026-07-28', 'tools/call', { name: 'no_such_tool', arguments: {} }),
      },
      {
        name: 'refused: mcp tool outside scope',
        expect: [200, 403],
        send: () =>
          mcp(
            '2026-07-28',
            'tools/call',
            { name: 'create_vendor', arguments: { name: 'x' } },
            { token: reader.tokens.access_token },
          ),
      },
      {
        name: 'refused: metadata of unknown dataset',
        expect: [404],
        send: () => get('/.well-known/oauth-protected-resource/mcp/no-such-company'),
      },
      {
        name: 'refused: invalid refresh token',
        expect: [400],
        send: () =>
          fetch(`${stack.apiUrl}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: 'mcp_rt_nope',
              client_id: client.clientId,
            }),
          }),
      },
      { name: 'refused: authorize without parameters', expect: [400], send: () => get('/oauth/authorize') },
      {
        name: 'refused: client registration (limit)',
        expect: [201, 429],
        send: () =>
          fetch(`${stack.apiUrl}/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              client_name: 'Soak',
              redirect_uris: ['http://127.0.0.1:8976/callback'],
              token_endpoint_auth_method: 'none',
            }),
          }),
      },
    ];

    /** One new connection (consent, code exchange) that lists its tools and calls one; one at a time. */
    const reconnect: Op = {
      name: 'new connection (consent again), its tools/list and a tools/call',
      expect: [200],
      concurrency: 1,
      // read once what a connection caches has expired (its service credential lives 60 s)
      settleMs: 65_000,
      async send() {
        let fresh: TokenSet;
        try {
          fresh = await consent();
        } catch (err) {
          console.warn(`soak: consent failed: ${(err as Error).message.slice(0, 300)}`);
          return new Response(null, { status: 599 });
        }
        const list = await mcp('2026-07-28', 'tools/list', {}, { token: fresh.access_token });
        await list.arrayBuffer();
        const call = await mcp(
          '2026-07-28',
          'tools/call',
          { name: 'search_vendors', arguments: { name: 'Papeterie' } },
          { token: fresh.access_token },
        );
        await call.arrayBuffer();
        return new Response(null, { status: list.status !== 200 ? list.status : call.status });
      },
    };

    const tally = new Map<string, Map<number, number>>();
    let requests = 0;
    let unexpected = 0;
    const unexpectedSeen = new Set<string>();
    const record = (name: string, status: number, expected: boolean) => {
      requests++;
      const byStatus = tally.get(name) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      tally.set(name, byStatus);
      if (expected) return;
      unexpected++;
      if (!unexpectedSeen.has(`${name} ${status}`)) {
        unexpectedSeen.add(`${name} ${status}`);
        console.warn(`soak: unexpected ${status < 0 ? `tool error (HTTP ${-status})` : status} for ${name}`);
      }
    };

    const memory = async (): Promise<Omit<Sample, 't'>> =>
      (await (await fetch(`${probe}/memory`)).json()) as Omit<Sample, 't'>;
    const snapshot = async (label: string) => {
      if (!SNAPSHOTS) return;
      mkdirSync(SNAPSHOTS, { recursive: true });
      const file = join(resolve(SNAPSHOTS), `gateway-${label}.heapsnapshot`);
      await (await fetch(`${probe}/snapshot?file=${encodeURIComponent(file)}`)).json();
      console.log(`soak: heap snapshot ${file}`);
    };

    const baseline = await memory();
    // the same traffic for WARMUP seconds first: samples are taken after it (compiled code,
    // connection pools and the caches' working set are in place by then)
    const trafficStarted = performance.now();
    const started = trafficStarted + WARMUP * 1000;
    const elapsed = () => (performance.now() - started) / 1000;
    const deadline = started + SECONDS * 1000;
    const samples: Sample[] = [];
    let refreshes = 0;

    const worker = async (offset: number) => {
      for (let i = offset; performance.now() < deadline; i++) {
        const op = ops[i % ops.length]!;
        try {
          const res = await op.send();
          const text = await res.text();
          // a tool that answered an error is an unexpected answer too (HTTP 200 either way)
          const toolError =
            op.name.includes('tools/call') && !op.name.startsWith('refused') && text.includes('"isError":true');
          record(op.name, toolError ? -res.status : res.status, !toolError && op.expect.includes(res.status));
        } catch {
          record(op.name, 0, false);
        }
      }
    };
    const refresher = async () => {
      while (performance.now() < deadline) {
        const res = await tokenRequest(stack.apiUrl, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: client.clientId,
        });
        record('OAuth token refresh', res.status, res.status === 200);
        if (res.status !== 200) throw new Error(`token refresh failed: ${res.status} ${JSON.stringify(res.body)}`);
        tokens = res.body as unknown as TokenSet;
        refreshes++;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    let reconnects = 0;
    const reconnector = async () => {
      while (performance.now() < deadline) {
        const res = await reconnect.send();
        record(reconnect.name, res.status, reconnect.expect.includes(res.status));
        if (res.status === 200) reconnects++;
        else await new Promise((r) => setTimeout(r, 1000));
      }
    };
    const sampler = async () => {
      let snapped = false;
      for (let next = SAMPLE_SECONDS; next <= SECONDS + 1e-9; next += SAMPLE_SECONDS) {
        const wait = started + next * 1000 - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const t = elapsed();
        samples.push({ t, ...(await memory()) });
        if (!snapped && t >= SECONDS / 3) {
          snapped = true;
          await snapshot('1-third');
        }
      }
    };
    await Promise.all([
      ...Array.from({ length: CONNECTIONS }, (_, i) => worker(i * 3)),
      refresher(),
      reconnector(),
      sampler(),
    ]);
    const duration = (performance.now() - trafficStarted) / 1000;
    await snapshot('2-end');

    const rss = thirds(samples, SECONDS, 'rss');
    const heap = thirds(samples, SECONDS, 'heapUsed');
    const parts = samples.map(rssParts);
    const partFloors = (key: keyof RssParts) =>
      [0, 1, 2].map((i) => {
        const inThird = parts.filter(
          (_, j) => samples[j]!.t >= (i * SECONDS) / 3 && (i === 2 || samples[j]!.t < ((i + 1) * SECONDS) / 3),
        );
        return inThird.length ? Math.min(...inThird.map((p) => p[key])) / MiB : NaN;
      });
    const last = parts.at(-1)!;
    const mib = (n: number) => n.toFixed(1).padStart(6);
    const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;
    console.log(
      `\ngateway soak: ${SECONDS} s of mixed traffic after ${WARMUP} s of the same (${ops.length} request ` +
        `kinds + token refresh + new connections), ${CONNECTIONS} clients, memory after forced GC every ` +
        `${SAMPLE_SECONDS} s, store ${STORE === 'postgres' ? 'Postgres + Redis' : 'SQLite + memory'}, ` +
        `${cpus().length} CPUs`,
    );
    console.log(
      `requests ${requests} (${(requests / duration).toFixed(0)} req/s), token refreshes ${refreshes}, new ` +
        `connections ${reconnects}, unexpected answers ${unexpected}`,
    );
    console.log(
      `RSS after GC       before traffic ${mib(baseline.rss / MiB)} MiB   floor per third ` +
        `${rss.floors.map(mib).join(' /')} MiB`,
    );
    console.log(
      `heapUsed after GC  before traffic ${mib(baseline.heapUsed / MiB)} MiB   floor per third ` +
        `${heap.floors.map(mib).join(' /')} MiB`,
    );
    console.log(
      `RSS floor slope, middle → last third: ${signed(rss.perMinute)} MiB/min (${signed(rss.floorGrowth)} ` +
        `MiB); least squares over the last two thirds ${signed(rss.lsPerMinute)} MiB/min`,
    );
    console.log(
      `heapUsed floor slope, middle → last third: ${signed(heap.perMinute)} MiB/min ` +
        `(${signed(heap.floorGrowth)} MiB); least squares over the last two thirds ${signed(heap.lsPerMinute)} ` +
        `MiB/min`,
    );
    console.log(
      `RSS at the end: V8 heap committed ${mib(last.v8Committed / MiB)} MiB (young generation ` +
        `${(last.youngGeneration / MiB).toFixed(1)} MiB), native ${mib(last.native / MiB)} MiB, mapped files ` +
        `${mib(last.files / MiB)} MiB; native floor per third ${partFloors('native').map(mib).join(' /')} MiB`,
    );
    const perKind = PER_KIND > 0 ? await retainedPerKind([...ops, reconnect], PER_KIND, memory) : [];

    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    const file = new URL(`./results/soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, import.meta.url);
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          benchmark: 'soak',
          at: new Date().toISOString(),
          cpus: cpus().length,
          node: process.version,
          seconds: SECONDS,
          warmupSeconds: WARMUP,
          sampleSeconds: SAMPLE_SECONDS,
          connections: CONNECTIONS,
          store: STORE,
          requests,
          tokenRefreshes: refreshes,
          newConnections: reconnects,
          unexpected,
          statuses: Object.fromEntries([...tally].map(([name, byStatus]) => [name, Object.fromEntries(byStatus)])),
          baselineMiB: {
            rss: Number((baseline.rss / MiB).toFixed(1)),
            heapUsed: Number((baseline.heapUsed / MiB).toFixed(1)),
          },
          rssMiB: {
            floorsPerThird: rss.floors.map((f) => Number(f.toFixed(1))),
            floorGrowth: Number(rss.floorGrowth.toFixed(1)),
            slopePerMinute: Number(rss.perMinute.toFixed(1)),
            leastSquaresPerMinute: Number(rss.lsPerMinute.toFixed(1)),
          },
          heapUsedMiB: {
            floorsPerThird: heap.floors.map((f) => Number(f.toFixed(1))),
            floorGrowth: Number(heap.floorGrowth.toFixed(1)),
            slopePerMinute: Number(heap.perMinute.toFixed(1)),
            leastSquaresPerMinute: Number(heap.lsPerMinute.toFixed(1)),
          },
          nativeFloorsPerThirdMiB: partFloors('native').map((f) => Number(f.toFixed(1))),
          ...(perKind.length ? { perKind } : {}),
          samples: samples.map((s) => ({
            t: Number(s.t.toFixed(1)),
            ...Object.fromEntries(
              (['rss', 'rssAnon', 'rssFile', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const).map((k) => [
                `${k}MiB`,
                Number(((s[k] ?? NaN) / MiB).toFixed(1)),
              ]),
            ),
            spacesMiB: Object.fromEntries(
              Object.entries(s.spaces).map(([name, v]) => [
                name,
                [Number((v.physical / MiB).toFixed(1)), Number((v.used / MiB).toFixed(1))],
              ]),
            ),
          })),
        },
        null,
        2,
      )}\n`,
    );
    console.log(`written ${file.pathname}`);
  } finally {
    for (const fn of teardowns.reverse()) await fn();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
