/**
 * The OAuth flow by hand (no MCP client): dynamic registration, PKCE, consent in the
 * browser, code exchange and refresh. Used where a test needs exact control over the
 * requests (rate limit, token reuse, raw status codes).
 */
import { createHash, randomBytes } from 'node:crypto';
import { authorizeInBrowser, type AreaChoices, type Browser, type Person } from './browser.ts';

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

export interface RawClient {
  clientId: string;
  redirectUri: string;
}

export async function registerClient(apiUrl: string, name: string): Promise<RawClient> {
  const redirectUri = 'http://127.0.0.1:8976/callback';
  const res = await fetch(`${apiUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  const body = (await res.json()) as { client_id?: string };
  if (res.status !== 201 || !body.client_id)
    throw new Error(`registration failed: ${res.status} ${JSON.stringify(body)}`);
  return { clientId: body.client_id, redirectUri };
}

export async function tokenRequest(
  apiUrl: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Registers a client, lets `person` consent with `choices`, and exchanges the code. */
export async function connectRaw(
  apiUrl: string,
  browser: Browser,
  mcpUrl: string,
  person: Person,
  choices: AreaChoices,
  name = 'Raw Test Client',
): Promise<{ client: RawClient; tokens: TokenSet }> {
  const client = await registerClient(apiUrl, name);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const url = new URL(`${apiUrl}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: mcpUrl,
    scope: 'contacts:read',
  }).toString();
  const { callback } = await authorizeInBrowser(browser, url, person, choices);
  if (callback.searchParams.get('state') !== state) throw new Error('state mismatch');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback}`);
  const res = await tokenRequest(apiUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    code_verifier: verifier,
    resource: mcpUrl,
  });
  if (res.status !== 200) throw new Error(`code exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { client, tokens: res.body as unknown as TokenSet };
}

/** One JSON-RPC POST to the MCP endpoint as a 2025-11-25 client would send it. */
export async function mcpPost(
  mcpUrl: string,
  token: string | undefined,
  message: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}
