/**
 * Bearer challenges (RFC 6750 §3, RFC 9728 §5.1) for the MCP endpoint. Never echoes the token.
 */
import { ALL_SCOPES } from '@ledger/shared';

export function resourceMetadataUrl(publicUrl: string, dataset: string): string {
  return `${publicUrl.replace(/\/$/, '')}/.well-known/oauth-protected-resource/mcp/${encodeURIComponent(dataset)}`;
}

/** A quoted-string value: the values used here never contain quotes or backslashes, but be safe. */
function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

export interface Challenge {
  status: 401 | 403;
  headers: Record<string, string>;
  body: { error: string; error_description: string };
}

/** 401 without an error code: the request carried no token. */
export function missingTokenChallenge(publicUrl: string, dataset: string): Challenge {
  return {
    status: 401,
    headers: {
      'WWW-Authenticate':
        `Bearer resource_metadata=${quote(resourceMetadataUrl(publicUrl, dataset))}, ` +
        `scope=${quote(ALL_SCOPES.join(' '))}`,
    },
    body: {
      error: 'invalid_request',
      error_description: 'This MCP server requires an OAuth access token (Authorization: Bearer).',
    },
  };
}

/** 401 invalid_token: unknown, expired, revoked, ended, or issued for another server URL. */
export function invalidTokenChallenge(publicUrl: string, dataset: string, description: string): Challenge {
  return {
    status: 401,
    headers: {
      'WWW-Authenticate':
        `Bearer error="invalid_token", error_description=${quote(description)}, ` +
        `resource_metadata=${quote(resourceMetadataUrl(publicUrl, dataset))}, scope=${quote(ALL_SCOPES.join(' '))}`,
    },
    body: { error: 'invalid_token', error_description: description },
  };
}

/** 403 insufficient_scope naming the scope the call needs, so the client can step up. */
export function insufficientScopeChallenge(
  publicUrl: string,
  dataset: string,
  needed: string,
  description: string,
): Challenge {
  return {
    status: 403,
    headers: {
      'WWW-Authenticate':
        `Bearer error="insufficient_scope", scope=${quote(needed)}, error_description=${quote(description)}, ` +
        `resource_metadata=${quote(resourceMetadataUrl(publicUrl, dataset))}`,
    },
    body: { error: 'insufficient_scope', error_description: description },
  };
}
