/**
 * End to end with the official MCP client v2 (@modelcontextprotocol/client, protocol
 * 2026-07-28), identified by a Client ID Metadata Document served over https with a test CA:
 * 401 → protected-resource metadata → authorization-server metadata → authorize (sign-in with
 * password + TOTP, consent) → token → tools/list → create_vendor → create_bill → approve_bill;
 * then REST with an API key; refresh rotation, refresh reuse, another dataset's URL.
 */
import t from 'tap';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { Browser, authorizeInBrowser } from './support/browser.ts';
import { TestOAuthProvider } from './support/oauthProvider.ts';
import { startStack } from './support/processes.ts';
import { mcpPost, tokenRequest } from './support/rawOAuth.ts';
import { billFlow, createDemo, person, recordingFetch, rest, type CallTool } from './support/scenario.ts';
import { createTestCa, startMetadataServer } from './support/tls.ts';

const REDIRECT = 'http://127.0.0.1:8976/callback';

t.test('MCP client v2 with a Client ID Metadata Document', async (t) => {
  const ca = createTestCa();
  const metadataServer = await startMetadataServer(ca);
  t.teardown(() => metadataServer.close());
  const stack = await startStack(t, { GATEWAY_TEST_CIMD_CA: ca.caFile, GATEWAY_TEST_CIMD_ALLOW_PRIVATE: '1' });
  const demo = await createDemo(stack);
  const other = await createDemo(stack);
  const mcpUrl = new URL(demo.mcp_url);
  t.equal(mcpUrl.toString(), `${stack.apiUrl}/mcp/${demo.dataset}`, 'the MCP URL is {api_url}/mcp/{dataset}');

  const clientMetadata: OAuthClientMetadata = {
    client_name: 'E2E Assistant (SDK v2)',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  const clientId = metadataServer.publish('/clients/e2e-v2.json', (id) => ({ client_id: id, ...clientMetadata }));
  const provider = new TestOAuthProvider<StoredOAuthClientInformation, StoredOAuthTokens, OAuthClientMetadata>({
    redirectUrl: REDIRECT, clientMetadata, clientMetadataUrl: clientId,
  });
  const recorded = recordingFetch();
  const newTransport = () => new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: recorded.fetchFn });
  const newClient = () => new Client({ name: 'e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });

  // 1. the first request has no token: the client discovers, and asks the person to authorize
  const first = newTransport();
  await t.rejects(newClient().connect(first), UnauthorizedError, 'the client needs authorization');
  const paths = recorded.log.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
  t.match(paths[0], new RegExp(`^POST /mcp/${demo.dataset} 401$`), 'first MCP request: 401');
  t.ok(paths.includes(`GET /.well-known/oauth-protected-resource/mcp/${demo.dataset} 200`), 'protected-resource metadata read');
  t.ok(paths.some((p) => p.startsWith('GET /.well-known/oauth-authorization-server')), 'authorization-server metadata read');
  t.notOk(paths.some((p) => p.startsWith('POST /oauth/register')), 'no dynamic registration: the metadata document URL is the client_id');
  t.ok(provider.authorizationUrl, 'the client opened the authorization URL');
  const authUrl = provider.authorizationUrl!;
  t.equal(authUrl.searchParams.get('client_id'), clientId);
  t.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
  t.equal(authUrl.searchParams.get('resource'), mcpUrl.toString());

  // 2. sign-in with password + TOTP and consent, over HTTP
  const browser = new Browser(stack.apiUrl);
  const { callback, consentHtml } = await authorizeInBrowser(browser, authUrl, person(demo), {
    accounting: 'read', invoices: 'write', contacts: 'write', bank: 'none', documents: 'none',
  });
  t.match(consentHtml, /Verified domain/, 'consent page: verified domain of the metadata document');
  t.match(consentHtml, /E2E Assistant \(SDK v2\)/);
  t.ok((metadataServer.fetches.get('/clients/e2e-v2.json') ?? 0) >= 1, 'the gateway fetched the metadata document over https');
  t.equal(`${callback.origin}${callback.pathname}`, REDIRECT);
  t.equal(callback.searchParams.get('iss'), stack.apiUrl, 'iss in the response (RFC 9207)');
  t.equal(callback.searchParams.get('state'), provider.expectedState);
  await first.finishAuth(callback.searchParams);
  t.ok(provider.tokens()?.access_token, 'tokens obtained');

  // 3. tools over MCP 2026-07-28
  const client = newClient();
  await client.connect(newTransport());
  t.teardown(() => client.close());
  const tools = (await client.listTools()).tools.map((x) => x.name);
  t.same(tools, [
    'get_chart_of_accounts', 'list_tax_codes',
    'list_invoices', 'get_invoice', 'list_bills', 'get_bill', 'create_bill', 'update_bill', 'approve_bill',
    'search_vendors', 'get_vendor', 'create_vendor', 'update_vendor', 'search_customers', 'get_customer', 'create_customer', 'update_customer',
  ], 'tools/list: granted areas, deterministic order');
  const listed = (await client.listTools()).tools;
  const approve = listed.find((x) => x.name === 'approve_bill')!;
  t.equal(approve.annotations?.destructiveHint, true);
  t.equal(listed.find((x) => x.name === 'search_vendors')!.annotations?.readOnlyHint, true);

  const callTool: CallTool = async (name, args) => (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<CallTool>>;
  const flow = await billFlow(callTool, 'V2');

  // ledger errors come back as tool errors with the ledger's code
  const missing = await callTool('get_bill', { id: 999_999_999 });
  t.equal(missing.isError, true);
  t.equal((missing.structuredContent as { error: { code: string } }).error.code, 'not_found');
  const unknownVendor = await callTool('create_bill', { vendornumber: 'NO-SUCH-VENDOR', invDate: '2026-01-15', lines: [{ account: '4000', amount: 1 }] });
  t.equal((unknownVendor.structuredContent as { error: { code: string } }).error.code, 'vc_not_found');

  // 4. REST with the API key: the bill exists, is posted, and the audit log names the AI connection
  const api = rest(demo);
  const bill = await api('GET', `/arap/transaction/vendor/${flow.billId}`);
  t.equal(bill.status, 200);
  t.equal(bill.body.status, 'posted', 'the bill is posted');
  t.equal(bill.body.documentNumber, flow.documentNumber);
  t.equal(bill.body.vendor_id, flow.vendorId);
  const audit = await api('GET', '/system/audit?limit=100');
  const viaAi = audit.body.filter((e: { via: string }) => e.via === 'ai_connection');
  t.ok(viaAi.some((e: { entity_id: number }) => e.entity_id === flow.billId), 'the bill changes are audited');
  t.ok(viaAi.every((e: { via_text: string }) => e.via_text === 'via AI connection (E2E Assistant (SDK v2))'), 'naming the AI connection');
  t.ok(viaAi.every((e: { user_email: string }) => e.user_email === demo.user.email), 'against the person who connected');

  // 5. refresh rotates both tokens
  const before = provider.tokens()!;
  const refreshed = await tokenRequest(stack.apiUrl, { grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: clientId, resource: mcpUrl.toString() });
  t.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
  t.not(refreshed.body.refresh_token, before.refresh_token, 'new refresh token');
  t.not(refreshed.body.access_token, before.access_token, 'new access token');
  provider.setTokens({ ...before, ...(refreshed.body as object) } as StoredOAuthTokens);
  const afterRefresh = await callTool('search_vendors', { name: 'V2 Supplies' });
  t.equal((afterRefresh.structuredContent as { vendors: unknown[] }).vendors.length, 1, 'the new access token works');

  // 6. a token is bound to its company's MCP URL
  const elsewhere = await mcpPost(other.mcp_url, refreshed.body.access_token as string, { id: 1, method: 'tools/list' });
  t.equal(elsewhere.status, 401, "another dataset's MCP URL refuses the token");
  t.match(elsewhere.headers.get('www-authenticate') ?? '', /error="invalid_token"/);

  // 7. reusing the old refresh token ends the whole connection
  const reuse = await tokenRequest(stack.apiUrl, { grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: clientId, resource: mcpUrl.toString() });
  t.equal(reuse.status, 400);
  t.equal(reuse.body.error, 'invalid_grant');
  const ended = await mcpPost(mcpUrl.toString(), refreshed.body.access_token as string, { id: 2, method: 'tools/list' });
  t.equal(ended.status, 401, 'after refresh reuse even the newest access token is refused');
  t.match(ended.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const newest = await tokenRequest(stack.apiUrl, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: clientId, resource: mcpUrl.toString() });
  t.equal(newest.body.error, 'invalid_grant', 'and so is the newest refresh token');
});
