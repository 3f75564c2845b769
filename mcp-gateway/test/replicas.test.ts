/**
 * Two gateway replicas on one Postgres store and one Redis (docs/operations.md "Running several replicas"), as behind a
 * load balancer: whatever one replica decided holds at the other. Codes are spent once, a refresh token rotates once,
 * an ended connection is refused everywhere, and the registration and MCP limits count across both. The same run on
 * SQLite and memory limits would not hold across processes; that is why several replicas need GATEWAY_DATABASE_URL and
 * REDIS_URL.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { migrateLatest, openDb } from '../src/db/knex.ts';
import { migrationSource } from '../src/db/migrations/index.ts';
import {
  authorize,
  Browser,
  defaultClient,
  pkce,
  postForm,
  postgresStore,
  REDIRECT,
  registerClient,
  startReplica,
  startStack,
  TEST_REDIS_URL,
  type Stack,
} from './helpers.ts';

const REDIS_URL = TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function replicated(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const store = await postgresStore();
  t.teardown(() => store.drop());
  const stack = await startStack(t, { GATEWAY_DATABASE_URL: store.url, REDIS_URL, TRUST_PROXY: '1', ...env });
  const replica = await startReplica(t, stack);
  return { stack, a: stack.url, b: replica.url, replica };
}

/** A code from the consent page at replica A, for the stack's default client. */
async function freshCode(stack: Stack, company: Awaited<ReturnType<Stack['company']>>) {
  const client = await defaultClient(stack);
  const { verifier, challenge } = pkce();
  const resource = `${stack.url}/mcp/${company.dataset}`;
  const { code } = await authorize(stack, new Browser(stack.url), company, {
    client_id: client.client_id,
    resource,
    code_challenge: challenge,
  });
  const form = {
    grant_type: 'authorization_code',
    client_id: client.client_id,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource,
  };
  return { form, resource, clientId: client.client_id };
}

t.test('two replicas on one Postgres store and one Redis', async (t) => {
  const { stack, a, b } = await replicated(t);
  const company = await stack.company();

  t.test('the store is Postgres and the limits are in Redis', async (t) => {
    t.equal(stack.gateway.deps.db.client.config.client, 'pg');
    t.equal(stack.gateway.deps.limits.kind, 'redis');
  });

  t.test('a code redeemed at both replicas at once is accepted once', async (t) => {
    for (let round = 0; round < 5; round++) {
      const { form } = await freshCode(stack, company);
      const answers = await Promise.all([postForm(`${a}/oauth/token`, form), postForm(`${b}/oauth/token`, form)]);
      const statuses = answers.map((r) => r.status).sort();
      t.same(statuses, [200, 400], `round ${round}: one exchange succeeds`);
      t.equal(answers.find((r) => r.status === 400)!.body.error, 'invalid_grant');
      // the code was presented twice: what it issued is revoked (RFC 6749 §4.1.2)
      const issued = answers.find((r) => r.status === 200)!.body;
      const refresh = await postForm(`${a}/oauth/token`, {
        grant_type: 'refresh_token',
        client_id: form.client_id,
        refresh_token: issued.refresh_token,
      });
      t.equal(refresh.status, 400, 'the tokens of the successful exchange are revoked');
      t.match(refresh.body.error_description, /authorization code was used twice/);
    }
  });

  t.test(
    'a refresh token rotated at both replicas at once rotates once, and the reuse ends the connection',
    async (t) => {
      for (let round = 0; round < 5; round++) {
        const { form, clientId } = await freshCode(stack, company);
        const first = await postForm(`${a}/oauth/token`, form);
        t.equal(first.status, 200);
        const refresh = { grant_type: 'refresh_token', client_id: clientId, refresh_token: first.body.refresh_token };
        const answers = await Promise.all([
          postForm(`${a}/oauth/token`, refresh),
          postForm(`${b}/oauth/token`, refresh),
        ]);
        t.same(answers.map((r) => r.status).sort(), [200, 400], `round ${round}: one rotation`);
        const rotated = answers.find((r) => r.status === 200)!.body;
        const again = await postForm(`${b}/oauth/token`, { ...refresh, refresh_token: rotated.refresh_token });
        t.equal(again.status, 400, 'the presented-twice token ended the connection: the new pair is dead too');
      }
    },
  );

  t.test('a refresh token rotated at one replica and replayed at the other ends the connection', async (t) => {
    const { form, clientId } = await freshCode(stack, company);
    const tokens = (await postForm(`${a}/oauth/token`, form)).body;
    const refresh = { grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token };
    const rotated = await postForm(`${a}/oauth/token`, refresh);
    t.equal(rotated.status, 200);
    const replayed = await postForm(`${b}/oauth/token`, refresh);
    t.equal(replayed.status, 400);
    t.match(replayed.body.error_description, /already used/);
    const afterwards = await postForm(`${a}/oauth/token`, { ...refresh, refresh_token: rotated.body.refresh_token });
    t.equal(afterwards.status, 400, 'the rotated pair ended with the connection');
  });

  t.test('a connection revoked at one replica is refused at the other on the next request', async (t) => {
    const { form, resource } = await freshCode(stack, company);
    const tokens = (await postForm(`${a}/oauth/token`, form)).body;
    const atB = `${b}${new URL(resource).pathname}`;
    const client = new Client({ name: 'replica-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(atB), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    t.ok((await client.listTools()).tools.length > 0, 'works at replica B');
    t.equal((await postForm(`${a}/oauth/revoke`, { token: tokens.access_token })).status, 200, 'revoked at replica A');
    const refused = await fetch(atB, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    t.equal(refused.status, 401, 'replica B refuses it at once');
    t.match(refused.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  t.test('the 11th registration in an hour from one address is refused at whichever replica gets it', async (t) => {
    const from = { 'X-Forwarded-For': '192.0.2.201' };
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? stack : { ...stack, url: b };
      t.equal(
        (await registerClient(target, {}, from)).status,
        201,
        `registration ${i + 1} at replica ${i % 2 === 0 ? 'A' : 'B'}`,
      );
    }
    t.equal((await registerClient({ ...stack, url: b }, {}, from)).status, 429, 'at B');
    t.equal((await registerClient(stack, {}, from)).status, 429, 'at A');
  });
});

t.test('the MCP limit per connection counts across replicas', async (t) => {
  const { stack, a, b } = await replicated(t, { MCP_RATE_LIMIT: '4' });
  const company = await stack.company();
  const { form, resource } = await freshCode(stack, company);
  const tokens = (await postForm(`${a}/oauth/token`, form)).body;
  const path = new URL(resource).pathname;
  const list = (base: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const statuses: number[] = [];
  for (const base of [a, b, a, b]) {
    const r = await list(base);
    statuses.push(r.status);
    await r.body?.cancel();
  }
  t.same(statuses, [200, 200, 200, 200], 'four requests, two at each replica');
  for (const base of [a, b]) {
    const over = await list(base);
    t.equal(over.status, 429, `the fifth in the minute is refused at ${base === a ? 'A' : 'B'}`);
    t.ok(Number(over.headers.get('retry-after')) >= 1);
    await over.body?.cancel();
  }
});

t.test('replicas starting together on a fresh Postgres store: one migrates, every one starts', async (t) => {
  const all = await migrationSource.getMigrations([]);
  for (let round = 0; round < 3; round++) {
    const store = await postgresStore();
    const dbs = [0, 1, 2].map(() => openDb({ kind: 'postgres', url: store.url }));
    try {
      const applied = await Promise.all(dbs.map((db) => migrateLatest(db)));
      t.same(
        applied.map((names) => names.length).sort((x, y) => x - y),
        [0, 0, all.length],
        `round ${round}: the migrations ran once`,
      );
      for (const db of dbs) t.same(await db('connections').select('id'), [], 'the schema is there for each');
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await store.drop();
    }
  }
});
