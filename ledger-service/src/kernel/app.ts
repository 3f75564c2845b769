import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps } from './deps.ts';
import { authenticate } from './auth.ts';
import { readBody } from './body.ts';
import { ApiError, errorMiddleware } from './errors.ts';
import { requestContext } from './requestContext.ts';
import { mountRoutes } from './route.ts';
import { CompanyTurns, DEFAULT_WRITE_TURNS } from './companyTurns.ts';
import { IdempotencyKeys } from './idempotency.ts';
import { AssistantConfirmations } from './confirmation.ts';
import { LedgerMetrics } from './metrics.ts';
import { clientRoutes } from '../modules/index.ts';
import { metaRouter } from '../modules/meta/routes.ts';
import { internalApi } from '../modules/internal/routes.ts';
import { ServiceCredentialVerifier } from './serviceCredential.ts';

export function createApp(deps: AppDeps): Koa {
  const { db, config, log } = deps;
  const app = new Koa({ proxy: true });
  app.context.config = config; // handlers read limits (e.g. fileLimit) from ctx.config
  Object.assign(app.context, { fileJobs: deps.fileJobs }); // routes that parse an upload: fileJobsOf(ctx)
  const verifier = new ServiceCredentialVerifier(config);

  const metrics = new LedgerMetrics(db);
  app.use(requestContext(log));
  // outside the error middleware: it counts the status the caller finally gets
  app.use(metrics.middleware());
  app.use(errorMiddleware(log));
  // GET /metrics on the ledger's own (internal) port; the gateway forwards only /client/*
  app.use(metrics.route());
  // bodies are read only once the caller is known (below and in internalApi): an
  // unauthenticated request never makes the ledger buffer or parse a body
  const body = readBody(config);

  const meta = metaRouter(deps);
  app.use(meta.routes());
  // only for the gateway: authenticated by its internal JWT, never by an API key
  app.use(internalApi(deps, body));

  // every /client/:dataset/... request is authenticated before routing, so a key for
  // another dataset gets 403 whatever the path, and route existence is not revealed
  const auth = authenticate(db, verifier);
  app.use(async (ctx, next) => {
    const segment = /^\/client\/([^/]+)(?:\/|$)/.exec(ctx.path)?.[1];
    if (segment === undefined) return next();
    ctx.params = { dataset: datasetFromPath(segment) };
    return auth(ctx, () => body(ctx, next));
  });
  const client = new Router({ prefix: '/client/:dataset' });
  mountRoutes(client, db, clientRoutes, {
    keys: new IdempotencyKeys(deps.encryptionKey, config.idempotencyWaitMs),
    turns: new CompanyTurns({
      width: config.writeTurns ?? DEFAULT_WRITE_TURNS,
      maxWaitMs: config.writeWaitMs,
      maxWaitingBytes: config.writeWaitingBytes,
    }),
    confirmations: new AssistantConfirmations(deps.encryptionKey, deps.now),
  });
  app.use(client.routes());
  // 405/501 without a body become the JSON error body in errorMiddleware
  app.use(client.allowedMethods({ throw: false }));
  return app;
}

/** The dataset of a /client/{dataset}/ path; malformed percent-encoding or a NUL is a 400. */
function datasetFromPath(segment: string): string {
  let dataset: string;
  try {
    dataset = decodeURIComponent(segment);
  } catch {
    throw new ApiError('invalid_request', 'The dataset in the path is not valid percent-encoding.');
  }
  if (dataset.includes('\u0000'))
    throw new ApiError('invalid_request', 'The dataset in the path contains a NUL character.');
  return dataset;
}
