/**
 * The limits in Redis and what happens when Redis fails (docs/operations.md "Running several
 * replicas"): registration and sign-in refuse with 503 (fail closed), MCP calls go through
 * with a logged warning (fail open), nothing crashes or hangs, and the limits hold again
 * once Redis is back. A real redis-server of this test's own on a free port is stopped and
 * started again; "unreachable" is a closed port. And TRUST_PROXY: which address the
 * per-address limits count.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { clientIp } from '../src/http/clientIp.ts';
import {
  Browser,
  connect,
  eachStore,
  freePort,
  registerClient,
  startReplica,
  startStack,
  totpCode,
} from './helpers.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(what: string, check: () => Promise<boolean>, attempts = 100): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/** A redis-server of this test's own (no persistence), stopped by stop() or at teardown. */
async function ownRedis(t: Teardown, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  let child: ChildProcess | undefined = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  t.teardown(stop);
  await until(`redis-server on ${port}`, () => portOpen(port));
  return { url: `redis://127.0.0.1:${port}`, stop };
}

function collectWarnings(log: { warn: (...args: unknown[]) => void }): string[] {
  const seen: string[] = [];
  log.warn = (...args: unknown[]) => {
    seen.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  return seen;
}

async function metricsText(url: string | undefined): Promise<string> {
  if (!url) throw new Error('no metrics listener');
  return (await fetch(url)).text();
}

t.test('Redis stops and comes back', async (t) => {
  const port = await freePort();
  let redis = await ownRedis(t, port);
  const stack = await startStack(t, { REDIS_URL: redis.url, TRUST_PROXY: '1' });
  t.equal(stack.gateway.deps.limits.kind, 'redis');
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'read' } });
  const client = new Client({ name: 'limits-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  t.equal(
    (await client.callTool({ name: 'search_vendors', arguments: { name: 'a' } })).isError,
    undefined,
    'an MCP call while Redis runs',
  );

  const warnings = collectWarnings(stack.gateway.deps.log as unknown as { warn: (...args: unknown[]) => void });
  await redis.stop();

  t.test('registration: 503 temporarily_unavailable with Retry-After, quickly', async (t) => {
    const started = Date.now();
    const r = await registerClient(stack, {}, { 'X-Forwarded-For': '198.51.100.40' });
    t.equal(r.status, 503);
    t.equal(r.body.error, 'temporarily_unavailable');
    t.ok(Number(r.headers.get('retry-after')) > 0, 'Retry-After');
    t.equal(r.headers.get('cache-control'), 'no-store');
    // not a timing assertion on the happy path: a hung Redis command would hold the request for good
    t.ok(Date.now() - started < 10_000, 'answered, not left hanging');
  });

  t.test('sign-in: a 503 page, whether the password is right or wrong', async (t) => {
    const browser = new Browser(stack.url);
    for (const password of [company.password, 'wrong']) {
      const page = await browser.submit(await browser.get('/signin'), '/signin', {
        email: company.email,
        password,
        totp: totpCode(company.totpSecret),
      });
      t.equal(page.status, 503);
      t.match(page.html, /Sign-in is temporarily unavailable/);
      t.match(page.headers.get('content-type') ?? '', /text\/html/);
    }
  });

  t.test('MCP calls go through without the limit, with a warning', async (t) => {
    for (let i = 0; i < 3; i++) {
      const r = await client.callTool({ name: 'search_vendors', arguments: { name: 'a' } });
      t.equal(r.isError, undefined, `call ${i + 1} answered`);
    }
    t.ok(
      warnings.some((w) => /rate limit store unavailable/.test(w)),
      'warned in the log',
    );
    t.equal(warnings.filter((w) => /rate limit store unavailable/.test(w)).length, 1, 'once, not per call');
    const text = await metricsText(stack.gateway.metricsUrl);
    t.match(text, /gateway_limit_store_errors_total\{limit="mcp"\} [1-9]/);
    t.match(text, /gateway_limit_store_errors_total\{limit="register"\} [1-9]/);
    t.match(text, /gateway_limit_store_errors_total\{limit="signin"\} [1-9]/);
  });

  t.test('Redis back: the limits apply again', async (t) => {
    redis = await ownRedis(t, port);
    await until(
      'registration accepted again',
      async () => (await registerClient(stack, {}, { 'X-Forwarded-For': '198.51.100.41' })).status === 201,
    );
    const page = await new Browser(stack.url).signIn(company);
    t.equal(page.status, 303, 'sign-in works again');
    for (let i = 0; i < 9; i++) await registerClient(stack, {}, { 'X-Forwarded-For': '198.51.100.41' });
    t.equal((await registerClient(stack, {}, { 'X-Forwarded-For': '198.51.100.41' })).status, 429, 'and counts again');
  });
});

t.test('Redis unreachable from the start: the gateway starts, refuses registration, serves MCP', async (t) => {
  const closed = `redis://127.0.0.1:${await freePort()}`;
  const stack = await startStack(t, {});
  const company = await stack.company();
  const { resource, tokens } = await connect(stack, company, { choices: { contacts: 'read' } });
  // a replica of the same store whose Redis cannot be reached
  const replica = await startReplica(t, stack, { REDIS_URL: closed });
  t.equal(replica.deps.limits.kind, 'redis');
  const r = await registerClient({ ...stack, url: replica.url });
  t.equal(r.status, 503);
  const client = new Client({ name: 'limits-test', version: '1' });
  const atReplica = new URL(new URL(resource).pathname, replica.url);
  await client.connect(
    new StreamableHTTPClientTransport(atReplica, {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  t.teardown(() => client.close());
  t.equal(
    (await client.callTool({ name: 'search_vendors', arguments: { name: 'a' } })).isError,
    undefined,
    'MCP calls are served',
  );
  t.equal((await fetch(`${replica.url}/healthz`)).status, 200, 'healthy');
});

eachStore(t, 'TRUST_PROXY', async (t, { startStack }) => {
  t.test('which address is the client', async (t) => {
    t.equal(clientIp('10.0.0.5', '203.0.113.7', 0), '10.0.0.5', 'no proxy trusted: the peer, whatever the header says');
    t.equal(clientIp('10.0.0.5', undefined, 1), '10.0.0.5', 'no header: the peer');
    t.equal(clientIp('10.0.0.5', '203.0.113.7', 1), '203.0.113.7', 'one proxy: the address it appended');
    t.equal(
      clientIp('10.0.0.5', '6.6.6.6, 203.0.113.7', 1),
      '203.0.113.7',
      'what the client wrote itself is left of it and ignored',
    );
    t.equal(clientIp('10.0.0.5', ['6.6.6.6', '203.0.113.7'], 1), '203.0.113.7', 'several header lines form one list');
    t.equal(
      clientIp('10.0.0.5', '6.6.6.6, 203.0.113.7, 10.0.0.9', 2),
      '203.0.113.7',
      'two proxies: two from the right',
    );
    t.equal(
      clientIp('10.0.0.5', '203.0.113.7', 3),
      '203.0.113.7',
      'a shorter chain than configured: its first address',
    );
    t.equal(clientIp('10.0.0.5', 'not-an-ip', 1), '10.0.0.5', 'not an address: the peer');
    t.equal(clientIp('10.0.0.5', '::ffff:203.0.113.7', 1), '203.0.113.7', 'IPv4-mapped IPv6 as IPv4');
  });

  t.test('not set: a client-sent X-Forwarded-For does not escape the registration limit', async (t) => {
    const stack = await startStack(t, {});
    for (let i = 0; i < 10; i++)
      t.equal((await registerClient(stack, {}, { 'X-Forwarded-For': `198.51.100.${i}` })).status, 201);
    t.equal(
      (await registerClient(stack, {}, { 'X-Forwarded-For': '198.51.100.99' })).status,
      429,
      'all counted on the peer address',
    );
  });

  t.test(
    "set: each forwarded address has its own count, and a spoofed entry left of the proxy's does not help",
    async (t) => {
      const stack = await startStack(t, { TRUST_PROXY: '1' });
      const behind = (client: string, spoofed?: string) => ({
        'X-Forwarded-For': spoofed ? `${spoofed}, ${client}` : client,
      });
      for (let i = 0; i < 10; i++)
        t.equal((await registerClient(stack, {}, behind('192.0.2.50', `10.9.9.${i}`))).status, 201);
      t.equal(
        (await registerClient(stack, {}, behind('192.0.2.50', '10.9.9.200'))).status,
        429,
        'the proxy-appended address is counted',
      );
      t.equal(
        (await registerClient(stack, {}, behind('192.0.2.51'))).status,
        201,
        'another client behind the proxy is not affected',
      );
    },
  );

  t.test('invalid settings are refused', async (t) => {
    const { loadConfig } = await import('../src/config.ts');
    for (const bad of ['yes', '-1', '11', '1.5']) t.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY/, bad);
    t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, 1);
    t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    t.equal(loadConfig({}).trustProxy, 0);
  });
});
