/**
 * Exponential backoff after failed sign-ins, per key (an account's email, an IP address).
 * The first `free` failures cost nothing; each further failure doubles the wait, up to
 * `maxMs`. A key is forgotten `forgetMs` after its last failure.
 */
import { LRUCache } from 'lru-cache';

interface Entry {
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

export interface BackoffOptions {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export class Backoff {
  private readonly entries = new LRUCache<string, Entry>({ max: 100_000 });

  constructor(
    private readonly opts: BackoffOptions,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until the key may try again (0: now). */
  waitMs(key: string): number {
    const e = this.current(key);
    return e ? Math.max(0, e.lockedUntil - this.now()) : 0;
  }

  fail(key: string): void {
    const now = this.now();
    const e = this.current(key) ?? { failures: 0, lockedUntil: 0, lastFailure: now };
    e.failures += 1;
    e.lastFailure = now;
    if (e.failures >= this.opts.free) {
      const exp = e.failures - this.opts.free;
      e.lockedUntil = now + Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** Math.min(exp, 30));
    }
    this.entries.set(key, e);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  private current(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e && this.now() - e.lastFailure > this.opts.forgetMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }
}

/** Per account: 5 free failures, then 30 s doubling up to 15 min. Per IP: 20, then 30 s doubling. */
export const SIGN_IN_BACKOFF = {
  account: { free: 5, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
  ip: { free: 20, baseMs: 30_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 },
} satisfies Record<string, BackoffOptions>;
