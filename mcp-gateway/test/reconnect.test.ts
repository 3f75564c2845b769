/**
 * One active connection per person × company × app: consenting again (with more access or
 * the same) replaces the earlier connection, whose tokens stop working at once; the consent
 * page says so beforehand and the AI-connections pages show the earlier one as replaced.
 * Another app keeps its own connection.
 */
import t from 'tap';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  authorize,
  Browser,
  connect,
  defaultClient,
  eachStore,
  pkce,
  postForm,
  REDIRECT,
  registerClient,
  type Stack,
} from './helpers.ts';
import type { TestCompany } from '../../ledger-service/test/helpers.ts';

function mcpPing(url: string, token: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

/** The code flow for a given client (connect() always uses the stack's default client). */
async function connectClient(stack: Stack, company: TestCompany, browser: Browser, clientId: string) {
  const { verifier, challenge } = pkce();
  const resource = `${stack.url}/mcp/${company.dataset}`;
  const { code, consent } = await authorize(stack, browser, company, {
    client_id: clientId,
    resource,
    code_challenge: challenge,
  });
  const token = await postForm(`${stack.url}/oauth/token`, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource,
  });
  return { consent, tokens: token.body as { access_token: string; refresh_token: string } };
}

eachStore(t, 'connecting an app again replaces its connection', async (t, { startStack }) => {
  const stack = await startStack(t);
  const { connections, db } = stack.gateway.deps;
  const refresh = (clientId: string, token: string) =>
    postForm(`${stack.url}/oauth/token`, { grant_type: 'refresh_token', client_id: clientId, refresh_token: token });
  const idOf = async (access: string) => (await connections.findToken('access', access))!.connection.id;

  t.test("with more access: the first connection's tokens are refused, one active connection is listed", async (t) => {
    const a = await stack.company();
    const browser = new Browser(stack.url);
    const first = await connect(stack, a, { browser });
    t.equal((await mcpPing(first.resource, first.tokens.access_token)).status, 200, 'the first connection works');

    const { client_id: clientId } = await defaultClient(stack);
    const again = await connectClient(stack, a, browser, clientId);
    t.match(again.consent.html, /id="replaces-connection"/, 'the consent page says the connection will be replaced');
    t.match(again.consent.html, /Allowing access replaces that connection/);
    t.match(again.consent.html, /Accounting: Read/, 'with the access it has now');
    const more = await connect(stack, a, { browser, choices: { bank: 'read', invoices: 'write' } });

    const refused = await mcpPing(first.resource, first.tokens.access_token);
    t.equal(refused.status, 401, 'the first access token is refused at the MCP endpoint');
    t.match(refused.headers.get('www-authenticate') ?? '', /error="invalid_token".*replaced/);
    const refreshed = await refresh(first.clientId, first.tokens.refresh_token);
    t.equal(refreshed.body.error, 'invalid_grant', 'its refresh token too');
    t.match(refreshed.body.error_description, /replaced/);
    t.equal(
      (await refresh(clientId, again.tokens.refresh_token)).body.error,
      'invalid_grant',
      'so is the one in between',
    );

    const client = new Client({ name: 'reconnect-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(more.resource), {
        requestInit: { headers: { Authorization: `Bearer ${more.tokens.access_token}` } },
      }),
    );
    t.teardown(() => client.close());
    t.ok(
      (await client.listTools()).tools.some((x) => x.name === 'list_bank_accounts'),
      'the new connection works, with the new access',
    );

    const active = await connections.listForUser(a.userId);
    t.equal(active.length, 1, 'one active connection');
    t.equal(active[0]!.id, await idOf(more.tokens.access_token));
    const firstRow = await connections.get(await idOf(first.tokens.access_token));
    t.match(firstRow, { state: 'ended', end_reason: 'replaced' }, 'the first ended as replaced');
    t.equal(firstRow!.replaced_by, await idOf(again.tokens.access_token), 'recorded: replaced by the next connection');

    const own = await browser.get('/account/ai-connections');
    t.equal([...own.html.matchAll(/data-connection="/g)].length, 1, 'My Profile lists one active connection');
    t.match(own.html, /Bank: Read/);
    const ended = [...own.html.matchAll(/data-ended-connection="([^"]+)" data-end-reason="([^"]*)"/g)].map((m) => [
      m[1],
      m[2],
    ]);
    t.same(
      ended.sort(),
      [
        [await idOf(first.tokens.access_token), 'replaced'],
        [await idOf(again.tokens.access_token), 'replaced'],
      ].sort(),
      'and both earlier ones as replaced',
    );
    t.match(own.html, /Replaced: the app was connected again/);

    const managed = await browser.get(`/management/${a.dataset}/ai-connections`);
    t.equal([...managed.html.matchAll(/data-connection="/g)].length, 1, 'Management lists one active connection');
    t.equal([...managed.html.matchAll(/data-end-reason="replaced"/g)].length, 2, 'and the replaced ones');
  });

  t.test('the first connection shows no replacement notice; another app keeps its own connection', async (t) => {
    const a = await stack.company();
    const browser = new Browser(stack.url);
    const other = (await registerClient(stack, { client_name: 'Other Assistant' })).body as { client_id: string };
    const viaOther = await connectClient(stack, a, browser, other.client_id);
    t.notMatch(viaOther.consent.html, /replaces-connection/, 'nothing to replace yet');
    const mine = await connect(stack, a, { browser });
    t.ok((await connections.resolveAccessToken(viaOther.tokens.access_token)).ok, 'another app: both stay active');
    t.ok((await connections.resolveAccessToken(mine.tokens.access_token)).ok);
    t.equal((await connections.listForUser(a.userId)).length, 2);
  });

  t.test('two exchanges at once leave one active connection', async (t) => {
    const a = await stack.company();
    const browser = new Browser(stack.url);
    const { client_id: clientId } = await defaultClient(stack);
    const resource = `${stack.url}/mcp/${a.dataset}`;
    const codes = [];
    for (let i = 0; i < 2; i++) {
      const { verifier, challenge } = pkce();
      const { code } = await authorize(stack, browser, a, { client_id: clientId, resource, code_challenge: challenge });
      codes.push({ code, verifier });
    }
    const answers = await Promise.all(
      codes.map(({ code, verifier }) =>
        postForm(`${stack.url}/oauth/token`, {
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          resource,
        }),
      ),
    );
    t.same(
      answers.map((r) => r.status),
      [200, 200],
      'both exchanges answered',
    );
    t.equal(
      (await db('connections').where({ user_id: a.userId, dataset: a.dataset, state: 'active' })).length,
      1,
      'one active connection',
    );
    const live = await Promise.all(
      answers.map(async (r) => (await connections.resolveAccessToken(r.body.access_token)).ok),
    );
    t.same(live.sort(), [false, true], 'the tokens of one of them work');
  });

  t.test('the store refuses a second active connection of the same person, company and app', async (t) => {
    const a = await stack.company();
    const { tokens } = await connect(stack, a);
    const row = (await connections.findToken('access', tokens.access_token))!.connection;
    await t.rejects(
      db('connections').insert({ ...row, id: '00000000-0000-4000-8000-000000000001' }),
      'the unique index holds',
    );
    await t.resolves(
      db('connections').insert({
        ...row,
        id: '00000000-0000-4000-8000-000000000002',
        state: 'ended',
        end_reason: 'revoked',
        ended_at: row.created_at,
      }),
      'ended rows are not counted',
    );
  });
});
