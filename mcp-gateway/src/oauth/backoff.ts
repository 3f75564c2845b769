/**
 * Exponential backoff after failed sign-ins, per key (an account, an IP address), counted in
 * the gateway's limit store (Redis when REDIS_URL is set, so every replica sees the same
 * failures; process memory otherwise). The first `free` failures cost nothing; each further
 * failure blocks the key for twice as long as the one before, up to `maxMs`. The count is
 * forgotten `forgetMs` after the first failure it holds (a fixed window: the limiter's
 * window, the same in Redis and memory); a running block ends on its own time.
 *
 * Every method throws LimitUnavailableError when the store cannot answer: the sign-in page
 * then refuses (fail closed, docs/operations.md).
 */
import { createHash } from 'node:crypto';
import type { Limiter, LimitStore } from '../limits.ts';

export interface BackoffOptions {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

/** More failures than anyone makes in a window: the failure count itself never refuses. */
const UNLIMITED = 1_000_000_000;

export class Backoff {
  private readonly failures: Limiter;
  private readonly blocks: Limiter;

  constructor(
    limits: LimitStore,
    name: string,
    private readonly opts: BackoffOptions,
  ) {
    this.failures = limits.limiter({
      name: `${name}-failures`,
      points: UNLIMITED,
      duration: Math.ceil(opts.forgetMs / 1000),
    });
    this.blocks = limits.limiter({ name: `${name}-block`, points: 1, duration: Math.ceil(opts.maxMs / 1000) });
  }

  /** Milliseconds until the key may try again (0: now). */
  waitMs(key: string): Promise<number> {
    return this.blocks.blockedMs(storeKey(key));
  }

  async fail(key: string): Promise<void> {
    const k = storeKey(key);
    const failures = await this.failures.add(k);
    if (failures < this.opts.free) return;
    const exp = Math.min(failures - this.opts.free, 30);
    await this.blocks.block(k, Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** exp) / 1000);
  }

  async reset(key: string): Promise<void> {
    const k = storeKey(key);
    await Promise.all([this.failures.forget(k), this.blocks.forget(k)]);
  }
}

/** Keys name e-mail addresses: the store holds only their hash. */
function storeKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** Per account: 5 free failures, then 30 s doubling up to 15 min. Per IP: 20, then 30 s doubling. */
export const SIGN_IN_BACKOFF = {
  account: { free: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  ip: { free: 20, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
} satisfies Record<string, BackoffOptions>;
