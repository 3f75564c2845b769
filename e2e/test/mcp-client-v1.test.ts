/**
 * End to end with the official MCP client v1 (@modelcontextprotocol/sdk, protocol
 * 2025-11-25, served through the SDK v2 server's stateless fallback), identified by
 * dynamic client registration: the whole flow, then REST with an API key, then a
 * disconnect from System → Management → AI connections ends it at once.
 */
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Browser, authorizeInBrowser, parseForms } from './support/browser.ts';
import { TestOAuthProvider } from './support/oauthProvider.ts';
import { startStack } from './support/processes.ts';
import { mcpPost } from './support/rawOAuth.ts';
import { billFlow, createDemo, person, recordingFetch, rest, type CallTool } from './support/scenario.ts';

const REDIRECT = 'http://127.0.0.1:8977/callback';

t.test('MCP client v1 (2025-11-25) with dynamic client registration', async (t) => {
  const stack = await startStack(t);
  const demo = await createDemo(stack);
  const mcpUrl = new URL(demo.mcp_url);

  const clientMetadata: OAuthClientMetadata = {
    client_name: 'E2E Assistant (SDK v1)',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const provider = new TestOAuthProvider<OAuthClientInformationMixed, OAuthTokens, OAuthClientMetadata>({ redirectUrl: REDIRECT, clientMetadata });
  const recorded = recordingFetch();
  const newTransport = () => new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: recorded.fetchFn });

  const first = newTransport();
  const unauthorized = await new Client({ name: 'e2e-v1', version: '1.0.0' }).connect(first).then(() => undefined, (e: unknown) => e);
  t.ok(unauthorized instanceof UnauthorizedError, 'the client needs authorization');
  const paths = recorded.log.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
  t.match(paths[0], new RegExp(`^POST /mcp/${demo.dataset} 401$`), 'first MCP request: 401');
  t.ok(paths.includes(`GET /.well-known/oauth-protected-resource/mcp/${demo.dataset} 200`), 'protected-resource metadata');
  t.ok(paths.some((p) => p.startsWith('GET /.well-known/oauth-authorization-server')), 'authorization-server metadata');
  t.ok(paths.includes('POST /oauth/register 201'), 'dynamic client registration');
  const registered = provider.clientInformation();
  t.ok(registered?.client_id, 'a client_id was issued');

  const browser = new Browser(stack.apiUrl);
  const { callback, consentHtml } = await authorizeInBrowser(browser, provider.authorizationUrl!, person(demo), {
    accounting: 'read', invoices: 'write', contacts: 'write',
  });
  t.match(consentHtml, /Unverified app/, 'loopback http redirect URIs: unverified app warning');
  t.equal(callback.searchParams.get('state'), provider.expectedState);
  t.equal(callback.searchParams.get('iss'), stack.apiUrl);
  await first.finishAuth(callback.searchParams.get('code')!);

  const client = new Client({ name: 'e2e-v1', version: '1.0.0' });
  await client.connect(newTransport());
  t.teardown(() => client.close());
  t.equal(client.getServerVersion()?.name, 'ledger-mcp');
  const tools = (await client.listTools()).tools.map((x) => x.name);
  t.same(tools.slice(0, 3), ['get_chart_of_accounts', 'list_tax_codes', 'list_invoices'], 'deterministic order');
  t.ok(['create_vendor', 'create_bill', 'approve_bill'].every((n) => tools.includes(n)));
  t.notOk(tools.some((n) => n.includes('bank')), 'no bank tools without bank access');

  const callTool: CallTool = async (name, args) => (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<CallTool>>;
  const flow = await billFlow(callTool, 'V1');
  const text = (await client.callTool({ name: 'get_bill', arguments: { id: flow.billId } })).content as { type: string; text: string }[];
  t.match(text[0]!.text, new RegExp(`^Bill ${flow.billId}`), 'a short text beside the structured content');

  const api = rest(demo);
  const bill = await api('GET', `/arap/transaction/vendor/${flow.billId}`);
  t.equal(bill.body.status, 'posted', 'REST: the bill is posted');
  const audit = await api('GET', `/system/audit?limit=50`);
  const viaAi = audit.body.filter((e: { via: string }) => e.via === 'ai_connection');
  t.ok(viaAi.some((e: { entity_id: number }) => e.entity_id === flow.billId), 'the bill is in the audit log');
  t.ok(viaAi.length >= 3 && viaAi.every((e: { via_text: string }) => e.via_text === 'via AI connection (E2E Assistant (SDK v1))'), 'naming the AI connection');

  // disconnect from System → Management → AI connections: the next MCP request is 401
  const management = await browser.request('GET', `/management/${demo.dataset}/ai-connections`);
  t.equal(management.status, 200);
  t.match(management.html, /E2E Assistant \(SDK v1\)/, 'the connection is listed');
  const disconnect = parseForms(management.html).find((f) => /\/ai-connections\/[^/]+\/disconnect$/.test(f.action));
  t.ok(disconnect, 'a Disconnect button');
  const done = await browser.submit(management, (f) => f === disconnect || f.action === disconnect!.action, {});
  t.ok(done.status < 400, `disconnect answered ${done.status}`);

  const token = provider.tokens()!.access_token;
  const after = await mcpPost(mcpUrl.toString(), token, { id: 1, method: 'tools/list' });
  t.equal(after.status, 401, 'the next MCP request is refused');
  t.match(after.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  await t.rejects(client.listTools(), 'and the client sees it');
});
