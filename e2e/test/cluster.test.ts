/**
 * The cluster (docs/operations.md "Running several replicas", issue 14): two ledgers and two gateways on one Postgres
 * and one Redis behind haproxy (support/cluster.ts), and every property that must hold across replicas: limits, refresh
 * rotation, code single use, connection ending, idempotent retries, a ledger killed under load, and one request id in
 * both services' logs.
 */
// npm test: runs alone (fault injection: a ledger killed under load; haproxy's health checks need a quiet machine)
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import t from 'tap';
import { clusterPrerequisites, startCluster, type Cluster } from './support/cluster.ts';
import { authorizeInBrowser, Browser } from './support/browser.ts';
import { connectRaw, mcpPost, registerClient, tokenRequest, type TokenSet } from './support/rawOAuth.ts';
import { person, type DemoCompany } from './support/scenario.ts';

const missing = clusterPrerequisites();
if (missing.length > 0)
  throw new Error(
    `the cluster test needs ${missing.join(' and ')} (npm test installs them as root on Debian, ` +
      `scripts/test-prerequisites.sh; else apt-get install haproxy redis-server)`,
  );

const ALL_WRITE = { contacts: 'write', invoices: 'write', accounting: 'read' } as const;

/** The JSON-RPC answer of an MCP POST (plain JSON or one SSE event). */
async function rpcAnswer(res: Response): Promise<{ id?: unknown; result?: any; error?: any }> {
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('')
    : text;
  return JSON.parse(json) as { id?: unknown; result?: any; error?: any };
}

/** The MCP URL of the dataset at one origin (the public one, or one gateway replica's own). */
const mcpAt = (origin: string, dataset: string) => `${origin}/mcp/${dataset}`;

t.test('two ledgers and two gateways behind haproxy, one Postgres, one Redis', async (t) => {
  const cluster: Cluster = await startCluster(t);
  const [g1, g2] = cluster.gateways as [Cluster['gateways'][0], Cluster['gateways'][0]];
  const [l1, l2] = cluster.ledgers as [Cluster['ledgers'][0], Cluster['ledgers'][0]];
  const demo = JSON.parse(
    await cluster.ledgerCli(['demo', '--dataset', `e2e-cl-${randomBytes(4).toString('hex')}`, '--json']),
  ) as DemoCompany;
  const mcpUrl = demo.mcp_url;
  t.equal(mcpUrl, mcpAt(cluster.apiUrl, demo.dataset), 'the MCP URL is on the public origin (haproxy)');
  // one browser session (stored in the gateways' Postgres): signs in once, consents many times
  const browser = new Browser(cluster.apiUrl);
  let registrations = 0;
  const connect = async (name: string): Promise<{ clientId: string; tokens: TokenSet }> => {
    registrations++;
    const { client, tokens } = await connectRaw(cluster.apiUrl, browser, mcpUrl, person(demo), ALL_WRITE, name);
    return { clientId: client.clientId, tokens };
  };
  const ping = (origin: string, token: string, headers: Record<string, string> = {}) =>
    mcpPost(mcpAt(origin, demo.dataset), token, { id: 1, method: 'ping' }, headers);
  const rest = (origin: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}/client/${demo.dataset}${path}`, {
      method,
      headers: {
        'X-API-Key': demo.api_key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const vendorsNamed = async (name: string) =>
    (
      (await (await rest(cluster.apiUrl, 'GET', `/arap/vendor?name=${encodeURIComponent(name)}`)).json()) as {
        name: string;
      }[]
    ).filter((v) => v.name === name).length;

  const main = await connect('Cluster Main');

  await t.test('one MCP call: its request id in a gateway log line and a ledger log line', async (t) => {
    const requestId = `cluster-trace-${randomBytes(4).toString('hex')}`;
    const res = await mcpPost(
      mcpUrl,
      main.tokens.access_token,
      { id: 3, method: 'tools/call', params: { name: 'search_vendors', arguments: {} } },
      { 'x-request-id': requestId },
    );
    t.equal(res.status, 200);
    t.equal(res.headers.get('x-request-id'), requestId, "answered with the caller's id");
    const answer = await rpcAnswer(res);
    t.notOk(answer.result?.isError, JSON.stringify(answer));
    const seen = async () => {
      for (let i = 0; i < 50; i++) {
        const lines = cluster.logLines().filter((l) => l.entry.reqId === requestId);
        const g = lines.filter((l) => l.process.startsWith('gateway'));
        const l = lines.filter((x) => x.process.startsWith('ledger'));
        if (g.length > 0 && l.length > 0) return { g, l };
        await new Promise((r) => setTimeout(r, 100));
      }
      return { g: [], l: [] };
    };
    const { g, l } = await seen();
    t.ok(
      g.some((x) => x.entry.path === `/mcp/${demo.dataset}`),
      `the gateway logged the MCP request: ${JSON.stringify(g.map((x) => x.entry))}`,
    );
    t.ok(
      l.some((x) => x.entry.path === `/client/${demo.dataset}/arap/vendor`),
      `the ledger logged the tool's REST call: ${JSON.stringify(l.map((x) => x.entry))}`,
    );
  });

  await t.test('an idempotent POST retried at the other replica is replayed, not booked again', async (t) => {
    const name = `Replica Retry ${randomBytes(3).toString('hex')}`;
    for (const [label, a, b] of [
      ['gateways', g1, g2],
      ['ledgers', l1, l2],
    ] as const) {
      const key = `cluster-${label}-${randomBytes(6).toString('hex')}`;
      const first = await rest(a.url, 'POST', '/arap/vendor', { name: `${name} ${label}` }, { 'Idempotency-Key': key });
      const firstBody = await first.json();
      t.equal(first.status, 201, `${label}: created at ${a.name}`);
      const again = await rest(b.url, 'POST', '/arap/vendor', { name: `${name} ${label}` }, { 'Idempotency-Key': key });
      t.equal(again.status, 201);
      t.same(await again.json(), firstBody, `${label}: ${b.name} answers the first answer`);
      t.equal(again.headers.get('idempotent-replayed'), 'true');
      t.equal(await vendorsNamed(`${name} ${label}`), 1, `${label}: one vendor`);
    }
    // an MCP write tool retried with the same JSON-RPC id at the other gateway
    const call = (origin: string) =>
      mcpPost(mcpAt(origin, demo.dataset), main.tokens.access_token, {
        id: 42,
        method: 'tools/call',
        params: { name: 'create_vendor', arguments: { name: `${name} mcp` } },
      });
    const a = await rpcAnswer(await call(g1.url));
    const b = await rpcAnswer(await call(g2.url));
    t.same(
      b.result?.structuredContent,
      a.result?.structuredContent,
      'the tool answers the same vendor at the other gateway',
    );
    t.equal(await vendorsNamed(`${name} mcp`), 1);
  });

  await t.test('the 121st MCP request in a minute is refused whichever replica gets it', async (t) => {
    const { tokens } = await connect('Cluster Rate');
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await ping(cluster.apiUrl, tokens.access_token)).status);
    t.same([...new Set(statuses)], [200], '120 requests through haproxy (alternating replicas) pass');
    const lb = await ping(cluster.apiUrl, tokens.access_token);
    t.equal(lb.status, 429, 'the 121st through haproxy');
    t.ok(Number(lb.headers.get('retry-after')) > 0, 'with Retry-After');
    t.equal((await ping(g1.url, tokens.access_token)).status, 429, `at ${g1.name} directly`);
    t.equal((await ping(g2.url, tokens.access_token)).status, 429, `at ${g2.name} directly`);
    t.equal((await ping(cluster.apiUrl, main.tokens.access_token)).status, 200, 'another connection is not limited');
  });

  await t.test('a refresh token rotated at one replica and replayed at the other ends the connection', async (t) => {
    const { clientId, tokens } = await connect('Cluster Refresh');
    const form = (refresh: string) => ({
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: clientId,
      resource: mcpUrl,
    });
    const rotated = await tokenRequest(g1.url, form(tokens.refresh_token));
    t.equal(rotated.status, 200, `rotated at ${g1.name}`);
    const replayed = await tokenRequest(g2.url, form(tokens.refresh_token));
    t.equal(replayed.status, 400, `the old refresh token replayed at ${g2.name}`);
    t.equal(replayed.body.error, 'invalid_grant');
    const fresh = rotated.body as unknown as TokenSet;
    t.equal(
      (await ping(g1.url, fresh.access_token)).status,
      401,
      'the rotated access token no longer works: the connection ended',
    );
    t.equal((await tokenRequest(g1.url, form(fresh.refresh_token))).status, 400, 'nor the rotated refresh token');
  });

  await t.test('a code redeemed at both replicas at once is accepted once', async (t) => {
    registrations++;
    const client = await registerClient(cluster.apiUrl, 'Cluster Code Race');
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${cluster.apiUrl}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      state: 's1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: mcpUrl,
      scope: 'contacts:read',
    }).toString();
    const { callback } = await authorizeInBrowser(browser, url, person(demo), { contacts: 'read' });
    const code = callback.searchParams.get('code')!;
    const exchange = (origin: string) =>
      tokenRequest(origin, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        code_verifier: verifier,
        resource: mcpUrl,
      });
    const answers = await Promise.all([exchange(g1.url), exchange(g2.url)]);
    t.same(answers.map((a) => a.status).sort(), [200, 400], `one 200, one 400: ${JSON.stringify(answers)}`);
    t.equal(answers.find((a) => a.status === 400)!.body.error, 'invalid_grant');
  });

  await t.test('a disconnect at one replica refuses the token at the other on the next request', async (t) => {
    const { clientId, tokens } = await connect('Cluster Disconnect');
    t.equal((await ping(g2.url, tokens.access_token)).status, 200, `works at ${g2.name}`);
    const revoked = await fetch(`${g1.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: clientId }),
    });
    t.equal(revoked.status, 200, `revoked at ${g1.name}`);
    const refused = await ping(g2.url, tokens.access_token);
    t.equal(refused.status, 401, `refused at ${g2.name}`);
    t.match(refused.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  await t.test('the 11th registration from one address in an hour is refused, whichever replica', async (t) => {
    // haproxy writes the client's address into X-Forwarded-For; the gateways trust one proxy.
    // What the client itself sends there is ignored.
    const register = () =>
      fetch(`${cluster.apiUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${registrations}.1` },
        body: JSON.stringify({
          client_name: 'Counted',
          redirect_uris: ['http://127.0.0.1:8976/callback'],
          token_endpoint_auth_method: 'none',
        }),
      });
    t.ok(registrations < 10, `${registrations} registrations so far`);
    while (registrations < 10) {
      registrations++;
      t.equal((await register()).status, 201, `registration ${registrations}`);
    }
    const eleventh = await register();
    t.equal(eleventh.status, 429, 'the 11th');
    t.ok(Number(eleventh.headers.get('retry-after')) > 0);
    t.equal((await register()).status, 429, 'and the next, at the other replica (round robin)');
  });

  await t.test(
    'a ledger replica killed under load: no acknowledged posting lost, no idempotent request failed',
    async (t) => {
      const prefix = `LOAD-${randomBytes(3).toString('hex')}`;
      const vendor = (await (
        await rest(cluster.apiUrl, 'POST', '/arap/vendor', { name: `${prefix} Vendor` })
      ).json()) as { id: number };
      const total = 160;
      const concurrency = 8;
      const acknowledged = new Map<string, number>();
      const failures: string[] = [];
      let next = 0;
      let killed = false;
      const worker = async () => {
        while (next < total) {
          const n = next++;
          if (n === 40 && !killed) {
            killed = true;
            void l1.kill();
          }
          const documentNumber = `${prefix}-${n}`;
          const res = await rest(
            cluster.apiUrl,
            'POST',
            '/arap/transaction/vendor',
            {
              vendor_id: vendor.id,
              type: 'transaction',
              invDate: '2024-06-03',
              documentNumber,
              pending: '0',
              lines: [{ account: '6500', amount: 10 + n }],
            },
            { 'Idempotency-Key': `${prefix}-key-${n}` },
          );
          const text = await res.text();
          if (res.status === 201) acknowledged.set(documentNumber, (JSON.parse(text) as { id: number }).id);
          else failures.push(`${documentNumber}: ${res.status} ${text.slice(0, 200)}`);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      t.ok(killed, `${l1.name} was killed during the run`);
      t.equal(l1.child.signalCode, 'SIGKILL');
      t.same(failures, [], 'every idempotent POST answered 201 (haproxy retried at the other ledger)');
      t.equal(acknowledged.size, total);
      const listed = (await (
        await rest(cluster.apiUrl, 'GET', `/arap/transactions/vendor?limit=1000&vendor_id=${vendor.id}`)
      ).json()) as { id: number; documentNumber: string; status?: string }[];
      const byNumber = new Map<string, number[]>();
      for (const d of listed) byNumber.set(d.documentNumber, [...(byNumber.get(d.documentNumber) ?? []), d.id]);
      const lost = [...acknowledged].filter(([number, id]) => !byNumber.get(number)?.includes(id));
      t.same(lost, [], 'every acknowledged posting is in the books');
      const doubled = [...byNumber].filter(([, ids]) => ids.length > 1);
      t.same(doubled, [], 'none booked twice');
      t.equal(listed.length, total);
    },
  );
});
