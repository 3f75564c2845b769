/**
 * grant_type=refresh_token (RFC 6749 §6): rotates the pair on every use. A refresh token
 * presented a second time ends the whole connection (reuse detection, RFC 9700 §4.14.2).
 */
import type { Knex } from 'knex';
import type { OAuthDeps } from '../oauthDeps.ts';
import { LedgerUnavailableError } from '../../ledgerClient.ts';
import type { ConnectionRow, IssuedTokens } from '../connections.ts';
import { END_REASON_TEXT, liveness } from '../liveness.ts';
import { required, TokenError, type TokenForm } from './tokenRequest.ts';

const REUSED = 'The refresh token was already used; the connection has ended.';

function ended(c: ConnectionRow): TokenError {
  return new TokenError('invalid_grant', `The connection has ended: ${END_REASON_TEXT[c.end_reason ?? 'revoked']}.`);
}

/** The request may narrow the grant (scope, resource) but never widen or move it. */
function checkRequest(connection: ConnectionRow, form: TokenForm, clientId: string): void {
  if (connection.client_id !== clientId)
    throw new TokenError('invalid_grant', 'The refresh token was issued to another client.');
  if (form.resource !== undefined && form.resource !== connection.resource) {
    throw new TokenError('invalid_target', 'resource does not match the connection.');
  }
  if (form.scope !== undefined) {
    const granted = connection.scopes.split(' ');
    const extra = form.scope
      .split(' ')
      .filter(Boolean)
      .find((s) => !granted.includes(s));
    if (extra)
      throw new TokenError(
        'invalid_scope',
        `The connection was not granted ${extra.slice(0, 100)}; connect again for more access.`,
      );
  }
}

/**
 * Marks the refresh token used in one conditional UPDATE; false when another request
 * already did. This, not the earlier read, decides who rotates.
 */
async function claimRefreshToken(trx: Knex.Transaction, tokenHash: string, now: number): Promise<boolean> {
  const claimed = await trx('tokens')
    .where({ token_hash: tokenHash, kind: 'refresh' })
    .whereNull('used_at')
    .update({ used_at: now });
  return claimed > 0;
}

export function refreshTokenGrant(deps: OAuthDeps) {
  const { db, connections, log } = deps;

  async function endForReuse(connectionId: string): Promise<never> {
    await connections.end(connectionId, 'refresh_reuse');
    log.warn({ conn: connectionId }, 'refresh token reuse: connection ended');
    throw new TokenError('invalid_grant', REUSED);
  }

  return async function refresh(form: TokenForm): Promise<IssuedTokens> {
    const clientId = required(form, 'client_id');
    const token = required(form, 'refresh_token');
    const found = await connections.findToken('refresh', token);
    if (!found) throw new TokenError('invalid_grant', 'The refresh token is not valid.');
    const { connection } = found;
    if (liveness(connection, deps.now()).status === 'ended') throw ended(connection);
    // before the client, resource and scope checks: whoever presents a used refresh token
    // holds a leaked one, and must not be able to keep the connection alive by pairing it
    // with another client_id or resource. Answered before the ledger is asked; the claim
    // below catches reuse racing this read.
    if (found.token.used_at !== null) return endForReuse(connection.id);
    checkRequest(connection, form, clientId);
    let lifecycleEnd: Awaited<ReturnType<typeof connections.checkLifecycle>>;
    try {
      // an expired refresh token is the idle end; then 90 days unused, then the person's standing
      lifecycleEnd = await connections.checkLifecycle(connection, {
        kind: 'refresh',
        expires_at: found.token.expires_at,
      });
    } catch (err) {
      if (err instanceof LedgerUnavailableError)
        throw new TokenError('temporarily_unavailable', 'Try again shortly.', 503);
      throw err;
    }
    if (lifecycleEnd)
      throw new TokenError('invalid_grant', `The connection has ended: ${END_REASON_TEXT[lifecycleEnd]}.`);

    const now = deps.now();
    const rotated = await db.transaction(async (trx) => {
      if (!(await claimRefreshToken(trx, found.token.hash, now))) return undefined;
      await trx('connections').where({ id: connection.id }).update({ last_used_at: now });
      return connections.issueTokens(trx, connection);
    });
    // presented twice at the same moment: that is reuse too
    return rotated ?? endForReuse(connection.id);
  };
}
