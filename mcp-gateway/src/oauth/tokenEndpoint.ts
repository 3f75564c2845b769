/**
 * POST /oauth/token (grants authorization_code and refresh_token) and POST /oauth/revoke
 * (RFC 7009). Form-encoded requests from public clients; errors per RFC 6749 §5.2; every
 * response `Cache-Control: no-store`.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { GatewayDeps } from '../deps.ts';
import { ms } from '../db/knex.ts';
import { LedgerUnavailableError } from '../ledgerClient.ts';
import { END_REASON_TEXT, type ConnectionRow } from './connections.ts';
import { hashSecret, looksLike, PREFIX, s256, sameString } from './secrets.ts';

class TokenError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function noStore(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

/** The form fields; each at most once, strings only. */
function formOf(ctx: Context): Record<string, string> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new TokenError('invalid_request', 'Send the request as application/x-www-form-urlencoded.');
  }
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') throw new TokenError('invalid_request', `The parameter ${k} is repeated or malformed.`);
    out[k] = v;
  }
  return out;
}

function required(form: Record<string, string>, name: string): string {
  const v = form[name];
  if (!v) throw new TokenError('invalid_request', `${name} is missing.`);
  return v;
}

export function tokenRouter(deps: GatewayDeps): Router {
  const router = new Router();
  const { db, connections } = deps;

  async function exchangeCode(form: Record<string, string>) {
    const clientId = required(form, 'client_id');
    const code = required(form, 'code');
    const verifier = required(form, 'code_verifier');
    if (!VERIFIER.test(verifier)) throw new TokenError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters.');
    if (!looksLike(PREFIX.code, code)) throw new TokenError('invalid_grant', 'The authorization code is not valid.');
    const hash = hashSecret(code);
    const now = deps.now();

    const row = await db('authorization_codes').where({ code_hash: hash }).first();
    if (!row || !sameString(row.code_hash, hash)) throw new TokenError('invalid_grant', 'The authorization code is not valid.');
    // single use: the first attempt claims the code, whether it then succeeds or not
    const claimed = await db('authorization_codes').where({ code_hash: hash }).whereNull('used_at').update({ used_at: now });
    if (claimed === 0) {
      // replay: whatever was issued from this code stops working (RFC 6749 §4.1.2, RFC 9700 §4.5)
      await db('authorization_codes').where({ code_hash: hash }).update({ replayed: true });
      const connectionId = (await db('authorization_codes').where({ code_hash: hash }).first('connection_id'))?.connection_id;
      if (connectionId) await connections.end(connectionId, 'code_replay');
      deps.log.warn({ client: row.client_id, conn: connectionId }, 'authorization code replayed');
      throw new TokenError('invalid_grant', 'The authorization code has already been used; the tokens issued from it are revoked.');
    }
    if (ms(row.expires_at) <= now) throw new TokenError('invalid_grant', 'The authorization code has expired.');
    if (row.client_id !== clientId) throw new TokenError('invalid_grant', 'The authorization code was issued to another client.');
    if (row.redirect_uri_sent ? form.redirect_uri !== row.redirect_uri : form.redirect_uri !== undefined && form.redirect_uri !== row.redirect_uri) {
      throw new TokenError('invalid_grant', 'redirect_uri does not match the authorization request.');
    }
    if (!form.resource) throw new TokenError('invalid_target', 'resource is missing: send the MCP server URL (RFC 8707).');
    if (form.resource !== row.resource) throw new TokenError('invalid_target', 'resource does not match the authorization request.');
    if (!sameString(s256(verifier), row.code_challenge)) throw new TokenError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');

    const { connection, tokens } = await db.transaction(async (trx) => {
      const created = await connections.create(trx, {
        userId: Number(row.user_id), userName: row.user_name, userEmail: row.user_email, dataset: row.dataset,
        resource: row.resource, clientId: row.client_id, clientName: row.client_name, verifiedHost: row.verified_host,
        scopes: String(row.scopes).split(' ').filter(Boolean),
      });
      await trx('authorization_codes').where({ code_hash: hash }).update({ connection_id: created.connection.id });
      return created;
    });
    // a replay that raced this exchange ends the new connection as well
    if ((await db('authorization_codes').where({ code_hash: hash }).first('replayed'))?.replayed) {
      await connections.end(connection.id, 'code_replay');
      throw new TokenError('invalid_grant', 'The authorization code has already been used; the tokens issued from it are revoked.');
    }
    deps.log.info({ conn: connection.id, client: clientId, dataset: connection.dataset }, 'connection created');
    return tokens;
  }

  async function refresh(form: Record<string, string>) {
    const clientId = required(form, 'client_id');
    const token = required(form, 'refresh_token');
    const found = await connections.findToken('refresh', token);
    if (!found) throw new TokenError('invalid_grant', 'The refresh token is not valid.');
    const { connection } = found;
    const ended = (c: ConnectionRow) => new TokenError('invalid_grant', `The connection has ended: ${END_REASON_TEXT[c.end_reason ?? 'revoked']}.`);
    if (connection.state !== 'active') throw ended(connection);
    if (connection.client_id !== clientId) throw new TokenError('invalid_grant', 'The refresh token was issued to another client.');
    if (form.resource !== undefined && form.resource !== connection.resource) {
      throw new TokenError('invalid_target', 'resource does not match the connection.');
    }
    if (form.scope !== undefined) {
      const granted = connection.scopes.split(' ');
      const extra = form.scope.split(' ').filter(Boolean).find((s) => !granted.includes(s));
      if (extra) throw new TokenError('invalid_scope', `The connection was not granted ${extra.slice(0, 100)}; connect again for more access.`);
    }
    if (found.token.used_at !== null) {
      await connections.end(connection.id, 'refresh_reuse');
      deps.log.warn({ conn: connection.id }, 'refresh token reuse: connection ended');
      throw new TokenError('invalid_grant', 'The refresh token was already used; the connection has ended.');
    }
    if (found.token.expires_at <= deps.now()) {
      await connections.end(connection.id, 'idle');
      throw new TokenError('invalid_grant', 'The connection has ended: not used for 90 days.');
    }
    let lifecycleEnd;
    try {
      lifecycleEnd = await connections.checkLifecycle(connection);
    } catch (err) {
      if (err instanceof LedgerUnavailableError) throw new TokenError('temporarily_unavailable', 'Try again shortly.', 503);
      throw err;
    }
    if (lifecycleEnd) throw new TokenError('invalid_grant', `The connection has ended: ${END_REASON_TEXT[lifecycleEnd]}.`);

    const now = deps.now();
    const result = await db.transaction(async (trx) => {
      const claimed = await trx('tokens').where({ token_hash: found.token.hash }).whereNull('used_at').update({ used_at: now });
      if (claimed === 0) return undefined;
      await trx('connections').where({ id: connection.id }).update({ last_used_at: now });
      return connections.issueTokens(trx, connection);
    });
    if (!result) {
      // presented twice at the same moment: that is reuse too
      await connections.end(connection.id, 'refresh_reuse');
      throw new TokenError('invalid_grant', 'The refresh token was already used; the connection has ended.');
    }
    return result;
  }

  router.post('/oauth/token', async (ctx) => {
    noStore(ctx);
    try {
      const form = formOf(ctx);
      const grant = form.grant_type;
      if (!grant) throw new TokenError('invalid_request', 'grant_type is missing.');
      if (grant === 'authorization_code') ctx.body = await exchangeCode(form);
      else if (grant === 'refresh_token') ctx.body = await refresh(form);
      else throw new TokenError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      ctx.status = err.status;
      ctx.body = { error: err.error, error_description: err.description };
    }
  });

  /** RFC 7009: revoking either token ends the connection; unknown tokens answer 200 as well. */
  router.post('/oauth/revoke', async (ctx) => {
    noStore(ctx);
    try {
      const form = formOf(ctx);
      const token = required(form, 'token');
      const hint = form.token_type_hint;
      if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') {
        throw new TokenError('unsupported_token_type', 'token_type_hint must be access_token or refresh_token.');
      }
      const found = (await connections.findToken('access', token)) ?? (await connections.findToken('refresh', token));
      if (found && (form.client_id === undefined || form.client_id === found.connection.client_id)) {
        if (await connections.end(found.connection.id, 'revoked')) deps.log.info({ conn: found.connection.id }, 'connection revoked by client');
      }
      ctx.status = 200;
      ctx.body = '';
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      ctx.status = err.status;
      ctx.body = { error: err.error, error_description: err.description };
    }
  });

  return router;
}
