import t from 'tap';
import { Browser, connect, eachStore, postForm } from './helpers.ts';

/**
 * Every connection-ending transition of docs/oauth.md "Connections", detected at the latest on the
 * next request (resolveAccessToken is what the MCP endpoint calls per request) or on refresh.
 */
eachStore(t, 'connection lifecycle', async (t, { startStack }) => {
  const stack = await startStack(t);
  const { connections, db } = stack.gateway.deps;
  const resolve = (token: string) => connections.resolveAccessToken(token);
  const refresh = (clientId: string, token: string) =>
    postForm(`${stack.url}/oauth/token`, { grant_type: 'refresh_token', client_id: clientId, refresh_token: token });
  const endReason = async (token: string) => {
    const found = await connections.findToken('access', token);
    return found?.connection.end_reason;
  };

  t.test('active: use records last_used_at, at most once a minute', async (t) => {
    const a = await stack.company();
    const { tokens } = await connect(stack, a);
    const r1 = await resolve(tokens.access_token);
    t.ok(r1.ok);
    const id = r1.ok ? r1.connection.id : '';
    const before = (await connections.get(id))!.last_used_at;
    stack.advance(30_000);
    await resolve(tokens.access_token);
    t.equal((await connections.get(id))!.last_used_at, before, 'not written again within a minute');
    stack.advance(31_000);
    await resolve(tokens.access_token);
    t.ok((await connections.get(id))!.last_used_at > before, 'written after a minute');
  });

  t.test('AI connections switched off: ends at the next request, and stays ended when switched on again', async (t) => {
    const a = await stack.company();
    const { tokens, clientId } = await connect(stack, a);
    await stack.ledger.db('companies').where({ id: a.company.id }).update({ ai_connections_enabled: false });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' });
    t.equal(await endReason(tokens.access_token), 'ai_connections_off');
    await stack.ledger.db('companies').where({ id: a.company.id }).update({ ai_connections_enabled: true });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' }, 'ended is final');
    t.equal((await refresh(clientId, tokens.refresh_token)).body.error, 'invalid_grant');
  });

  t.test('90 days without use', async (t) => {
    const a = await stack.company();
    const b = await stack.company();
    const { tokens, clientId } = await connect(stack, a);
    const other = await connect(stack, b);
    stack.advance(89 * 24 * 3600_000);
    const kept = await refresh(other.clientId, other.tokens.refresh_token);
    t.equal(kept.status, 200, 'used on day 89: lives on');
    stack.advance(2 * 24 * 3600_000);
    const res = await refresh(clientId, tokens.refresh_token);
    t.equal(res.body.error, 'invalid_grant', 'day 91 without use: ended');
    t.match(res.body.error_description, /90 days/);
    t.equal(await endReason(tokens.access_token), 'idle');
    t.equal(
      (await refresh(other.clientId, kept.body.refresh_token)).status,
      200,
      'the connection used on day 89 is still active',
    );
  });

  t.test('idle connections also end at the next request with an access token', async (t) => {
    const a = await stack.company();
    const { tokens } = await connect(stack, a);
    const id = (await connections.findToken('access', tokens.access_token))!.connection.id;
    // an access token cannot outlive an hour, so the check is seen with the stored time moved back
    const now = stack.gateway.deps.now();
    await db('connections')
      .where({ id })
      .update({ last_used_at: now - 91 * 24 * 3600_000 });
    await db('tokens')
      .where({ connection_id: id, kind: 'access' })
      .update({ expires_at: now + 3600_000 });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' });
    t.equal(await endReason(tokens.access_token), 'idle');
  });

  t.test('the person is no longer owner or admin', async (t) => {
    const a = await stack.company();
    const admin = await a.addMember('admin');
    const { tokens, clientId } = await connect(stack, a, { person: admin });
    t.ok((await resolve(tokens.access_token)).ok);
    await stack.ledger
      .db('memberships')
      .where({ company_id: a.company.id, user_id: admin.userId })
      .update({ role: 'accountant' });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' });
    t.equal(await endReason(tokens.access_token), 'role_lost');
    await stack.ledger
      .db('memberships')
      .where({ company_id: a.company.id, user_id: admin.userId })
      .update({ role: 'admin' });
    t.equal(
      (await refresh(clientId, tokens.refresh_token)).body.error,
      'invalid_grant',
      'not restored when the role returns',
    );
  });

  t.test('the person loses access to the company (detected on refresh)', async (t) => {
    const a = await stack.company();
    const admin = await a.addMember('admin');
    const { tokens, clientId } = await connect(stack, a, { person: admin });
    await stack.ledger.db('memberships').where({ company_id: a.company.id, user_id: admin.userId }).delete();
    const res = await refresh(clientId, tokens.refresh_token);
    t.equal(res.body.error, 'invalid_grant');
    t.match(res.body.error_description, /no longer has access/);
    t.equal(await endReason(tokens.access_token), 'membership_lost');
  });

  t.test('the account is deactivated', async (t) => {
    const a = await stack.company();
    const { tokens } = await connect(stack, a);
    await stack.ledger.db('users').where({ id: a.userId }).update({ active: false });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' });
    t.equal(await endReason(tokens.access_token), 'user_deactivated');
    await stack.ledger.db('users').where({ id: a.userId }).update({ active: true });
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'ended' }, 'ended is final');
  });

  t.test(
    'connecting the same app again replaces the connection, with the same access or other (reconnect.test.ts)',
    async (t) => {
      const a = await stack.company();
      const browser = new Browser(stack.url);
      const first = await connect(stack, a, { browser });
      const same = await connect(stack, a, { browser });
      t.match(await resolve(first.tokens.access_token), { ok: false, reason: 'ended' }, 'the same access: replaced');
      t.equal(await endReason(first.tokens.access_token), 'replaced');
      const more = await connect(stack, a, { browser, choices: { bank: 'read' } });
      t.match(await resolve(same.tokens.access_token), { ok: false, reason: 'ended' }, 'more access: replaced as well');
      t.equal(await endReason(same.tokens.access_token), 'replaced');
      t.ok((await resolve(more.tokens.access_token)).ok);
    },
  );

  t.test('the ledger unreachable: the token is not accepted, the connection is not ended', async (t) => {
    const a = await stack.company();
    const { tokens } = await connect(stack, a);
    const ledger = stack.gateway.deps.ledger as unknown as { baseUrl: string };
    const saved = ledger.baseUrl;
    Object.assign(ledger, { baseUrl: 'http://127.0.0.1:1' });
    t.teardown(() => Object.assign(ledger, { baseUrl: saved }));
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'unavailable' });
    const meta = await fetch(`${stack.url}/.well-known/oauth-protected-resource/mcp/${a.dataset}`);
    t.equal(meta.status, 503, 'pages and metadata answer 503 while the ledger is away');
    t.equal(meta.headers.get('retry-after'), '5');
    await meta.body?.cancel();
    Object.assign(ledger, { baseUrl: saved });
    t.ok((await resolve(tokens.access_token)).ok, 'works again once the ledger is back');
  });
});
