import t from 'tap';
import { authorize, Browser, connect, eachStore, pkce, postForm, REDIRECT, registerClient } from './helpers.ts';

eachStore(t, 'token and revocation endpoints', async (t, { startStack }) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const resource = `${stack.url}/mcp/${a.dataset}`;
  const tokenUrl = `${stack.url}/oauth/token`;
  const client = (await registerClient(stack)).body;
  const browser = new Browser(stack.url);
  await browser.signIn(a);
  const resolve = (token: string) => stack.gateway.deps.connections.resolveAccessToken(token);

  async function newCode() {
    const { verifier, challenge } = pkce();
    const { code } = await authorize(stack, browser, a, {
      client_id: client.client_id,
      resource,
      code_challenge: challenge,
    });
    const exchange = (over: Record<string, string | undefined> = {}) => {
      const form: Record<string, string> = {};
      const all = {
        grant_type: 'authorization_code',
        client_id: client.client_id,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource,
        ...over,
      };
      for (const [k, v] of Object.entries(all)) if (v !== undefined) form[k] = v;
      return postForm(tokenUrl, form);
    };
    return { code, verifier, exchange };
  }

  t.test('code exchange: tokens, no-store, hashes only', async (t) => {
    const { exchange, code } = await newCode();
    const res = await exchange();
    t.equal(res.status, 200);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.equal(res.headers.get('pragma'), 'no-cache');
    t.match(res.body, {
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'accounting:read contacts:read documents:read invoices:read',
    });
    t.match(res.body.access_token, /^mcpat_[A-Za-z0-9_-]{43}$/);
    t.match(res.body.refresh_token, /^mcprt_[A-Za-z0-9_-]{43}$/);
    const dump =
      JSON.stringify(await stack.gateway.deps.db('tokens').select()) +
      JSON.stringify(await stack.gateway.deps.db('authorization_codes').select());
    for (const secret of [res.body.access_token, res.body.refresh_token, code])
      t.notOk(dump.includes(secret), 'stored only as a hash');
    const r = await resolve(res.body.access_token);
    t.ok(r.ok, 'the access token resolves to the connection');
    if (r.ok) {
      t.same(r.connection.scopes, ['accounting:read', 'contacts:read', 'documents:read', 'invoices:read']);
      t.equal(r.connection.dataset, a.dataset);
      t.equal(r.connection.resource, resource);
      t.equal(r.connection.userId, a.userId);
      t.equal(r.connection.clientName, 'Test Assistant');
    }
  });

  t.test('PKCE failures', async (t) => {
    const wrong = await newCode();
    const res = await wrong.exchange({ code_verifier: pkce().verifier });
    t.equal(res.status, 400);
    t.equal(res.body.error, 'invalid_grant');
    t.match(res.body.error_description, /PKCE/);
    t.equal((await wrong.exchange()).body.error, 'invalid_grant', 'the code is spent after a failed attempt');

    const missing = await newCode();
    t.equal((await missing.exchange({ code_verifier: undefined })).body.error, 'invalid_request', 'no verifier');
    const short = await newCode();
    t.equal((await short.exchange({ code_verifier: 'abc' })).body.error, 'invalid_request', 'malformed verifier');
    const challengeAsVerifier = await newCode();
    const r = await challengeAsVerifier.exchange({ code_verifier: 'x'.repeat(43) });
    t.equal(r.body.error, 'invalid_grant');
  });

  t.test('code binding: client, redirect URI, resource', async (t) => {
    const other = (await registerClient(stack)).body;
    const c1 = await newCode();
    t.equal((await c1.exchange({ client_id: other.client_id })).body.error, 'invalid_grant', 'another client');
    const c2 = await newCode();
    t.equal(
      (await c2.exchange({ redirect_uri: 'http://127.0.0.1:7777/other' })).body.error,
      'invalid_grant',
      'another redirect_uri',
    );
    const c3 = await newCode();
    t.equal((await c3.exchange({ redirect_uri: undefined })).body.error, 'invalid_grant', 'redirect_uri left out');
    const c4 = await newCode();
    const noResource = await c4.exchange({ resource: undefined });
    t.equal(noResource.body.error, 'invalid_target', 'resource left out');
    const b = await stack.company();
    const c5 = await newCode();
    t.equal(
      (await c5.exchange({ resource: `${stack.url}/mcp/${b.dataset}` })).body.error,
      'invalid_target',
      "another company's resource",
    );
    t.equal(
      (
        await postForm(tokenUrl, {
          grant_type: 'authorization_code',
          client_id: client.client_id,
          code: 'mcpac_nope',
          code_verifier: pkce().verifier,
          resource,
        })
      ).body.error,
      'invalid_grant',
      'unknown code',
    );
  });

  t.test('the code lives 60 seconds', async (t) => {
    const c = await newCode();
    stack.advance(61_000);
    const res = await c.exchange();
    t.equal(res.body.error, 'invalid_grant');
    t.match(res.body.error_description, /expired/);
  });

  t.test('code replay fails and revokes the tokens issued from the code', async (t) => {
    const c = await newCode();
    const first = await c.exchange();
    t.equal(first.status, 200);
    t.ok((await resolve(first.body.access_token)).ok);
    const second = await c.exchange();
    t.equal(second.status, 400);
    t.equal(second.body.error, 'invalid_grant');
    t.match(second.body.error_description, /already been used/);
    t.match(
      await resolve(first.body.access_token),
      { ok: false, reason: 'ended' },
      'the access token from the code stops working',
    );
    const refresh = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: first.body.refresh_token,
    });
    t.equal(refresh.body.error, 'invalid_grant', 'and so does the refresh token');
  });

  t.test('refresh rotation; reuse ends the connection', async (t) => {
    const { exchange } = await newCode();
    const first = (await exchange()).body;
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      postForm(tokenUrl, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: token, ...extra });

    const second = await refresh(first.refresh_token, { resource });
    t.equal(second.status, 200);
    t.equal(second.headers.get('cache-control'), 'no-store');
    t.not(second.body.refresh_token, first.refresh_token, 'a new refresh token');
    t.not(second.body.access_token, first.access_token, 'a new access token');
    t.equal(second.body.scope, first.scope, 'same scopes');
    t.ok((await resolve(second.body.access_token)).ok);

    t.equal(
      (await refresh(second.body.refresh_token, { resource: `${stack.url}/mcp/other-co` })).body.error,
      'invalid_target',
      'another resource',
    );
    t.equal(
      (await refresh(second.body.refresh_token, { scope: 'bank:read' })).body.error,
      'invalid_scope',
      'more scope than granted',
    );
    const otherClient = (await registerClient(stack)).body;
    t.equal(
      (
        await postForm(tokenUrl, {
          grant_type: 'refresh_token',
          client_id: otherClient.client_id,
          refresh_token: second.body.refresh_token,
        })
      ).body.error,
      'invalid_grant',
      'another client',
    );
    const narrower = await refresh(second.body.refresh_token, { scope: 'accounting:read' });
    t.equal(narrower.status, 200, 'a scope within the grant is fine');

    const reuse = await refresh(first.refresh_token);
    t.equal(reuse.status, 400);
    t.equal(reuse.body.error, 'invalid_grant');
    t.match(reuse.body.error_description, /already used/);
    t.match(await resolve(narrower.body.access_token), { ok: false, reason: 'ended' }, 'the whole connection ended');
    t.equal(
      (await refresh(narrower.body.refresh_token)).body.error,
      'invalid_grant',
      'the newest refresh token is dead too',
    );
    const row = await stack.gateway.deps.db('connections').orderBy('created_at', 'desc').first();
    t.equal(row?.end_reason, 'refresh_reuse');
  });

  t.test('a used refresh token ends the connection also when sent with another client_id or resource', async (t) => {
    const otherClient = (await registerClient(stack)).body;
    const variants: { label: string; form: Record<string, string> }[] = [
      { label: 'another client_id', form: { client_id: otherClient.client_id } },
      { label: 'another resource', form: { client_id: client.client_id, resource: `${stack.url}/mcp/other-co` } },
    ];
    for (const v of variants) {
      const { exchange } = await newCode();
      const first = (await exchange()).body;
      const rotated = await postForm(tokenUrl, {
        grant_type: 'refresh_token',
        client_id: client.client_id,
        refresh_token: first.refresh_token,
      });
      t.equal(rotated.status, 200, `${v.label}: the first refresh rotates`);
      const reuse = await postForm(tokenUrl, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        ...v.form,
      });
      t.equal(reuse.body.error, 'invalid_grant', `${v.label}: invalid_grant`);
      t.match(reuse.body.error_description, /already used/, `${v.label}: answered as reuse`);
      t.match(
        await resolve(rotated.body.access_token),
        { ok: false, reason: 'ended' },
        `${v.label}: the whole connection ended`,
      );
      const newest = await postForm(tokenUrl, {
        grant_type: 'refresh_token',
        client_id: client.client_id,
        refresh_token: rotated.body.refresh_token,
      });
      t.equal(newest.body.error, 'invalid_grant', `${v.label}: the newest refresh token is dead too`);
      const found = await stack.gateway.deps.connections.findToken('access', rotated.body.access_token);
      t.equal(found?.connection.end_reason, 'refresh_reuse', `${v.label}: ended for reuse`);
    }
  });

  t.test('revocation (RFC 7009)', async (t) => {
    const viaAccess = (await (await newCode()).exchange()).body;
    const res = await postForm(`${stack.url}/oauth/revoke`, {
      token: viaAccess.access_token,
      client_id: client.client_id,
      token_type_hint: 'access_token',
    });
    t.equal(res.status, 200);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.match(await resolve(viaAccess.access_token), { ok: false, reason: 'revoked' });
    t.equal(
      (
        await postForm(tokenUrl, {
          grant_type: 'refresh_token',
          client_id: client.client_id,
          refresh_token: viaAccess.refresh_token,
        })
      ).body.error,
      'invalid_grant',
      'revoking the access token ends the connection',
    );

    const viaRefresh = (await (await newCode()).exchange()).body;
    t.equal(
      (await postForm(`${stack.url}/oauth/revoke`, { token: viaRefresh.refresh_token, client_id: client.client_id }))
        .status,
      200,
    );
    t.match(
      await resolve(viaRefresh.access_token),
      { ok: false, reason: 'revoked' },
      'revoking the refresh token ends it too',
    );

    t.equal(
      (await postForm(`${stack.url}/oauth/revoke`, { token: 'mcpat_unknown' })).status,
      200,
      'unknown token: 200',
    );
    const foreign = (await (await newCode()).exchange()).body;
    const other = (await registerClient(stack)).body;
    t.equal(
      (await postForm(`${stack.url}/oauth/revoke`, { token: foreign.access_token, client_id: other.client_id })).status,
      200,
    );
    t.ok((await resolve(foreign.access_token)).ok, 'another client cannot revoke it');
    t.equal((await postForm(`${stack.url}/oauth/revoke`, {})).body.error, 'invalid_request', 'no token');
    t.equal(
      (await postForm(`${stack.url}/oauth/revoke`, { token: 'x', token_type_hint: 'id_token' })).body.error,
      'unsupported_token_type',
    );
  });

  t.test('malformed token requests (RFC 6749 §5.2)', async (t) => {
    const json = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    t.equal(json.status, 400);
    t.equal(((await json.json()) as { error: string }).error, 'invalid_request', 'JSON is not accepted');
    t.equal((await postForm(tokenUrl, {})).body.error, 'invalid_request', 'no grant_type');
    t.equal(
      (await postForm(tokenUrl, { grant_type: 'password', username: 'x', password: 'y' })).body.error,
      'unsupported_grant_type',
    );
    t.equal((await postForm(tokenUrl, { grant_type: 'client_credentials' })).body.error, 'unsupported_grant_type');
    const dup = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=x',
    });
    t.equal(((await dup.json()) as { error: string }).error, 'invalid_request', 'repeated parameter');
    const none = await postForm(tokenUrl, { grant_type: 'refresh_token', client_id: client.client_id });
    t.equal(none.body.error, 'invalid_request');
    t.type(none.body.error_description, 'string');
    const bad = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: `mcprt_${'A'.repeat(43)}`,
    });
    t.equal(bad.body.error, 'invalid_grant');
  });

  t.test('access tokens live one hour', async (t) => {
    const { tokens } = await connect(stack, a, { browser });
    t.ok((await resolve(tokens.access_token)).ok);
    stack.advance(3600_000 + 1000);
    t.match(await resolve(tokens.access_token), { ok: false, reason: 'expired' });
    const refreshed = await postForm(tokenUrl, {
      grant_type: 'refresh_token',
      client_id: (await stack.gateway.deps.db('connections').orderBy('created_at', 'desc').first())!.client_id,
      refresh_token: tokens.refresh_token,
    });
    t.equal(refreshed.status, 200, 'the refresh token still works');
    t.ok((await resolve(refreshed.body.access_token)).ok);
  });
});
