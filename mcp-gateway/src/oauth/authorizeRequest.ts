/**
 * Validation of an authorization request (RFC 6749 §4.1.1, OAuth 2.1, RFC 7636, RFC 8707,
 * RFC 9207). Problems with the client or its redirect URI are shown on an error page and
 * never redirected (open-redirect protection); every other problem is sent back to the
 * client's redirect URI with `error`, `error_description`, `state` and `iss`.
 */
import { isScope } from '@ledger/shared';
import type { OAuthDeps } from './oauthDeps.ts';
import { isDatasetName } from '@ledger/shared';
import type { LedgerCompany } from '../ledgerClient.ts';
import { ClientLookupError, type OAuthClient } from './clients.ts';
import { matchRedirectUri } from './redirectUris.ts';

export interface AuthorizeRequest {
  client: OAuthClient;
  /** the redirect URI exactly as the client sent it (or the single registered one) */
  redirectUri: string;
  redirectUriSent: boolean;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  dataset: string;
  company: LedgerCompany;
  /** what the client asked for (informational: the person decides) */
  requestedScopes: string[];
  /** the original parameters, carried through the consent form */
  params: Record<string, string>;
}

export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  | { kind: 'page'; status: number; message: string }
  | { kind: 'redirect'; location: string };

export const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
  'state',
] as const;

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The redirect back to the client with the given parameters and `iss` (RFC 9207). */
export function clientRedirect(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  u.searchParams.set('iss', issuer);
  return u.toString();
}

/** Reads single-valued parameters; repeated parameters are an error (RFC 6749 §3.1). */
function readParams(input: URLSearchParams): { params: Record<string, string>; repeated: string | undefined } {
  const params: Record<string, string> = {};
  let repeated: string | undefined;
  for (const name of AUTHORIZE_PARAMS) {
    const all = input.getAll(name);
    if (all.length > 1) repeated ??= name;
    if (all.length > 0) params[name] = all[0]!;
  }
  return { params, repeated };
}

/** The dataset of an MCP URL of this gateway, or undefined. */
export function datasetOfResource(deps: Pick<OAuthDeps, 'config'>, resource: string): string | undefined {
  const prefix = `${deps.config.publicUrl}/mcp/`;
  if (!resource.startsWith(prefix)) return undefined;
  const dataset = resource.slice(prefix.length);
  return isDatasetName(dataset) ? dataset : undefined;
}

export async function checkAuthorizeRequest(deps: OAuthDeps, input: URLSearchParams): Promise<AuthorizeCheck> {
  const { params, repeated } = readParams(input);
  const page = (message: string, status = 400): AuthorizeCheck => ({ kind: 'page', status, message });

  // 1. the client and its redirect URI: on failure an error page, never a redirect
  const clientId = params.client_id;
  if (!clientId) return page('The request has no client_id.');
  if (repeated === 'client_id' || repeated === 'redirect_uri') return page(`The parameter ${repeated} is repeated.`);
  let client: OAuthClient;
  try {
    client = await deps.clients.resolve(clientId);
  } catch (err) {
    if (err instanceof ClientLookupError) return page(`The app could not be identified: ${err.message}.`);
    throw err;
  }
  let redirectUri: string;
  const redirectUriSent = params.redirect_uri !== undefined;
  if (redirectUriSent) {
    if (!matchRedirectUri(client.redirectUris, params.redirect_uri!)) {
      return page('The redirect_uri does not match any redirect URI registered for this app.');
    }
    redirectUri = params.redirect_uri!;
  } else if (client.redirectUris.length === 1) {
    redirectUri = client.redirectUris[0]!;
  } else {
    return page('The request has no redirect_uri and the app has registered several.');
  }

  // 2. everything else is reported to the client
  const state = params.state;
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: clientRedirect(redirectUri, deps.issuer, { error, error_description: description, state }),
  });
  if (repeated) return fail('invalid_request', `The parameter ${repeated} is repeated.`);
  if (state !== undefined && state.length > 2048)
    return fail('invalid_request', 'state is longer than 2048 characters.');
  if (!params.response_type) return fail('invalid_request', 'response_type is missing.');
  if (params.response_type !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (params.code_challenge_method !== 'S256')
    return fail('invalid_request', 'PKCE is required with code_challenge_method=S256.');
  if (!params.code_challenge) return fail('invalid_request', 'code_challenge is missing.');
  if (!CODE_CHALLENGE.test(params.code_challenge)) {
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
  }
  const resource = params.resource;
  if (!resource) return fail('invalid_target', 'resource is missing: send the MCP server URL (RFC 8707).');
  const dataset = datasetOfResource(deps, resource);
  const company = dataset ? await deps.ledger.company(dataset) : undefined;
  if (!dataset || !company)
    return fail('invalid_target', 'resource is not the MCP server URL of a company on this server.');
  const requestedScopes = (params.scope ?? '').split(' ').filter(Boolean);
  const unknown = requestedScopes.find((s) => !isScope(s));
  if (unknown) return fail('invalid_scope', `Unknown scope "${unknown.slice(0, 100)}".`);

  return {
    kind: 'ok',
    request: {
      client,
      redirectUri,
      redirectUriSent,
      state,
      codeChallenge: params.code_challenge,
      resource,
      dataset,
      company,
      requestedScopes,
      params,
    },
  };
}
