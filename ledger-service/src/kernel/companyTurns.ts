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
 * only adds concurrency at the database, where the row locks still decide.
 *
 * Waiting is bounded three ways, so one company's flood costs the process neither time nor
 * memory without end (each a 503 `unavailable` with Retry-After, to that company only):
 * - **count**: more than `maxWaiting` writes of the company waiting → refused at once;
 * - **bytes**: the bodies of its waiting writes are held in memory; more than
 *   `maxWaitingBytes` of them → refused at once;
 * - **time**: a write that waited `maxWaitMs` for its turn leaves the line, refused.
 * A write whose client went away (the connection closed before the answer) leaves the line
 * at once: nobody would read its answer, and running it would only write what nobody knows of.
 */
import type { Context } from 'koa';
import { ApiError } from './errors.ts';

export interface CompanyTurnsOptions {
  /** write transactions of one company at once; 0 turns the limit off */
  width: number;
  /** writes of one company waiting at once before a new one is refused */
  maxWaiting?: number;
  /** bytes of the bodies of one company's waiting writes before a new one is refused */
  maxWaitingBytes?: number;
  /** longest a write waits for its turn, ms, before it is refused */
  maxWaitMs?: number;
}

/** What a write brings to the line: its body's size, and a signal that its client went away. */
export interface TurnWait {
  /** the body's size in bytes (what the waiting write holds in memory) */
  bytes?: number;
  /** aborted when the client went away */
  signal?: AbortSignal;
  /**
   * whether the client went away already, asked before the write takes a turn instead of
   * `signal` (which turnWaitOf makes only when it is read: by a write that has to wait)
   */
  gone?: () => boolean;
}

interface Waiter {
  bytes: number;
  start(): void;
  refuse(err: Error): void;
}

interface Line {
  running: number;
  waiting: Waiter[];
  waitingBytes: number;
}

export const DEFAULT_WRITE_TURNS = 2;
export const DEFAULT_MAX_WAITING_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_WAIT_MS = 15_000;
const DEFAULT_MAX_WAITING = 1000;

function busy(message: string): ApiError {
  return new ApiError('unavailable', message, undefined, undefined, { 'Retry-After': '1' });
}

/** Why a write left the line because its client went away (nobody reads this answer). */
export class ClientGone extends ApiError {
  constructor() {
    super('unavailable', 'The client went away while the write waited for its turn.');
  }
}

export class CompanyTurns {
  private readonly lines = new Map<number, Line>();
  private readonly width: number;
  private readonly maxWaiting: number;
  private readonly maxWaitingBytes: number;
  private readonly maxWaitMs: number;

  constructor(options: CompanyTurnsOptions) {
    this.width = options.width;
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    this.maxWaitingBytes = options.maxWaitingBytes ?? DEFAULT_MAX_WAITING_BYTES;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  }

  /** Runs `fn` in one of the company's turns, after the writes that came before it. */
  async take<T>(companyId: number, fn: () => Promise<T>, wait: TurnWait = {}): Promise<T> {
    if (this.width <= 0) return fn();
    if (wait.gone ? wait.gone() : wait.signal?.aborted) throw new ClientGone();
    let line = this.lines.get(companyId);
    if (!line) {
      line = { running: 0, waiting: [], waitingBytes: 0 };
      this.lines.set(companyId, line);
    }
    if (line.running < this.width) line.running++;
    else await this.waitInLine(companyId, line, wait);
    try {
      return await fn();
    } finally {
      this.pass(companyId, line);
    }
  }

  /** Waits until a write that ends hands its turn over (`running` stays counted for us). */
  private waitInLine(companyId: number, line: Line, wait: TurnWait): Promise<void> {
    const bytes = wait.bytes ?? 0;
    if (line.waiting.length >= this.maxWaiting) {
      throw busy('Too many writes of this company are waiting; retry shortly.');
    }
    if (line.waitingBytes + bytes > this.maxWaitingBytes) {
      throw busy('The writes of this company waiting for their turn hold too much data; retry shortly.');
    }
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        wait.signal?.removeEventListener('abort', onAbort);
        line.waitingBytes -= bytes;
      };
      const waiter: Waiter = {
        bytes,
        start() {
          leave();
          resolve();
        },
        refuse(err) {
          leave();
          reject(err);
        },
      };
      const drop = (err: Error) => {
        const at = line.waiting.indexOf(waiter);
        if (at < 0) return;
        line.waiting.splice(at, 1);
        waiter.refuse(err);
        this.forgetIfIdle(companyId, line);
      };
      const onAbort = () => drop(new ClientGone());
      const timer = setTimeout(
        () =>
          drop(busy(`The write waited ${this.maxWaitMs / 1000} s for this company's earlier writes; retry shortly.`)),
        this.maxWaitMs,
      );
      wait.signal?.addEventListener('abort', onAbort, { once: true });
      line.waitingBytes += bytes;
      line.waiting.push(waiter);
    });
  }

  /** Writes of the company running and waiting now (for tests and metrics). */
  state(companyId: number): { running: number; waiting: number } {
    const line = this.lines.get(companyId);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  /** The bytes of the company's waiting writes' bodies (for tests and metrics). */
  waitingBytes(companyId: number): number {
    return this.lines.get(companyId)?.waitingBytes ?? 0;
  }

  private pass(companyId: number, line: Line): void {
    const next = line.waiting.shift();
    if (next) {
      next.start();
      return;
    }
    line.running--;
    this.forgetIfIdle(companyId, line);
  }

  private forgetIfIdle(companyId: number, line: Line): void {
    if (line.running === 0 && line.waiting.length === 0) this.lines.delete(companyId);
  }
}

/**
 * What a request brings to the line (the call site in route.ts): its body's declared size
 * (`Content-Length`; what was read into memory) and a signal aborted when the connection
 * closes before the answer is sent.
 */
export function turnWaitOf(ctx: Context): TurnWait {
  const res = ctx.res;
  const gone = () => res.writableFinished || res.destroyed;
  let signal: AbortSignal | undefined;
  return {
    bytes: ctx.request.length ?? 0,
    gone,
    // made only for a write that waits (read in waitInLine): most writes get their turn at
    // once, and an AbortController with a 'close' listener per write was measurable CPU
    get signal(): AbortSignal {
      if (signal) return signal;
      const controller = new AbortController();
      if (gone()) controller.abort();
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
      }
      signal = controller.signal;
      return signal;
    },
  };
}
