import t from 'tap';
import { ALL_SCOPES } from '@ledger/shared';
import { startStack } from './helpers.ts';

t.test('discovery metadata and the one public origin', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();

  t.test('authorization-server metadata (RFC 8414)', async (t) => {
    const res = await fetch(`${stack.url}/.well-known/oauth-authorization-server`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('access-control-allow-origin'), '*');
    const m = (await res.json()) as Record<string, unknown>;
    t.same(m, {
      issuer: stack.url,
      authorization_endpoint: `${stack.url}/oauth/authorize`,
      token_endpoint: `${stack.url}/oauth/token`,
      revocation_endpoint: `${stack.url}/oauth/revoke`,
      registration_endpoint: `${stack.url}/oauth/register`,
      scopes_supported: [...ALL_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  t.test('protected-resource metadata (RFC 9728) per dataset', async (t) => {
    const res = await fetch(`${stack.url}/.well-known/oauth-protected-resource/mcp/${a.dataset}`);
    t.equal(res.status, 200);
    const m = (await res.json()) as Record<string, unknown>;
    t.equal(m.resource, `${stack.url}/mcp/${a.dataset}`);
    t.same(m.authorization_servers, [stack.url]);
    t.same(m.scopes_supported, [...ALL_SCOPES]);
    t.same(m.bearer_methods_supported, ['header']);
    for (const bad of ['no-such-company', 'UPPER', '..', 'x']) {
      const r = await fetch(`${stack.url}/.well-known/oauth-protected-resource/mcp/${bad}`);
      t.equal(r.status, 404, `unknown dataset ${bad}: 404`);
      await r.body?.cancel();
    }
  });

  t.test('/client/* is forwarded to the ledger unchanged; /internal/* never', async (t) => {
    const ok = await fetch(`${stack.url}/client/${a.dataset}/auth/validate_api`, {
      method: 'POST',
      headers: { 'X-API-Key': a.apiKey },
    });
    t.equal(ok.status, 200);
    t.same(await ok.json(), { success: 1 });
    t.ok(ok.headers.get('x-request-id'), "the ledger's headers come back");
    const wrong = await fetch(`${stack.url}/client/${a.dataset}/auth/validate_api`, {
      method: 'POST',
      headers: { 'X-API-Key': `ak_${'x'.repeat(43)}` },
    });
    t.equal(wrong.status, 401, "the ledger's status comes back");
    t.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'unauthorized');

    // a JSON body goes through as sent
    const created = await fetch(`${stack.url}/client/${a.dataset}/arap/vendor`, {
      method: 'POST',
      headers: { 'X-API-Key': a.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Forwarded Vendor AG', vendornumber: 'FWD-1', country: 'CH' }),
    });
    t.ok([200, 201].includes(created.status), `vendor created through the gateway (${created.status})`);
    await created.body?.cancel();
    const list = await fetch(`${stack.url}/client/${a.dataset}/arap/vendor?name=Forwarded`, {
      headers: { 'X-API-Key': a.apiKey },
    });
    t.equal(list.status, 200);
    t.match(await list.text(), /Forwarded Vendor AG/, 'query string forwarded');

    // the gateway never exposes the ledger's internal API, also not through dot segments
    for (const path of [
      `/internal/companies/${a.dataset}`,
      `/client/../internal/companies/${a.dataset}`,
      `/client/%2e%2e/internal/companies/${a.dataset}`,
    ]) {
      const r = await fetch(`${stack.url}${path}`, { headers: { accept: 'application/json' } });
      t.equal(r.status, 404, `${path}: 404`);
      t.notMatch(await r.text(), /ai_connections_enabled/);
    }
  });

  t.test('X-Forwarded-For reaches the ledger', async (t) => {
    // the ledger trusts X-Forwarded-For (proxy: true); its audit and logs see the original caller
    const seen: string[] = [];
    const original = stack.ledger.server.listeners('request')[0] as (
      req: { headers: Record<string, string> },
      res: unknown,
    ) => void;
    stack.ledger.server.removeAllListeners('request');
    stack.ledger.server.on('request', (req: { headers: Record<string, string> }, res: unknown) => {
      seen.push(req.headers['x-forwarded-for'] ?? '');
      original(req, res);
    });
    t.teardown(() => {
      stack.ledger.server.removeAllListeners('request');
      stack.ledger.server.on('request', original);
    });
    const r = await fetch(`${stack.url}/client/${a.dataset}/auth/validate_api`, {
      method: 'POST',
      headers: { 'X-API-Key': a.apiKey, 'X-Forwarded-For': '203.0.113.9' },
    });
    await r.body?.cancel();
    t.equal(seen.at(-1), '127.0.0.1', 'the peer address; a client-sent X-Forwarded-For is not trusted by default');
  });

  t.test('health', async (t) => {
    t.same(await (await fetch(`${stack.url}/healthz`)).json(), { status: 'ok' });
    t.same(await (await fetch(`${stack.url}/readyz`)).json(), { status: 'ready' });
  });
});
