/** 120 MCP requests per minute per connection (SPEC.md "Limits"), in memory per gateway process. */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { takePoint, type RateDecision } from '../http/rateLimit.ts';

export class ConnectionRateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(perMinute: number) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: 'mcp' });
  }

  take(connectionId: string): Promise<RateDecision> {
    return takePoint(this.limiter, connectionId);
  }
}
