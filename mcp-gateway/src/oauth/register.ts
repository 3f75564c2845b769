/**
 * POST /oauth/register: dynamic client registration (RFC 7591), at most 10 per hour from one
 * address (counted in Redis when set, so across replicas; 503 while that count cannot be
 * read). Public and CORS-enabled; errors in the RFC 6749/7591 shape, never cached.
 */
import Router from '@koa/router';
import type { OAuthDeps } from './oauthDeps.ts';
import { parseBody } from '../http/bodyParser.ts';
import { errorBoundary, oauthErrors, sendOAuthError } from '../http/errors.ts';
import { LimitUnavailableError, rateLimitHeaders, type RateDecision } from '../limits.ts';
import { RegistrationError } from './clients.ts';

export function registerRouter(deps: OAuthDeps): Router {
  const router = new Router();
  router.use(errorBoundary(oauthErrors, deps.log), parseBody);

  router.post('/oauth/register', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    let rate: RateDecision;
    try {
      rate = await deps.registrationLimiter.take(ctx.ip);
    } catch (err) {
      if (!(err instanceof LimitUnavailableError)) throw err;
      // fail closed: without the shared count the hourly limit cannot hold (docs/operations.md)
      deps.metrics.limitStoreError('register');
      deps.log.warn({ err: err.message }, 'registration refused: the limit store is unavailable');
      ctx.set('Retry-After', '30');
      return sendOAuthError(
        ctx,
        503,
        'temporarily_unavailable',
        'Client registration is temporarily unavailable; try again shortly.',
      );
    }
    if (!rate.allowed) {
      ctx.set(rateLimitHeaders(deps.registrationLimiter.policy, rate));
      return sendOAuthError(ctx, 429, 'rate_limited', 'At most 10 client registrations per hour from one address.');
    }
    if (!ctx.is('application/json'))
      return sendOAuthError(ctx, 400, 'invalid_client_metadata', 'Send the client metadata as application/json.');
    try {
      const registered = await deps.clients.register(ctx.request.body);
      deps.log.info({ client: registered.client_id }, 'client registered');
      ctx.status = 201;
      ctx.body = registered;
    } catch (err) {
      if (!(err instanceof RegistrationError)) throw err;
      sendOAuthError(ctx, 400, err.error, err.message);
    }
  });

  return router;
}
