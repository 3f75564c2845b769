import Koa, { type Middleware } from 'koa';
import type { AppDeps } from './deps.ts';
import { authenticate } from './auth.ts';
import { readBody } from './body.ts';
import { ApiError, errorMiddleware } from './errors.ts';
import { requestContext } from './requestContext.ts';
import { mountRoutes } from './route.ts';
import { SegmentRouter } from './segmentRouter.ts';
import { CompanyTurns, DEFAULT_WRITE_TURNS } from './companyTurns.ts';
import { IdempotencyKeys } from './idempotency.ts';
import { AssistantConfirmations } from './confirmation.ts';
import { LedgerMetrics } from './metrics.ts';
import { clientRoutes } from '../modules/index.ts';
import { metaRouter } from '../modules/meta/routes.ts';
import { internalApi } from '../modules/internal/routes.ts';
import { ServiceCredentialVerifier } from './serviceCredential.ts';

const CLIENT_PREFIX = '/client/:dataset';
/** where the dataset's segment ends in a /client/{dataset}/ path: `/client/` and the segment */
const CLIENT_PREFIX_LENGTH = '/client/'.length;

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
  // bodies are read only once the caller is known (below and in internalApi): an
  // unauthenticated request never makes the ledger buffer or parse a body
  const body = readBody(config);

  const client = new SegmentRouter(CLIENT_PREFIX);
  mountRoutes(client, db, clientRoutes, {
    keys: new IdempotencyKeys(deps.encryptionKey, config.idempotencyWaitMs),
    turns: new CompanyTurns({
      width: config.writeTurns ?? DEFAULT_WRITE_TURNS,
      maxWaitMs: config.writeWaitMs,
      maxWaitingBytes: config.writeWaitingBytes,
    }),
    confirmations: new AssistantConfirmations(deps.encryptionKey, deps.now),
  });
  client.build();
  // every /client/:dataset/... request is authenticated before routing, so a key for
  // another dataset gets 403 whatever the path, and route existence is not revealed
  const auth = authenticate(db, verifier);
  // what no route takes: 405 with Allow, OPTIONS, 501 (without a body: the JSON error body in errorMiddleware)
  const { allowedMethods } = client;
  const clientRequest: Middleware = (ctx, next) => {
    const segment = /^\/client\/([^/]+)(?:\/|$)/.exec(ctx.path)?.[1];
    if (segment === undefined) return client.dispatch(ctx, ctx.path.length, next);
    ctx.params = { dataset: datasetFromPath(segment) };
    const rest = CLIENT_PREFIX_LENGTH + segment.length;
    return auth(ctx, () => body(ctx, () => client.dispatch(ctx, rest, next)));
  };
  // only for the gateway: authenticated by its internal JWT, never by an API key
  const internal = internalApi(deps, body);
  const meta = metaRouter(deps).routes() as Middleware;
  // GET /metrics on the ledger's own (internal) port; the gateway forwards only /client/*
  const metricsRoute = metrics.route();

  // one way per first segment: a request is matched only against the routes that can take it
  app.use((ctx, next) => {
    const path = ctx.path;
    if (path.startsWith('/client/')) return clientRequest(ctx, next);
    const then = () => allowedMethods(ctx, next);
    if (path === '/internal' || path.startsWith('/internal/')) return internal(ctx, then);
    return metricsRoute(ctx, () => meta(ctx, then));
  });
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
