/**
 * The connection check of a `tools/call` is the tool's own REST call: the ledger refuses a
 * service credential whose connection may no longer live (403 connection_not_allowed), and
 * the gateway then ends the connection for good and answers 401 invalid_token. Every other
 * request still asks the ledger first. Signed credentials are cached per exact claim set.
 */
import t from 'tap';
import { decodeJwt } from 'jose';
import { LedgerClient, credentialKey, type CredentialSubject } from '../src/ledgerClient.ts';
import { connect, startStack, type Stack } from './helpers.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One 2026-07-28 JSON-RPC POST (as the v2 client sends it), or a 2025-era one. */
async function mcp(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  era: 'modern' | 'legacy' = 'modern',
) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  let body: Record<string, unknown>;
  if (era === 'modern') {
    headers['mcp-protocol-version'] = '2026-07-28';
    headers['mcp-method'] = method;
    if (typeof params.name === 'string') headers['mcp-name'] = params.name;
    body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } };
  } else {
    headers['mcp-protocol-version'] = '2025-11-25';
    body = { jsonrpc: '2.0', id: 1, method, params };
  }
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const json = text.startsWith('{')
    ? JSON.parse(text)
    : /^data: (.*)$/m.exec(text)?.[1]
      ? JSON.parse(/^data: (.*)$/m.exec(text)![1]!)
      : text;
  return { status: res.status, body: json, challenge: res.headers.get('www-authenticate') ?? '' };
}

t.test('the ledger checks the connection on every tools/call; the gateway ends it for good', async (t) => {
  const stack: Stack = await startStack(t);
  const { connections, ledger } = stack.gateway.deps;
  let memberLookups = 0;
  const member = ledger.member.bind(ledger);
  ledger.member = (dataset, userId) => {
    memberLookups++;
    return member(dataset, userId);
  };
  const endReason = async (token: string) => (await connections.findToken('access', token))?.connection;

  t.test('a tools/call needs no separate member lookup; tools/list still has one', async (t) => {
    const a = await stack.company();
    const { resource, tokens } = await connect(stack, a, { choices: { contacts: 'read' } });
    memberLookups = 0;
    const call = await mcp(resource, tokens.access_token, 'tools/call', { name: 'search_vendors', arguments: {} });
    t.equal(call.status, 200, JSON.stringify(call.body));
    t.notOk(call.body.result?.isError);
    t.equal(memberLookups, 0, 'the REST call was the check');
    const list = await mcp(resource, tokens.access_token, 'tools/list');
    t.equal(list.status, 200);
    t.ok(list.body.result.tools.some((x: { name: string }) => x.name === 'search_vendors'));
    t.equal(memberLookups, 1, 'tools/list asks the ledger');
    const conn = await endReason(tokens.access_token);
    t.equal(conn?.state, 'active');
  });

  const cases: {
    label: string;
    reason: string;
    change(stack: Stack, a: Awaited<ReturnType<Stack['company']>>, userId: number): Promise<unknown>;
    undo(stack: Stack, a: Awaited<ReturnType<Stack['company']>>, userId: number): Promise<unknown>;
  }[] = [
    {
      label: 'demoted to accountant',
      reason: 'role_lost',
      change: (s, a, id) =>
        s.ledger.db('memberships').where({ company_id: a.company.id, user_id: id }).update({ role: 'accountant' }),
      undo: (s, a, id) =>
        s.ledger.db('memberships').where({ company_id: a.company.id, user_id: id }).update({ role: 'admin' }),
    },
    {
      label: 'account deactivated',
      reason: 'user_deactivated',
      change: (s, _a, id) => s.ledger.db('users').where({ id }).update({ active: false }),
      undo: (s, _a, id) => s.ledger.db('users').where({ id }).update({ active: true }),
    },
    {
      label: 'AI connections switched off in the ledger',
      reason: 'ai_connections_off',
      change: (s, a) => s.ledger.db('companies').where({ id: a.company.id }).update({ ai_connections_enabled: false }),
      undo: (s, a) => s.ledger.db('companies').where({ id: a.company.id }).update({ ai_connections_enabled: true }),
    },
  ];
  for (const c of cases) {
    t.test(
      `${c.label}: the next tools/call answers 401 invalid_token and the connection is ended for good`,
      async (t) => {
        const a = await stack.company();
        const admin = await a.addMember('admin');
        const { resource, tokens, clientId } = await connect(stack, a, {
          person: admin,
          choices: { contacts: 'write' },
        });
        const before = await mcp(resource, tokens.access_token, 'tools/call', {
          name: 'search_vendors',
          arguments: {},
        });
        t.equal(before.status, 200);
        await c.change(stack, a, admin.userId);
        memberLookups = 0;
        const after = await mcp(resource, tokens.access_token, 'tools/call', {
          name: 'create_vendor',
          arguments: { name: 'Must Not Exist AG' },
        });
        t.equal(after.status, 401, JSON.stringify(after.body));
        t.equal(after.body.error, 'invalid_token');
        t.match(after.challenge, /error="invalid_token"/);
        t.equal(memberLookups, 0, 'detected by the REST call itself');
        const conn = await endReason(tokens.access_token);
        t.equal(conn?.state, 'ended');
        t.equal(conn?.end_reason, c.reason);
        t.equal(
          (await stack.ledger.db('parties').where({ company_id: a.company.id, name: 'Must Not Exist AG' })).length,
          0,
          'nothing was written',
        );

        await c.undo(stack, a, admin.userId);
        const again = await mcp(resource, tokens.access_token, 'tools/call', { name: 'search_vendors', arguments: {} });
        t.equal(again.status, 401, 'ended is final, even when access returns');
        const refresh = await fetch(`${stack.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: clientId,
            refresh_token: tokens.refresh_token,
          }),
        });
        t.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant', 'and cannot be refreshed');
      },
    );
  }

  t.test(
    'a tools/call that never reaches the ledger (invalid input) is still checked before it is answered',
    async (t) => {
      const a = await stack.company();
      const admin = await a.addMember('admin');
      const { resource, tokens } = await connect(stack, a, { person: admin, choices: { contacts: 'read' } });
      await stack.ledger
        .db('memberships')
        .where({ company_id: a.company.id, user_id: admin.userId })
        .update({ role: 'clerk' });
      const res = await mcp(resource, tokens.access_token, 'tools/call', {
        name: 'get_vendor',
        arguments: { id: 'not-a-number' },
      });
      t.equal(res.status, 401, JSON.stringify(res.body));
      t.equal((await endReason(tokens.access_token))?.end_reason, 'role_lost');
    },
  );

  t.test('other requests ask the ledger first: tools/list, and 2025-era tools/call', async (t) => {
    const a = await stack.company();
    const admin = await a.addMember('admin');
    const role = (r: string) =>
      stack.ledger.db('memberships').where({ company_id: a.company.id, user_id: admin.userId }).update({ role: r });
    const first = await connect(stack, a, { person: admin, choices: { contacts: 'read' } });
    await role('viewer');
    const list = await mcp(first.resource, first.tokens.access_token, 'tools/list');
    t.equal(list.status, 401);
    t.equal((await endReason(first.tokens.access_token))?.end_reason, 'role_lost');
    // one connection per person, company and app: the second is made after the first ended
    await role('admin');
    const second = await connect(stack, a, { person: admin, choices: { contacts: 'write' } });
    await role('viewer');
    const legacy = await mcp(
      second.resource,
      second.tokens.access_token,
      'tools/call',
      { name: 'search_vendors', arguments: {} },
      'legacy',
    );
    t.equal(legacy.status, 401, JSON.stringify(legacy.body));
    t.equal((await endReason(second.tokens.access_token))?.end_reason, 'role_lost');
  });

  t.test(
    'a call beyond the granted scope from a demoted person answers as ended, not with a step-up hint',
    async (t) => {
      const a = await stack.company();
      const admin = await a.addMember('admin');
      const { resource, tokens } = await connect(stack, a, { person: admin, choices: { contacts: 'read' } });
      await stack.ledger
        .db('memberships')
        .where({ company_id: a.company.id, user_id: admin.userId })
        .update({ role: 'accountant' });
      const res = await mcp(resource, tokens.access_token, 'tools/call', {
        name: 'create_vendor',
        arguments: { name: 'x' },
      });
      t.equal(res.status, 401);
      t.equal((await endReason(tokens.access_token))?.end_reason, 'role_lost');
    },
  );
});

t.test('service credentials are cached per exact claim set only', async (t) => {
  const { generateKeyPair } = await import('jose');
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  let now = Date.now();
  const client = new LedgerClient(
    'http://127.0.0.1:9',
    { privateKey, publicJwk: {}, hmacSecret: Buffer.alloc(32) },
    () => now,
  );
  t.teardown(() => client.close());
  const base: CredentialSubject = {
    id: 'conn-1',
    userId: 7,
    dataset: 'acme',
    scopes: ['contacts:read'],
    clientName: 'Assistant',
  };
  const variants: CredentialSubject[] = [
    base,
    { ...base, id: 'conn-2' },
    { ...base, userId: 8 },
    { ...base, dataset: 'other' },
    { ...base, scopes: ['contacts:read', 'invoices:read'] },
    { ...base, scopes: ['contacts:write'] },
    { ...base, clientName: 'Other Assistant' },
  ];
  t.equal(new Set(variants.map(credentialKey)).size, variants.length, 'every claim is part of the key');
  const tokens = await Promise.all(variants.map((v) => client.serviceCredential(v)));
  t.equal(
    new Set(tokens).size,
    variants.length,
    'a distinct credential per connection, person, dataset, scope set and client',
  );
  tokens.forEach((token, i) => {
    const claims = decodeJwt(token);
    const v = variants[i]!;
    t.same(
      [claims.conn, claims.sub, claims.dataset, claims.scope, claims.client_name],
      [v.id, String(v.userId), v.dataset, v.scopes.join(' '), v.clientName],
      `credential ${i} carries exactly its own claims`,
    );
    t.ok(Number(claims.exp) - Number(claims.iat) <= 60, 'lifetime ≤ 60 s');
  });
  const again = await Promise.all(variants.map((v) => client.serviceCredential({ ...v, scopes: [...v.scopes] })));
  t.same(again, tokens, 'the same claims: reused');
  now += 49_000;
  t.equal(await client.serviceCredential(base), tokens[0], 'reused up to 10 s before expiry');
  now += 2_000;
  const renewed = await client.serviceCredential(base);
  t.not(renewed, tokens[0], 'renewed after that');
  const other = await client.serviceCredential(variants[1]!);
  now += 1_000;
  client.forgetCredentials('conn-1');
  t.not(await client.serviceCredential(base), renewed, 'forgotten when the connection ends');
  t.equal(await client.serviceCredential(variants[1]!), other, 'other connections keep theirs');
});
