/** 120 MCP requests per minute per connection (SPEC.md "Limits"), in memory per gateway process. */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  /** seconds until the window frees up, when refused */
  retryAfterSeconds: number;
}

export class ConnectionRateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(perMinute: number) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: 'mcp' });
  }

  async take(connectionId: string): Promise<RateDecision> {
    try {
      await this.limiter.consume(connectionId, 1);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
      }
      throw err;
    }
  }
}
