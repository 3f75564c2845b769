/**
 * 120 MCP requests per minute per connection (docs/mcp.md "HTTP answers of the MCP endpoint"), counted in the gateway's
 * limit store (src/limits.ts): Redis shared by all replicas, or process memory. When the
 * store cannot answer, the request goes through (fail open: an assistant's work is not
 * stopped by a Redis outage, and every call is still authenticated, scoped and checked by
 * the ledger) with a warning in the log at most every 30 s.
 */
import { LimitUnavailableError, memoryLimits, type Limiter, type RateDecision, type RatePolicy } from '../limits.ts';
import type { McpLogger } from './log.ts';
import type { Maybe } from './maybe.ts';

const WARN_EVERY_MS = 30_000;

export class ConnectionRateLimiter {
  private lastWarned = 0;

  constructor(
    private readonly limiter: Limiter,
    private readonly log: McpLogger,
    private readonly onUnavailable: () => void = () => undefined,
  ) {}

  /** In process memory (an endpoint built without the gateway's limit store, e.g. in tests). */
  static inMemory(perMinute: number, log: McpLogger): ConnectionRateLimiter {
    return new ConnectionRateLimiter(memoryLimits().limiter({ name: 'mcp', points: perMinute, duration: 60 }), log);
  }

  /** what the refusals' RateLimit-Policy header names */
  get policy(): RatePolicy {
    return this.limiter.policy;
  }

  /** At once when the limit counts in process memory (limits.ts `takeNow`), else by asking its store. */
  take(connectionId: string): Maybe<RateDecision> {
    return this.limiter.takeNow(connectionId) ?? this.takeFromStore(connectionId);
  }

  private async takeFromStore(connectionId: string): Promise<RateDecision> {
    try {
      return await this.limiter.take(connectionId);
    } catch (err) {
      if (!(err instanceof LimitUnavailableError)) throw err;
      this.onUnavailable();
      const now = Date.now();
      if (now - this.lastWarned >= WARN_EVERY_MS) {
        this.lastWarned = now;
        this.log.warn(
          { err: err.message },
          'MCP rate limit store unavailable: requests are let through without the limit',
        );
      }
      // nothing was counted, so nothing is known to be used up
      return { allowed: true, retryAfterSeconds: 0, remaining: this.limiter.policy.quota };
    }
  }
}
