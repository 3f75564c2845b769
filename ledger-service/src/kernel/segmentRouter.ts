/**
 * The client routes (`/client/:dataset/...`), looked up by the method and the first two
 * segments after the dataset, so that a request is matched against the few routes that can
 * take it rather than every route of the API in turn (`@koa/router` tests each route's
 * expression, with a debug call, on every request: a bill was matched against about two
 * hundred). Each lookup has its own `@koa/router` router holding just the routes that can match
 * such a path, in the order they were registered, so the first that matches is the one a
 * single router for every route ran. A router with all routes of the first segment answers
 * what that one did not take (OPTIONS, 405 with `Allow`, 501), as the single router did.
 *
 * Segments are compared in lower case and undecoded, as the router matches paths
 * (case-insensitively, on the raw path). Every contract path starts with a literal segment; a
 * second segment that is not a literal (`/documents/:id`) can match anything, so its route is
 * in every lookup of its first segment and method.
 */
import Router, { type RouterMiddleware } from '@koa/router';
import type { Context, Middleware, Next } from 'koa';

interface Registered {
  path: string;
  methods: string[];
  handler: RouterMiddleware;
  /** the second segment in lower case ('' when there is none); undefined when it is not a literal */
  second: string | undefined;
}

interface ByMethod {
  /** second segment → the routes that can match a path with it */
  bySecond: Map<string, Middleware>;
  /** the routes whose second segment is a parameter: for any other second segment */
  other: Middleware | undefined;
}

interface Segment {
  /** method → its lookup by second segment (HEAD: GET's, whose routes take it) */
  methods: Map<string, ByMethod>;
  /**
   * every route of the segment (the 405/OPTIONS/501 answers need the methods all its paths
   * take), then those answers: for what no router of `methods` took
   */
  rest: Middleware;
}

/** A segment `@koa/router` matches as itself (no parameter, wildcard or group). */
const LITERAL = /^[A-Za-z0-9._~-]*$/;

export class SegmentRouter {
  private readonly registered = new Map<string, Registered[]>();
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
    const [first, second] = segmentsAt(path, 0);
    if (first === '' || !LITERAL.test(first))
      throw new Error(`SegmentRouter: route ${path} does not start with a literal segment`);
    const list = this.registered.get(first) ?? [];
    list.push({ path, methods: methods.map((m) => m.toUpperCase()), handler, second: literalOrNot(second) });
    this.registered.set(first, list);
  }

  /**
   * The routes as middleware for paths under the prefix: `rest` is where the path's own
   * segments start in `ctx.path` (after the prefix's segments and their slash).
   */
  dispatch(ctx: Context, rest: number, next: Next): Promise<unknown> {
    const segments = this.built ?? this.build();
    const [first, second] = segmentsAt(ctx.path, rest);
    const segment = segments.get(first);
    if (!segment) return this.unrouted(ctx, next);
    const byMethod = segment.methods.get(ctx.method);
    const routes = byMethod ? (byMethod.bySecond.get(second) ?? byMethod.other) : undefined;
    if (!routes) return segment.rest(ctx, next);
    return routes(ctx, () => segment.rest(ctx, next)) as Promise<unknown>;
  }

  /** A path no route's first segment fits: what a router without a route for it answers. */
  private unrouted(ctx: Context, next: Next): Promise<unknown> {
    return this.none(ctx, () => this.allowedMethods(ctx, next)) as Promise<unknown>;
  }

  /**
   * Makes the lookups, once every route is registered (at start-up rather than on the first
   * request, which would otherwise pay for compiling them); no route can be added afterwards.
   */
  build(): Map<string, Segment> {
    if (this.built) return this.built;
    const built = new Map<string, Segment>();
    for (const [first, routes] of this.registered) {
      const all = this.router(routes);
      const rest: Middleware = (ctx, next) => all(ctx, () => this.allowedMethods(ctx, next));
      const methods = new Map<string, ByMethod>();
      for (const method of new Set(routes.flatMap((r) => r.methods))) {
        const ofMethod = routes.filter((r) => r.methods.includes(method));
        const anySecond = ofMethod.filter((r) => r.second === undefined);
        const bySecond = new Map<string, Middleware>();
        for (const second of new Set(ofMethod.map((r) => r.second))) {
          if (second === undefined) continue;
          // in registration order: a literal second segment's routes and those taking any
          bySecond.set(second, this.router(ofMethod.filter((r) => r.second === second || r.second === undefined)));
        }
        methods.set(method, { bySecond, other: anySecond.length > 0 ? this.router(anySecond) : undefined });
      }
      // a GET route takes HEAD too (@koa/router)
      const get = methods.get('GET');
      if (get && !methods.has('HEAD')) methods.set('HEAD', get);
      built.set(first, { methods, rest });
    }
    this.built = built;
    return built;
  }

  private router(routes: readonly Registered[]): Middleware {
    const router = new Router({ prefix: this.prefix });
    for (const r of routes) router.register(r.path, r.methods, r.handler);
    return router.routes() as Middleware;
  }
}

/** The second segment as looked up: lower case, or undefined when it is not a literal. */
function literalOrNot(segment: string): string | undefined {
  return LITERAL.test(segment) ? segment : undefined;
}

/**
 * The first two segments of `path` from `from` on (a slash there is skipped), in lower case;
 * '' for one that is not there.
 */
function segmentsAt(path: string, from: number): [string, string] {
  const start = path.charCodeAt(from) === 47 /* / */ ? from + 1 : from;
  const end = path.indexOf('/', start);
  if (end < 0) return [path.slice(start).toLowerCase(), ''];
  const secondEnd = path.indexOf('/', end + 1);
  return [
    path.slice(start, end).toLowerCase(),
    path.slice(end + 1, secondEnd < 0 ? undefined : secondEnd).toLowerCase(),
  ];
}
