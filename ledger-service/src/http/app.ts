import Koa from 'koa';
import Router from '@koa/router';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Db } from '../db/knex.ts';
import type { LedgerConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { authenticate } from './auth.ts';
import { errorMiddleware } from './errors.ts';
import { requestContext } from './requestContext.ts';
import { mountRoutes } from './route.ts';
import { clientRoutes } from './routes/index.ts';
import { metaRouter } from './routes/meta.ts';
import { internalApi } from './routes/internal.ts';
import { ServiceCredentialVerifier } from './serviceCredential.ts';

export interface AppDeps {
  db: Db;
  config: LedgerConfig;
  log: Logger;
  /** key encrypting TOTP secrets (internal sign-in check) */
  encryptionKey: Buffer;
}

export function createApp(deps: AppDeps): Koa {
  const { db, config, log } = deps;
  const app = new Koa({ proxy: true });
  app.context.config = config; // handlers read limits (e.g. fileLimit) from ctx.config
  const verifier = new ServiceCredentialVerifier(config);

  app.use(requestContext(log));
  app.use(errorMiddleware(log));
  app.use(
    koaBody({
      jsonLimit: config.jsonLimit,
      formLimit: 64 * 1024,
      textLimit: 64 * 1024,
      jsonStrict: true,
      multipart: true,
      formidable: { maxFileSize: config.fileLimit, maxFiles: 20, maxFields: 50 },
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH],
      onError: (err: Error) => {
        throw err;
      },
    }),
  );

  const meta = metaRouter(deps);
  app.use(meta.routes());
  // only for the gateway: authenticated by its internal JWT, never by an API key
  app.use(internalApi(deps));

  // every /client/:dataset/... request is authenticated before routing, so a key for
  // another dataset gets 403 whatever the path, and route existence is not revealed
  const auth = authenticate(db, verifier);
  app.use(async (ctx, next) => {
    const dataset = /^\/client\/([^/]+)(?:\/|$)/.exec(ctx.path)?.[1];
    if (dataset === undefined) return next();
    ctx.params = { dataset: decodeURIComponent(dataset) };
    return auth(ctx, next);
  });
  const client = new Router({ prefix: '/client/:dataset' });
  mountRoutes(client, db, clientRoutes);
  app.use(client.routes());
  app.use(client.allowedMethods({ throw: false }));
  return app;
}
