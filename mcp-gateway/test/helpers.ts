/**
 * Test helpers: a real ledger (real Postgres test database) and a real gateway on loopback,
 * a person's browser over HTTP with a cookie jar, and the OAuth dance.
 *
 * The gateway's store is a SQLite file with its limits in memory, or (`eachStore`, or the
 * whole suite with GATEWAY_TEST_STORE=postgres) a schema of its own in TEST_DATABASE_URL's
 * database (GATEWAY_DATABASE_URL with a search_path), dropped afterwards, with its limits in
 * Redis (GATEWAY_TEST_REDIS_URL, default 127.0.0.1:6379) under a key prefix of its own. Only the
 * tests whose behaviour depends on the store run on both, through `eachStore` (docs/testing.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import type { Test } from 'tap';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { Secret, TOTP } from 'otpauth';
import {
  createTestCompany,
  startTestLedger,
  TEST_DATABASE_URL,
  type TestCompany,
  type TestMember,
} from '../../ledger-service/test/helpers.ts';
import { loadConfig, type GatewayConfig } from '../src/config.ts';
import type { DepsOverrides } from '../src/deps.ts';
import { startGateway, type RunningGateway } from '../src/server.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Stack {
  ledger: Awaited<ReturnType<typeof startTestLedger>>;
  gateway: RunningGateway;
  /** the Redis key prefix of this stack's limits (a replica shares it) */
  limitKeyPrefix: string;
  /** the public origin = the gateway's address */
  url: string;
  /** moves the gateway's clock forward */
  advance(ms: number): void;
  /** starts another gateway on the same ledger and key (e.g. with other settings) */
  company(opts?: { aiOn?: boolean }): Promise<TestCompany>;
}

/** Which store the gateway tests run on (GATEWAY_TEST_STORE=postgres, else SQLite). */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.GATEWAY_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** The Redis the gateway tests count their limits in (GATEWAY_TEST_REDIS_URL), else memory. */
export const TEST_REDIS_URL = process.env.GATEWAY_TEST_REDIS_URL || undefined;

/** Where a test gateway keeps its state: its database and (with `redisUrl`) its limits. */
export interface TestStore {
  name: string;
  db: 'sqlite' | 'postgres';
  redisUrl?: string;
}

/** The store of a plain `startStack`: SQLite and memory unless the environment names others. */
export const DEFAULT_STORE: TestStore = {
  name: TEST_STORE === 'postgres' ? 'Postgres' : 'SQLite',
  db: TEST_STORE,
  ...(TEST_REDIS_URL ? { redisUrl: TEST_REDIS_URL } : {}),
};

/** The replica setup: Postgres (a schema of its own) with the limits in Redis. */
export const REPLICA_STORE: TestStore = {
  name: 'Postgres with Redis',
  db: 'postgres',
  redisUrl: TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/**
 * A test whose behaviour depends on the store (limits, single use of codes and tokens, the end
 * of connections, idempotency) runs once on each: SQLite with its limits in memory and the replica
 * setup. `fn` gets the `startStack` of that store (it shadows the plain one inside the test); when
 * the environment already chose the replica setup for everything, it runs once.
 */
export function eachStore(
  t: Test,
  title: string,
  fn: (t: Test, on: { store: TestStore; startStack: typeof startStack }) => Promise<void>,
): void {
  const replicaAlready = DEFAULT_STORE.db === 'postgres' && DEFAULT_STORE.redisUrl !== undefined;
  const stores = replicaAlready ? [DEFAULT_STORE] : [{ name: 'SQLite', db: 'sqlite' as const }, REPLICA_STORE];
  for (const store of stores) {
    const onStore: typeof startStack = (tt, env = {}, overrides = {}, chosen = store) =>
      startStack(tt, env, overrides, chosen);
    t.test(`${title} [${store.name}]`, (tt) => fn(tt, { store, startStack: onStore }));
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

async function onTestDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh Postgres store for one gateway: a schema of its own in the test database, named in
 * the URL's search_path as an operator would. `drop()` removes it with everything in it.
 */
export async function postgresStore(): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const schema = uniqueName('gw');
  await onTestDatabase((c) => c.query(`create schema "${schema}"`));
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    drop: () => onTestDatabase((c) => c.query(`drop schema if exists "${schema}" cascade`)).then(() => undefined),
  };
}

export async function startStack(
  t: Teardown,
  env: Record<string, string> = {},
  overrides: Omit<DepsOverrides, 'now'> = {},
  store: TestStore = DEFAULT_STORE,
): Promise<Stack> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const ledger = await startTestLedger(t, { gatewayPublicJwk: JSON.stringify(await exportJWK(publicKey)) });
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const schema = store.db === 'postgres' && env.GATEWAY_DATABASE_URL === undefined ? await postgresStore() : undefined;
  const config: GatewayConfig = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LEDGER_URL: ledger.url,
    DATA_DIR: dir,
    GATEWAY_DB: join(dir, 'gateway.sqlite'),
    LOG_LEVEL: 'silent',
    GATEWAY_METRICS_PORT: '0',
    ...(schema ? { GATEWAY_DATABASE_URL: schema.url } : {}),
    ...(store.redisUrl ? { REDIS_URL: store.redisUrl } : {}),
    GATEWAY_PRIVATE_JWK: JSON.stringify(await exportJWK(privateKey)),
    ...env,
  });
  let offset = 0;
  const limitKeyPrefix = overrides.limitKeyPrefix ?? uniqueName('gwtest');
  const gateway = await startGateway({ config, now: () => Date.now() + offset, ...overrides, limitKeyPrefix });
  t.teardown(async () => {
    await gateway.close();
    await schema?.drop();
  });
  ledgerByOrigin.set(new URL(gateway.url).origin, ledger);
  return {
    ledger,
    gateway,
    url: gateway.url,
    limitKeyPrefix,
    advance(ms: number) {
      offset += ms;
    },
    async company(opts = {}) {
      const c = await createTestCompany(ledger);
      if (opts.aiOn !== false)
        await ledger.db('companies').where({ id: c.company.id }).update({ ai_connections_enabled: true });
      return c;
    },
  };
}

/**
 * Another gateway replica beside the stack's: the same configuration (public URL, key, store,
 * Redis and key prefix) on its own port, as behind a load balancer; `env` changes settings
 * (e.g. another REDIS_URL). Requests go to `replica.url` directly.
 */
export async function startReplica(
  t: Teardown,
  stack: Stack,
  env: Record<string, string> = {},
  overrides: Omit<DepsOverrides, 'now' | 'limitKeyPrefix'> = {},
): Promise<RunningGateway> {
  const base = stack.gateway.deps.config;
  const changed = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const config: GatewayConfig = {
    ...base,
    port: await freePort(),
    metricsPort: 0,
    ...('REDIS_URL' in env ? { redisUrl: changed.redisUrl } : {}),
    ...('MCP_RATE_LIMIT' in env ? { mcpRateLimit: changed.mcpRateLimit } : {}),
    ...('TRUST_PROXY' in env ? { trustProxy: changed.trustProxy } : {}),
  };
  const replica = await startGateway({ config, limitKeyPrefix: stack.limitKeyPrefix, ...overrides });
  t.teardown(() => replica.close());
  ledgerByOrigin.set(new URL(replica.url).origin, stack.ledger);
  return replica;
}

/** The ledger behind each gateway origin, for sign-ins through `Browser` (see `forgetTotpStep`). */
const ledgerByOrigin = new Map<string, Stack['ledger']>();

/**
 * The ledger accepts each TOTP time step once per person (RFC 6238 §5.2). A real person signs
 * in at most once per 30 s step, but these tests sign the same person in many times a second,
 * each time as a fresh browser; so a test sign-in first forgets the person's last accepted step.
 * Replay itself is tested in ledger-service/src/modules/internal/internal.test.ts.
 */
async function forgetTotpStep(origin: string, email: string): Promise<void> {
  const ledger = ledgerByOrigin.get(new URL(origin).origin);
  if (ledger) await ledger.db('users').where({ email: email.trim().toLowerCase() }).update({ totp_last_step: -1 });
}

export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

export interface Page {
  status: number;
  url: string;
  headers: Headers;
  html: string;
  location: string | null;
}

/** Hidden and checked fields of the form whose action matches, as a browser submits them. */
export function formFields(html: string, action: string): Record<string, string> {
  const forms = [...html.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => decode(f[1]!) === action);
  if (!form) throw new Error(`no form with action ${action}`);
  const out: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input\b([^>]*)>/g)) {
    const tag = m[1]!;
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    const value = decode(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
    const type = /type="([^"]*)"/.exec(tag)?.[1] ?? 'text';
    if (!name) continue;
    if (type === 'radio' && !/\schecked\b/.test(tag)) continue;
    if (type === 'hidden' || type === 'radio') out[decode(name)] = value;
  }
  return out;
}

export function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A person's browser over HTTP: cookie jar, manual redirects. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** sign in as a real person would: without first forgetting the last accepted TOTP step (see forgetTotpStep) */
  keepTotpStep = false;
  /** the browser's Accept-Language: the tests read the app's English texts unless one asks for another */
  language = 'en';

  constructor(readonly origin: string) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const url = new URL(path, this.origin).toString();
    if (method === 'POST' && new URL(url).pathname === '/signin' && form?.email && !this.keepTotpStep)
      await forgetTotpStep(this.origin, form.email);
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        'accept-language': this.language,
        ...headers,
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: res.status,
      url,
      headers: res.headers,
      html: await res.text(),
      location: res.headers.get('location'),
    };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** Submits the form with this action found on `page`, overriding some fields. */
  submit(page: Page, action: string, values: Record<string, string> = {}) {
    return this.request('POST', action, { ...formFields(page.html, action), ...values });
  }

  async signIn(
    person: { email: string; password: string; totpSecret: string },
    returnTo = '/account/ai-connections',
  ): Promise<Page> {
    const page = await this.get(`/signin?return_to=${encodeURIComponent(returnTo)}`);
    return this.submit(page, '/signin', {
      email: person.email,
      password: person.password,
      totp: totpCode(person.totpSecret),
    });
  }
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function postForm(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

export const REDIRECT = 'http://127.0.0.1:7777/callback';

export async function registerClient(
  stack: Stack,
  meta: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return postJson(
    `${stack.url}/oauth/register`,
    { client_name: 'Test Assistant', redirect_uris: [REDIRECT], ...meta },
    headers,
  );
}

export interface AuthParams {
  client_id: string;
  redirect_uri?: string;
  resource?: string;
  state?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
}

export function authorizePath(p: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/**
 * The whole front channel: authorize → sign-in → consent → the redirect with a code.
 * `choices` maps areas to none/read/write; by default the preselection is kept.
 */
export async function authorize(
  _stack: Stack,
  browser: Browser,
  person: TestMember,
  params: AuthParams,
  choices: Record<string, string> = {},
): Promise<{ code: string; callback: URL; consent: Page }> {
  let page = await browser.get(
    authorizePath({
      response_type: 'code',
      code_challenge_method: 'S256',
      state: 'st-1',
      redirect_uri: REDIRECT,
      ...params,
    }),
  );
  if (page.status === 302 && page.location?.startsWith('/signin')) {
    const signin = await browser.get(page.location);
    page = await browser.submit(signin, '/signin', {
      email: person.email,
      password: person.password,
      totp: totpCode(person.totpSecret),
    });
    if (page.status !== 303) throw new Error(`sign-in failed: ${page.status} ${page.html.slice(0, 300)}`);
    page = await browser.get(page.location!);
  }
  if (page.status !== 200)
    throw new Error(`no consent page: ${page.status} ${page.location} ${page.html.slice(0, 500)}`);
  const values: Record<string, string> = { decision: 'allow' };
  for (const [area, v] of Object.entries(choices)) values[`area_${area}`] = v;
  const done = await browser.submit(page, '/oauth/authorize', values);
  if (done.status !== 303 || !done.location)
    throw new Error(`consent did not redirect: ${done.status} ${done.html.slice(0, 300)}`);
  const callback = new URL(done.location);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${done.location}`);
  return { code, callback, consent: page };
}

/** A connected client: registered, authorized, tokens obtained. */
const defaultClients = new WeakMap<Stack, { client_id: string }>();

/** One registered client per stack (registrations are limited to 10 per hour per address). */
export async function defaultClient(stack: Stack): Promise<{ client_id: string }> {
  let client = defaultClients.get(stack);
  if (!client) {
    const res = await registerClient(stack);
    if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
    client = res.body as { client_id: string };
    defaultClients.set(stack, client);
  }
  return client;
}

export async function connect(
  stack: Stack,
  company: TestCompany,
  opts: { choices?: Record<string, string>; person?: TestMember; browser?: Browser } = {},
) {
  const client = await defaultClient(stack);
  const { verifier, challenge } = pkce();
  const resource = `${stack.url}/mcp/${company.dataset}`;
  const browser = opts.browser ?? new Browser(stack.url);
  const { code } = await authorize(
    stack,
    browser,
    opts.person ?? company,
    { client_id: client.client_id, resource, code_challenge: challenge },
    opts.choices,
  );
  const token = await postForm(`${stack.url}/oauth/token`, {
    grant_type: 'authorization_code',
    client_id: client.client_id,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource,
  });
  if (token.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(token.body)}`);
  return {
    clientId: client.client_id as string,
    resource,
    tokens: token.body as { access_token: string; refresh_token: string; scope: string },
    browser,
  };
}
