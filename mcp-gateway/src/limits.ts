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
 *
 * In process memory the counts are this file's own (`MemoryWindows`: the rules of
 * rate-limiter-flexible's memory limiter, synchronous), so the MCP limit, taken on every MCP
 * request, answers at once (`takeNow`) instead of by three promises (docs/benchmarks.md "Gateway").
 */
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
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

/** A key's count in its window: points used, when the window ends (epoch ms; null: never). */
interface Window {
  points: number;
  endsAt: number | null;
}

/**
 * Counts in process memory, by rate-limiter-flexible's rules for its memory limiter: a
 * key's window starts with its first point and lasts `durationSeconds` (0: for ever); a
 * block is a window of its own holding one point more than the limit. Ended windows are
 * forgotten when read, and swept once the map holds SWEEP_AT keys, so it holds about the keys
 * counted within one window.
 */
export class MemoryWindows {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly points: number,
    private readonly durationSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key's live window, if any. */
  private live(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    if (w === undefined || w.endsAt === null || w.endsAt > now) return w;
    this.windows.delete(key);
    return undefined;
  }

  private open(key: string, points: number, seconds: number, now: number): Window {
    if (this.windows.size >= SWEEP_AT) this.sweep(now);
    const w: Window = { points, endsAt: seconds > 0 ? now + seconds * 1000 : null };
    this.windows.set(key, w);
    return w;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt !== null && w.endsAt <= now) this.windows.delete(key);
  }

  /** Adds `points` to the key's window (a new one if none is live): the points used, ms until it ends (-1: never). */
  add(key: string, points: number): { used: number; msLeft: number } {
    const now = this.now();
    const live = this.live(key, now);
    if (live) live.points += points;
    const w = live ?? this.open(key, points, this.durationSeconds, now);
    return { used: w.points, msLeft: w.endsAt === null ? -1 : w.endsAt - now };
  }

  /** Blocks the key for `seconds`: a window of its own with one point more than allowed. */
  block(key: string, seconds: number): void {
    this.open(key, this.points + 1, seconds, this.now());
  }

  get(key: string): { used: number; msLeft: number } | undefined {
    const now = this.now();
    const w = this.live(key, now);
    return w && { used: w.points, msLeft: w.endsAt === null ? -1 : w.endsAt - now };
  }

  delete(key: string): void {
    this.windows.delete(key);
  }
}

const SWEEP_AT = 10_000;

/**
 * One limit: a count per key within a window. Every method throws LimitUnavailableError
 * when the store cannot answer, never the library's own rejection value.
 */
export class Limiter {
  constructor(
    private readonly store: RateLimiterAbstract | MemoryWindows,
    readonly policy: RatePolicy,
  ) {}

  /** Takes one point at once when the limit counts in process memory; undefined when its store must be asked. */
  takeNow(key: string): RateDecision | undefined {
    if (!(this.store instanceof MemoryWindows)) return undefined;
    const { used, msLeft } = this.store.add(key, 1);
    if (used <= this.store.points) return { allowed: true, retryAfterSeconds: 0, remaining: this.store.points - used };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)), remaining: 0 };
  }

  /** Takes one point; refused once the window's points are used up. */
  async take(key: string): Promise<RateDecision> {
    const now = this.takeNow(key);
    if (now) return now;
    const rl = this.store as RateLimiterAbstract;
    try {
      const res = await rl.consume(key, 1);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, res.remainingPoints) };
    } catch (err) {
      if (err instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)), remaining: 0 };
      throw unavailable(err);
    }
  }

  /** Adds one to the key's count without refusing; the count so far in the window. */
  async add(key: string): Promise<number> {
    if (this.store instanceof MemoryWindows) return this.store.add(key, 1).used;
    try {
      return (await this.store.penalty(key, 1)).consumedPoints;
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Blocks the key for `seconds` (at least 1). */
  async block(key: string, seconds: number): Promise<void> {
    if (this.store instanceof MemoryWindows) return this.store.block(key, Math.max(1, Math.ceil(seconds)));
    try {
      await this.store.block(key, Math.max(1, Math.ceil(seconds)));
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Milliseconds until a blocked key is free again (0 when not blocked). */
  async blockedMs(key: string): Promise<number> {
    if (this.store instanceof MemoryWindows) {
      const w = this.store.get(key);
      return w && w.used > this.store.points ? Math.max(0, w.msLeft) : 0;
    }
    try {
      const res = await this.store.get(key);
      return res && res.consumedPoints > this.store.points ? Math.max(0, res.msBeforeNext) : 0;
    } catch (err) {
      throw unavailable(err);
    }
  }

  async forget(key: string): Promise<void> {
    if (this.store instanceof MemoryWindows) return this.store.delete(key);
    try {
      await this.store.delete(key);
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
      new Limiter(new MemoryWindows(points, duration), {
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
