/**
 * POST /oauth/token (grants authorization_code and refresh_token) and POST /oauth/revoke
 * (RFC 7009). Form-encoded requests from public clients; errors per RFC 6749 §5.2; every
 * response `Cache-Control: no-store`. Each grant lives in its own module; this one only
 * reads the form, picks the grant and shapes the answer.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { OAuthDeps } from '../oauthDeps.ts';
import { parseBody } from '../../http/bodyParser.ts';
import { errorBoundary, oauthErrors, sendOAuthError } from '../../http/errors.ts';
import type { IssuedTokens } from '../connections.ts';
import { authorizationCodeGrant } from './authorizationCodeGrant.ts';
import { CodeStore } from './codeStore.ts';
import { refreshTokenGrant } from './refreshTokenGrant.ts';
import { revocation } from './revoke.ts';
import { readForm, TokenError, type TokenForm } from './tokenRequest.ts';

type Grant = (form: TokenForm) => Promise<IssuedTokens>;

/** Tokens and their errors must not be cached (RFC 6749 §5.1). */
function noStore(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

/**
 * Runs the handler; a TokenError becomes its RFC 6749 §5.2 body, anything else goes on to the router's error boundary.
 */
async function answer(ctx: Context, handle: () => Promise<void>): Promise<void> {
  noStore(ctx);
  try {
    await handle();
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    sendOAuthError(ctx, err.status, err.error, err.description);
  }
}

export function tokenRouter(deps: OAuthDeps): Router {
  const router = new Router();
  router.use(errorBoundary(oauthErrors, deps.log), parseBody);
  // a Map, so that a grant_type such as "constructor" cannot reach an Object prototype member
  const grants = new Map<string, Grant>([
    ['authorization_code', authorizationCodeGrant(deps, new CodeStore(deps.db))],
    ['refresh_token', refreshTokenGrant(deps)],
  ]);
  const revoke = revocation(deps);

  router.post('/oauth/token', (ctx) =>
    answer(ctx, async () => {
      const form = readForm(ctx);
      if (!form.grant_type) throw new TokenError('invalid_request', 'grant_type is missing.');
      const grant = grants.get(form.grant_type);
      if (!grant)
        throw new TokenError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
      ctx.body = await grant(form);
    }),
  );

  router.post('/oauth/revoke', (ctx) =>
    answer(ctx, async () => {
      await revoke(readForm(ctx));
      ctx.status = 200;
      ctx.body = '';
    }),
  );

  return router;
}
