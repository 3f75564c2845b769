/**
 * POST /oauth/register: dynamic client registration (RFC 7591), at most 10 per hour from one
 * address. Public and CORS-enabled; errors in the RFC 6749/7591 shape, never cached.
 */
import Router from '@koa/router';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { GatewayDeps } from '../deps.ts';
import { parseBody } from '../http/bodyParser.ts';
import { errorBoundary, oauthErrors } from '../http/errors.ts';
import { RegistrationError } from './clients.ts';

export function registerRouter(deps: GatewayDeps): Router {
  const router = new Router();
  router.use(errorBoundary(oauthErrors, deps.log), parseBody);

  router.post('/oauth/register', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      await deps.registrationLimiter.consume(ctx.ip);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      ctx.body = { error: 'rate_limited', error_description: 'At most 10 client registrations per hour from one address.' };
      return;
    }
    if (!ctx.is('application/json')) {
      ctx.status = 400;
      ctx.body = { error: 'invalid_client_metadata', error_description: 'Send the client metadata as application/json.' };
      return;
    }
    try {
      const registered = await deps.clients.register(ctx.request.body);
      deps.log.info({ client: registered.client_id }, 'client registered');
      ctx.status = 201;
      ctx.body = registered;
    } catch (err) {
      if (!(err instanceof RegistrationError)) throw err;
      ctx.status = 400;
      ctx.body = { error: err.error, error_description: err.message };
    }
  });

  return router;
}
