import Router from '@koa/router';
import type { AppDeps } from '../app.ts';
import { ApiError } from '../errors.ts';
import { buildOpenApi } from '../openapi.ts';
import { clientRoutes } from './index.ts';

/** Health, readiness and the OpenAPI document; no authentication. */
export function metaRouter({ db, config }: AppDeps): Router {
  const router = new Router();
  let openapi: object | undefined;
  router.get('/openapi.json', (ctx) => {
    openapi ??= buildOpenApi(clientRoutes, config.publicUrl);
    ctx.body = openapi;
  });
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await db.raw('select 1');
      ctx.body = { status: 'ready' };
    } catch {
      throw new ApiError('unavailable', 'The database is not reachable.');
    }
  });
  return router;
}
