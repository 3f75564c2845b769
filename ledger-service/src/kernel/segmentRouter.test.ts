/**
 * The client routes looked up by first segments (SegmentRouter) answer every path and method
 * as one `@koa/router` router holding every route did: the same route, the same parameters,
 * the same 404, 405 with Allow, OPTIONS and 501.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import t from 'tap';
import { CONTRACTS, sidesOf } from '@ledger/shared';
import { SegmentRouter } from './segmentRouter.ts';

const PREFIX = '/client/:dataset';

/** The contracts' routes, as kernel/route.ts mounts them: `:vc` written out per side. */
const routes = CONTRACTS.flatMap((c) =>
  sidesOf(c).map((side) => ({
    name: `${c.name}${side ? `:${side}` : ''}`,
    method: c.method,
    path: side ? c.path.replace(':vc', side) : c.path,
  })),
);

function app(middleware: Middleware[]): Koa {
  const koa = new Koa();
  for (const m of middleware) koa.use(m);
  return koa;
}

/** A route's handler: answers with the route it is and the parameters it got. */
function answerFor(name: string): Middleware {
  return (ctx: Context) => {
    ctx.body = { route: name, params: ctx.params };
  };
}

async function serve(teardown: (close: () => Promise<void>) => void, koa: Koa): Promise<string> {
  const server: Server = createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('every path and method reaches what one router for every route reached', async (t) => {
  const single = new Router({ prefix: PREFIX });
  for (const r of routes) single.register(r.path, [r.method], answerFor(r.name));
  const one = app([single.routes() as Middleware, single.allowedMethods({ throw: false }) as Middleware]);

  const segments = new SegmentRouter(PREFIX);
  for (const r of routes) segments.register(r.path, [r.method], answerFor(r.name));
  const bySegment = app([
    (ctx, next) => {
      const dataset = /^\/client\/([^/]+)(?:\/|$)/.exec(ctx.path)?.[1];
      return segments.dispatch(ctx, dataset === undefined ? ctx.path.length : '/client/'.length + dataset.length, next);
    },
  ]);
  const teardown = (close: () => Promise<void>) => t.teardown(close);
  const [oneUrl, segmentUrl] = [await serve(teardown, one), await serve(teardown, bySegment)];

  // each route's path with sample parameters, and what a caller might send instead
  const paths = new Set<string>();
  for (const r of routes) {
    for (const value of ['12', 'vendor']) {
      const path = `/client/ds${r.path.replace(/:\w+/g, value)}`;
      paths.add(path);
      paths.add(`${path}/`);
      paths.add(path.toUpperCase().replace('/CLIENT/DS', '/client/ds'));
      paths.add(`${path}/extra`);
    }
  }
  for (const p of [
    '/client/ds',
    '/client/ds/',
    '/client/ds/nosuch',
    '/client/ds//arap',
    '/client/',
    '/client/ds/arap//vendor',
  ])
    paths.add(p);

  let compared = 0;
  const differences: string[] = [];
  for (const path of paths) {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) {
      const [a, b] = await Promise.all(
        [oneUrl, segmentUrl].map(async (base) => {
          const res = await fetch(`${base}${path}`, { method });
          return `${res.status} ${res.headers.get('allow')} ${await res.text()}`;
        }),
      );
      compared++;
      if (a !== b) differences.push(`${method} ${path}: one router ${a}; by segment ${b}`);
    }
  }
  t.ok(compared > 5000, `${compared} requests compared`);
  t.same(differences.slice(0, 20), [], 'no request answered differently');
});

t.test('a route must start with a literal segment', async (t) => {
  const segments = new SegmentRouter(PREFIX);
  t.throws(() => segments.register('/:id', ['GET'], answerFor('x')), /literal segment/);
  t.throws(() => segments.register('/', ['GET'], answerFor('x')), /literal segment/);
});
