/**
 * Token revocation (RFC 7009): revoking either token of a connection ends the connection.
 * Unknown tokens, and tokens of another client, answer 200 as well (§2.2), so the endpoint
 * tells nothing about which tokens exist.
 */
import type { OAuthDeps } from '../oauthDeps.ts';
import { required, TokenError, type TokenForm } from './tokenRequest.ts';

export function revocation(deps: OAuthDeps) {
  const { connections, log } = deps;

  return async function revoke(form: TokenForm): Promise<void> {
    const token = required(form, 'token');
    const hint = form.token_type_hint;
    if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') {
      throw new TokenError('unsupported_token_type', 'token_type_hint must be access_token or refresh_token.');
    }
    const found = (await connections.findToken('access', token)) ?? (await connections.findToken('refresh', token));
    if (!found) return;
    if (form.client_id !== undefined && form.client_id !== found.connection.client_id) return;
    if (await connections.end(found.connection.id, 'revoked'))
      log.info({ conn: found.connection.id }, 'connection revoked by client');
  };
}
