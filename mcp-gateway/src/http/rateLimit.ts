/**
 * One point taken from an in-memory rate limiter, as a decision instead of the library's
 * rejection: the MCP limit per connection and the registration limit per address both ask
 * this way and answer 429 with Retry-After.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  /** whole seconds (at least 1) until the window frees up, when refused */
  retryAfterSeconds: number;
}

export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<RateDecision> {
  try {
    await limiter.consume(key, 1);
    return { allowed: true, retryAfterSeconds: 0 };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
    }
    throw err;
  }
}
