/**
 * grant_type=authorization_code (RFC 6749 §4.1.3 with PKCE, RFC 7636, and the resource
 * indicator, RFC 8707): a code from the consent page becomes a connection and its first
 * tokens. The code is claimed before anything else is checked, so a failed attempt spends
 * it too; a second presentation is refused and ends whatever the first one created (RFC
 * 9700 §4.5), also when both arrive at once (at one replica or two).
 */
import type { OAuthDeps } from '../oauthDeps.ts';
import type { IssuedTokens } from '../connections.ts';
import { hashSecret, looksLike, PREFIX, s256, sameString } from '../secrets.ts';
import type { CodeStore, StoredCode } from './codeStore.ts';
import { required, TokenError, type TokenForm } from './tokenRequest.ts';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

const INVALID_CODE = 'The authorization code is not valid.';
const REPLAYED = 'The authorization code has already been used; the tokens issued from it are revoked.';

/** The token request must match what the code was issued for. */
function checkBinding(code: StoredCode, form: TokenForm, clientId: string, verifier: string, now: number): void {
  if (code.expiresAt <= now) throw new TokenError('invalid_grant', 'The authorization code has expired.');
  if (code.clientId !== clientId)
    throw new TokenError('invalid_grant', 'The authorization code was issued to another client.');
  // RFC 6749 §4.1.3: redirect_uri is required when the authorization request carried it, and must match when sent
  const redirectMismatch = code.redirectUriSent
    ? form.redirect_uri !== code.redirectUri
    : form.redirect_uri !== undefined && form.redirect_uri !== code.redirectUri;
  if (redirectMismatch) throw new TokenError('invalid_grant', 'redirect_uri does not match the authorization request.');
  if (!form.resource)
    throw new TokenError('invalid_target', 'resource is missing: send the MCP server URL (RFC 8707).');
  if (form.resource !== code.resource)
    throw new TokenError('invalid_target', 'resource does not match the authorization request.');
  if (!sameString(s256(verifier), code.codeChallenge))
    throw new TokenError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
}

export function authorizationCodeGrant(deps: OAuthDeps, codes: CodeStore) {
  const { db, connections, log } = deps;

  return async function exchangeCode(form: TokenForm): Promise<IssuedTokens> {
    const clientId = required(form, 'client_id');
    const presented = required(form, 'code');
    const verifier = required(form, 'code_verifier');
    if (!VERIFIER.test(verifier))
      throw new TokenError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters.');
    if (!looksLike(PREFIX.code, presented)) throw new TokenError('invalid_grant', INVALID_CODE);
    const hash = hashSecret(presented);
    const now = deps.now();

    const consumed = await codes.consume(hash, now);
    if (consumed.kind === 'unknown') throw new TokenError('invalid_grant', INVALID_CODE);
    if (consumed.kind === 'replayed') {
      // whatever was issued from this code stops working (RFC 6749 §4.1.2, RFC 9700 §4.5)
      if (consumed.connectionId) await connections.end(consumed.connectionId, 'code_replay');
      log.warn({ client: consumed.clientId, conn: consumed.connectionId }, 'authorization code replayed');
      throw new TokenError('invalid_grant', REPLAYED);
    }
    const code = consumed.code;
    checkBinding(code, form, clientId, verifier, now);

    const { connection, tokens, replaced, replayed } = await db.transaction(async (trx) => {
      const created = await connections.create(trx, {
        userId: code.userId,
        userName: code.userName,
        userEmail: code.userEmail,
        dataset: code.dataset,
        resource: code.resource,
        clientId: code.clientId,
        clientName: code.clientName,
        verifiedHost: code.verifiedHost,
        scopes: code.scopes,
      });
      return { ...created, ...(await codes.attachConnection(trx, hash, created.connection.id)) };
    });
    // A replay that raced this exchange: this, the first use, is still answered (RFC 6749
    // §4.1.2 denies the later use, so one of two concurrent redemptions succeeds), but the
    // tokens issued from the code are revoked, as they are when the replay comes after.
    if (replayed) {
      await connections.end(connection.id, 'code_replay');
      log.warn(
        { conn: connection.id, client: clientId },
        'authorization code replayed during its exchange: connection ended',
      );
      return tokens;
    }
    // the connection it replaced (the same person, company and app) keeps its row: ended,
    // end_reason 'replaced', replaced_by this one; the AI-connections pages show it
    log.info({ conn: connection.id, client: clientId, dataset: connection.dataset, replaced }, 'connection created');
    // and in the company's audit log, with the connections it replaced. After the commit: the
    // connection stands whatever the ledger answers; a failure is logged, not the exchange's.
    await deps.ledger
      .auditConnection(connection.dataset, {
        user_id: code.userId,
        action: 'connect',
        connection_id: connection.id,
        client_name: code.clientName,
        scopes: [...code.scopes].sort().join(' '),
        replaced,
      })
      .catch((err: unknown) =>
        log.warn(
          { conn: connection.id, err: err instanceof Error ? err.message : String(err) },
          'connection not written to the audit log',
        ),
      );
    return tokens;
  };
}
