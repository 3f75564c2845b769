/**
 * Where the gateway's limits count: in Redis (REDIS_URL) when several replicas must share
 * them, in process memory otherwise. Both are rate-limiter-flexible limiters behind the same
 * interface, so the registration limit, the sign-in backoff and the MCP rate limit have one
 * code path whatever the store.
 *
 * Redis failing is never a crash and never a hung request: the client does not queue
 * commands while disconnected (`enableOfflineQueue: false`), a command waits at most
 * COMMAND_TIMEOUT_MS, reconnection is retried in the background with a capped delay, and
 * error events are logged (at most once per RECONNECT_LOG_MS). What a limit does when its
 * store cannot answer is the caller's decision (`LimitUnavailableError`): registration and
 * sign-in refuse (fail closed), MCP calls go through (fail open) — docs/operations.md.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from './logger.ts';

/** The limit's store could not answer (Redis down or slow); carries the cause for the log. */
export class LimitUnavailableError extends Error {}

export interface LimiterOptions {
  /** key prefix of this limit, e.g. `register` */
  name: string;
  points: number;
  /** window in seconds */
  duration: number;
}

export interface LimitStore {
  readonly kind: 'memory' | 'redis';
  limiter(opts: LimiterOptions): Limiter;
  close(): Promise<void>;
}

/** A command to Redis waits at most this long before it counts as failed. */
export const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2_000;
const RECONNECT_MAX_DELAY_MS = 5_000;
const RECONNECT_LOG_MS = 30_000;

export interface RateDecision {
  allowed: boolean;
  /** whole seconds (at least 1) until the window frees up, when refused */
  retryAfterSeconds: number;
  /** requests left in the window after this one (0 when refused) */
  remaining: number;
}

/** What a limit allows: `quota` requests per `windowSeconds`, under the limit's name. */
export interface RatePolicy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/**
 * The headers of a refused request: `Retry-After`, and the IETF `RateLimit-Policy` and
 * `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers, structured fields) so a client
 * learns the quota and window it ran into, not only when to come back, e.g.
 * `RateLimit-Policy: "mcp";q=120;w=60` and `RateLimit: "mcp";r=0;t=17`.
 */
export function rateLimitHeaders(policy: RatePolicy, decision: RateDecision): Record<string, string> {
  return {
    'Retry-After': String(decision.retryAfterSeconds),
    'RateLimit-Policy': `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${decision.remaining};t=${decision.retryAfterSeconds}`,
  };
}

/**
 * One limit: a count per key within a window. Every method throws LimitUnavailableError
 * when the store cannot answer, never the library's own rejection value.
 */
export class Limiter {
  constructor(
    private readonly rl: RateLimiterAbstract,
    readonly policy: RatePolicy,
  ) {}

  /** Takes one point; refused once the window's points are used up. */
  async take(key: string): Promise<RateDecision> {
    try {
      const res = await this.rl.consume(key, 1);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, res.remainingPoints) };
    } catch (err) {
      if (err instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)), remaining: 0 };
      throw unavailable(err);
    }
  }

  /** Adds one to the key's count without refusing; the count so far in the window. */
  async add(key: string): Promise<number> {
    try {
      return (await this.rl.penalty(key, 1)).consumedPoints;
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Blocks the key for `seconds` (at least 1). */
  async block(key: string, seconds: number): Promise<void> {
    try {
      await this.rl.block(key, Math.max(1, Math.ceil(seconds)));
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Milliseconds until a blocked key is free again (0 when not blocked). */
  async blockedMs(key: string): Promise<number> {
    try {
      const res = await this.rl.get(key);
      return res && res.consumedPoints > this.rl.points ? Math.max(0, res.msBeforeNext) : 0;
    } catch (err) {
      throw unavailable(err);
    }
  }

  async forget(key: string): Promise<void> {
    try {
      await this.rl.delete(key);
    } catch (err) {
      throw unavailable(err);
    }
  }
}

function unavailable(err: unknown): LimitUnavailableError {
  return new LimitUnavailableError(err instanceof Error ? err.message : String(err));
}

/** Process memory: one gateway process only. */
export function memoryLimits(): LimitStore {
  return {
    kind: 'memory',
    limiter: ({ name, points, duration }) =>
      new Limiter(new RateLimiterMemory({ keyPrefix: name, points, duration }), {
        name,
        quota: points,
        windowSeconds: duration,
      }),
    close: async () => undefined,
  };
}

/**
 * Redis at `url`; `prefix` starts every key (tests give each run its own). Resolves once the
 * first connection attempt has succeeded or failed: a gateway starting while Redis is down
 * starts anyway and applies the limits' failure rules until Redis is back.
 */
export async function redisLimits(url: string, log: Logger, prefix = 'gw'): Promise<LimitStore> {
  // read only when REDIS_URL is set: a single gateway counts in memory and never needs it
  const { Redis } = await import('ioredis');
  let lastLogged = 0;
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, RECONNECT_MAX_DELAY_MS),
    lazyConnect: true,
  });
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < RECONNECT_LOG_MS) return;
    lastLogged = now;
    log.warn(
      { err: err.message },
      'redis unavailable: registration and sign-in are refused, MCP calls are not rate limited',
    );
  });
  client.on('ready', () => {
    if (lastLogged !== 0) log.info('redis reachable again');
    lastLogged = 0;
  });
  await client.connect().catch(() => undefined); // the error event above has logged it
  return {
    kind: 'redis',
    limiter: ({ name, points, duration }) =>
      new Limiter(
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: `${prefix}:${name}`,
          points,
          duration,
          rejectIfRedisNotReady: true,
        }),
        { name, quota: points, windowSeconds: duration },
      ),
    async close() {
      client.disconnect();
    },
  };
}

/** The store the configuration names. */
export function openLimits(redisUrl: string | undefined, log: Logger, prefix?: string): Promise<LimitStore> {
  return redisUrl ? redisLimits(redisUrl, log, prefix) : Promise.resolve(memoryLimits());
}
