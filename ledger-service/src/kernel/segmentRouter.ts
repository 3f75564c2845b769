/**
 * The client routes (`/client/:dataset/...`), looked up by the first segment after the dataset
 * and the method, so that a request is matched against the few routes that can take it
 * rather than every route of the API in turn (`@koa/router` tests each route's expression
 * on every request; a bill matched about two hundred). Each (segment, method) pair has its
 * own `@koa/router` router holding just those routes, in the order they were registered; the
 * segment's router with all its methods answers what the first cannot take (OPTIONS, 405 with
 * `Allow`, 501), so the answers are the ones a single router for every route gave.
 *
 * The segment is compared in lower case and undecoded, as the router matches paths
 * (case-insensitively, on the raw path); every contract path starts with a literal segment.
 */
import Router, { type RouterMiddleware } from '@koa/router';
import type { Context, Middleware, Next } from 'koa';

interface Segment {
  /** method → the segment's routes of that method (HEAD: GET's, which take it) */
  byMethod: Map<string, Middleware>;
  /**
   * every route of the segment (the 405/OPTIONS/501 answers need the methods all its paths
   * take), then those answers: for what no router of `byMethod` took
   */
  rest: Middleware;
}

export class SegmentRouter {
  private readonly segments = new Map<string, { all: Router; methods: Map<string, Router> }>();
  private built: Map<string, Segment> | undefined;
  /** no route: what a router gives a path it has no route for (ctx.matched set, then allowedMethods) */
  private readonly none: Middleware;
  /** the 405/OPTIONS/501 answers from the routes that matched the path (ctx.matched), as `@koa/router` gives them */
  readonly allowedMethods: Middleware;

  constructor(private readonly prefix: string) {
    const none = new Router({ prefix });
    this.none = none.routes() as Middleware;
    this.allowedMethods = none.allowedMethods({ throw: false }) as Middleware;
  }

  /** Router-compatible registration (kernel/route.ts mountRoutes): path below the prefix, its methods, the handler. */
  register(path: string, methods: string[], handler: RouterMiddleware): void {
    if (this.built) throw new Error('SegmentRouter: a route registered after the first request');
    const segment = firstSegment(path, 0);
    if (segment === undefined || segment === '' || segment.startsWith(':'))
      throw new Error(`SegmentRouter: route ${path} does not start with a literal segment`);
    let s = this.segments.get(segment);
    if (!s) {
      s = { all: new Router({ prefix: this.prefix }), methods: new Map() };
      this.segments.set(segment, s);
    }
    s.all.register(path, methods, handler);
    for (const m of methods) {
      const method = m.toUpperCase();
      let r = s.methods.get(method);
      if (!r) {
        r = new Router({ prefix: this.prefix });
        s.methods.set(method, r);
      }
      r.register(path, [method], handler);
    }
  }

  /**
   * The routes as middleware for paths under the prefix: `rest` is where the segment starts
   * in `ctx.path` (after the prefix's own segments and their slash).
   */
  dispatch(ctx: Context, rest: number, next: Next): Promise<unknown> {
    if (!this.built) this.built = this.build();
    const segments = this.built;
    const segment = segments.get(firstSegment(ctx.path, rest) ?? '');
    if (!segment) return this.unrouted(ctx, next);
    const routes = segment.byMethod.get(ctx.method);
    if (!routes) return segment.rest(ctx, next);
    return routes(ctx, () => segment.rest(ctx, next)) as Promise<unknown>;
  }

  /** A path no route's first segment fits: what a router without a route for it answers. */
  private unrouted(ctx: Context, next: Next): Promise<unknown> {
    return this.none(ctx, () => this.allowedMethods(ctx, next)) as Promise<unknown>;
  }

  private build(): Map<string, Segment> {
    const built = new Map<string, Segment>();
    for (const [name, { all, methods }] of this.segments) {
      const allRoutes = all.routes() as Middleware;
      const rest: Middleware = (ctx, next) => allRoutes(ctx, () => this.allowedMethods(ctx, next));
      const byMethod = new Map<string, Middleware>();
      for (const [method, router] of methods) byMethod.set(method, router.routes() as Middleware);
      // a GET route takes HEAD too (@koa/router)
      const get = byMethod.get('GET');
      if (get && !byMethod.has('HEAD')) byMethod.set('HEAD', get);
      built.set(name, { byMethod, rest });
    }
    return built;
  }
}

/** The path's segment that starts at `from` (a slash there is skipped), in lower case; undefined past the end. */
function firstSegment(path: string, from: number): string | undefined {
  const start = path.charCodeAt(from) === 47 /* / */ ? from + 1 : from;
  if (start > path.length) return undefined;
  const end = path.indexOf('/', start);
  return path.slice(start, end < 0 ? undefined : end).toLowerCase();
}
