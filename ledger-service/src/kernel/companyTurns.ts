/**
 * Turns for one company's writes: at most `width` write transactions of a company run at once
 * in this process; the others wait their turn in arrival order, without a database connection.
 *
 * Why: a posting numbers its document from the company's sequence row and its events from the
 * company's event sequence, and both row locks are held to the commit, so one company's
 * postings commit one after the other however many arrive together. Without turns every
 * waiting request holds a pooled connection and a Postgres backend that sleeps on the row
 * lock: at 32 clients of one company, 32 backends on two cores, woken in no fixed order when
 * the lock passes (`npm run bench`: p99 395 ms for a bill, the plain-SQL baseline's own p99
 * 256 ms). Waiting here instead, first come first served, the company's writes still go one
 * after the other at the database, but the lock passes to a backend already running, the
 * cores are not shared with dozens of sleeping backends, and nobody is overtaken: p99 79–98 ms
 * at 32 clients, and 0.94–1.34 of the baseline's throughput where it was 0.70–0.72
 * (docs/benchmarks.md). A width of 2 lets the next write read its snapshot while the one
 * before commits.
 *
 * Reads (GET) never wait for a turn: they take no lock that writes hold. Other companies'
 * writes have their own turns, so one company's flood of writes also holds at most `width` of
 * the pool's connections. The turns are per process: replicas each keep their own, which
 * only adds concurrency at the database, where the row locks still decide. More than
 * `maxWaiting` writes waiting for one company are refused with 503 `unavailable` and a
 * Retry-After rather than queued without end.
 */
import { ApiError } from './errors.ts';

export interface CompanyTurnsOptions {
  /** write transactions of one company at once; 0 turns the limit off */
  width: number;
  /** writes of one company waiting at once before a new one is refused */
  maxWaiting?: number;
}

interface Line {
  running: number;
  waiting: (() => void)[];
}

export const DEFAULT_WRITE_TURNS = 2;
const DEFAULT_MAX_WAITING = 1000;

export class CompanyTurns {
  private readonly lines = new Map<number, Line>();
  private readonly width: number;
  private readonly maxWaiting: number;

  constructor(options: CompanyTurnsOptions) {
    this.width = options.width;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
  }

  /** Runs `fn` in one of the company's turns, after the writes that came before it. */
  async take<T>(companyId: number, fn: () => Promise<T>): Promise<T> {
    if (this.width <= 0) return fn();
    let line = this.lines.get(companyId);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(companyId, line);
    }
    if (line.running < this.width) line.running++;
    else {
      if (line.waiting.length >= this.maxWaiting) {
        throw new ApiError(
          'unavailable',
          'Too many writes of this company are waiting; retry shortly.',
          undefined,
          undefined,
          {
            'Retry-After': '1',
          },
        );
      }
      // the turn is handed over by the one that ends (`running` stays counted for us)
      await new Promise<void>((resolve) => line.waiting.push(resolve));
    }
    try {
      return await fn();
    } finally {
      this.pass(companyId, line);
    }
  }

  /** Writes of the company running and waiting now (for tests and metrics). */
  state(companyId: number): { running: number; waiting: number } {
    const line = this.lines.get(companyId);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private pass(companyId: number, line: Line): void {
    const next = line.waiting.shift();
    if (next) {
      next();
      return;
    }
    line.running--;
    if (line.running === 0) this.lines.delete(companyId);
  }
}
