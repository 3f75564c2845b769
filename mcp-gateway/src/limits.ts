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
import { Redis } from 'ioredis';
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
}

/**
 * One limit: a count per key within a window. Every method throws LimitUnavailableError
 * when the store cannot answer, never the library's own rejection value.
 */
export class Limiter {
  constructor(private readonly rl: RateLimiterAbstract) {}

  /** Takes one point; refused once the window's points are used up. */
  async take(key: string): Promise<RateDecision> {
    try {
      await this.rl.consume(key, 1);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
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
    limiter: ({ name, points, duration }) => new Limiter(new RateLimiterMemory({ keyPrefix: name, points, duration })),
    close: async () => undefined,
  };
}

/**
 * Redis at `url`; `prefix` starts every key (tests give each run its own). Resolves once the
 * first connection attempt has succeeded or failed: a gateway starting while Redis is down
 * starts anyway and applies the limits' failure rules until Redis is back.
 */
export async function redisLimits(url: string, log: Logger, prefix = 'gw'): Promise<LimitStore> {
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
    log.warn({ err: err.message }, 'redis unavailable: registration and sign-in are refused, MCP calls are not rate limited');
  });
  client.on('ready', () => {
    if (lastLogged !== 0) log.info('redis reachable again');
    lastLogged = 0;
  });
  await client.connect().catch(() => undefined); // the error event above has logged it
  return {
    kind: 'redis',
    limiter: ({ name, points, duration }) =>
      new Limiter(new RateLimiterRedis({ storeClient: client, keyPrefix: `${prefix}:${name}`, points, duration, rejectIfRedisNotReady: true })),
    async close() {
      client.disconnect();
    },
  };
}

/** The store the configuration names. */
export function openLimits(redisUrl: string | undefined, log: Logger, prefix?: string): Promise<LimitStore> {
  return redisUrl ? redisLimits(redisUrl, log, prefix) : Promise.resolve(memoryLimits());
}
