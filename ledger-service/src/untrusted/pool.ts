import type { Piscina } from 'piscina';
import { DomainError } from '../domain/errors.ts';
import { DEFAULT_COMPANY_JOBS, type FileJobLimits } from './limits.ts';

export { DEFAULT_FILE_JOB_LIMITS, type FileJobLimits } from './limits.ts';

/**
 * Untrusted files — bank statements (camt XML, CSV), inbox PDFs and images — are parsed
 * here, in worker threads, never on the thread that serves requests. One ledger process
 * serves every company: a file that takes seconds of CPU or hundreds of megabytes to read
 * (deeply nested XML, a PNG of a billion pixels, a PDF page that inflates to 300 MB) must
 * cost its sender an error, not everyone else their answers.
 *
 * Every job is bounded three ways:
 * - **input size**: refused before it is posted to a thread (413, like the body limit);
 * - **time**: the job's thread is terminated when it runs past `timeoutMs` (V8 stops a
 *   thread between two JavaScript operations, also inside a long parse);
 * - **memory**: each thread runs with a V8 heap limit (`memoryMb`); a job that exceeds it
 *   kills its thread, not the process. Native and wasm memory (canvas, ZXing) is not under
 *   that limit, so the parsers check what they would allocate before they decode (image
 *   dimensions from the header, inflated PDF streams) — see modules/inbox/bounds.ts.
 * Threads start on the first job and stop when idle; a full queue answers 503 with a retry.
 *
 * Fair shares: the threads and the queue are shared by every company, so each company may
 * have at most `companyJobs` jobs running and waiting at once; past that, its next file is
 * refused with 503 (send it again in a moment) while other companies' files still find room
 * in the queue — one company's 70 statement imports no longer make everyone else's answer 503.
 *
 * A job module exports functions built with `fileJob` (job.ts): they return a refusal
 * (the file is wrong) as a value, so only faults of the code itself arrive as exceptions.
 */

/** The thread pool library, read when the first file is parsed rather than at start. */
let piscinaClass: Promise<typeof Piscina> | undefined;
const loadPiscina = () => (piscinaClass ??= import('piscina').then((m) => m.Piscina));

/** What a job function answers across the thread boundary: its value, or why the file is refused. */
export type JobOutcome<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/** A job of a job module: the module's URL and the name of the function it exports. */
export interface JobRef<I, O> {
  module: string;
  name: string;
  /** phantom: the input and output types */
  readonly _types?: (input: I) => O;
}

export function jobRef<I, O>(moduleUrl: string, name: string): JobRef<I, O> {
  return { module: moduleUrl, name };
}

/** What a refused file is to the caller: the message, the limit it hit, and the status code of the refusal. */
export class FileRefused extends DomainError {
  constructor(
    code: 'invalid_request' | 'payload_too_large' | 'unavailable',
    message: string,
    readonly limit: 'file' | 'time' | 'memory' | 'size' | 'busy',
    field?: string,
  ) {
    super(code, message, field);
  }
}

/**
 * What crosses to the thread: the job's input and a flag the thread sets when the job
 * function begins (job.ts), after the thread has started and imported the job module.
 */
export interface JobMessage<I> {
  input: I;
  started: Int32Array;
}

/**
 * The time limit is the file's: it counts from the moment the job function begins, not
 * from the request. Starting a thread and importing a parser (pdfjs, ZXing's wasm) costs
 * seconds on a loaded machine and says nothing about the file; counted against the file,
 * a loaded machine failed ordinary PDFs. Waiting for a thread and starting it have a limit
 * of their own (`startMs`), answered as "busy" rather than as a fault of the file.
 */
/** `Atomics.waitAsync` (Node 16+), which TypeScript's ES2022 library does not declare yet. */
type WaitResult = 'ok' | 'not-equal' | 'timed-out';
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: true; value: Promise<WaitResult> } | { async: false; value: WaitResult };
  }
).waitAsync;

class JobClock {
  readonly started = new Int32Array(new SharedArrayBuffer(4));
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private reason: 'start' | 'time' | undefined;
  private done = false;

  constructor(private readonly limits: FileJobLimits) {
    this.timer = setTimeout(() => this.abort('start'), limits.startMs);
    const wait = waitAsync(this.started, 0, 0, limits.startMs);
    if (wait.async) void wait.value.then((result) => result === 'ok' && this.begin());
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the job was stopped, if it was. */
  stoppedBy(): 'start' | 'time' | undefined {
    return this.reason;
  }

  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
    // releases a waiter still pending (a job that failed before it began)
    Atomics.notify(this.started, 0);
  }

  private begin(): void {
    if (this.done || this.reason) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.abort('time'), this.limits.timeoutMs);
  }

  private abort(reason: 'start' | 'time'): void {
    if (this.done || this.reason) return;
    this.reason = reason;
    this.controller.abort();
  }
}

export class FileJobs {
  private pool: Piscina | undefined;
  private closed = false;
  /** jobs running and waiting, by company */
  private readonly byCompany = new Map<number, number>();

  constructor(readonly limits: FileJobLimits) {}

  /**
   * Runs one job on a parsing thread. Resolves with its value; throws FileRefused when the
   * file is refused (by the parser, or for a limit), any other error for a fault.
   */
  async run<I, O>(
    job: JobRef<I, O>,
    input: I,
    opts: { bytes: number; what: string; transfer?: ArrayBuffer[]; company?: number },
  ): Promise<O> {
    const { limits } = this;
    if (opts.bytes > limits.maxBytes) {
      throw new FileRefused('payload_too_large', `The ${opts.what} is larger than ${limits.maxBytes} bytes.`, 'size');
    }
    if (opts.company === undefined) return this.runShared(job, input, opts);
    const company = opts.company;
    const mine = this.byCompany.get(company) ?? 0;
    if (mine >= (limits.companyJobs ?? DEFAULT_COMPANY_JOBS)) {
      throw new FileRefused(
        'unavailable',
        `Too many files of this company are being read right now; send the ${opts.what} again in a moment.`,
        'busy',
      );
    }
    this.byCompany.set(company, mine + 1);
    try {
      return await this.runShared(job, input, opts);
    } finally {
      const left = (this.byCompany.get(company) ?? 1) - 1;
      if (left > 0) this.byCompany.set(company, left);
      else this.byCompany.delete(company);
    }
  }

  /** Jobs of the company running and waiting now (tests, metrics). */
  companyLoad(company: number): number {
    return this.byCompany.get(company) ?? 0;
  }

  private async runShared<I, O>(
    job: JobRef<I, O>,
    input: I,
    opts: { what: string; transfer?: ArrayBuffer[] },
  ): Promise<O> {
    const { limits } = this;
    const PiscinaClass = await loadPiscina();
    const pool = this.threads(PiscinaClass);
    if (pool.queueSize >= limits.maxQueue) {
      throw new FileRefused(
        'unavailable',
        `Too many files are being read right now; send the ${opts.what} again in a moment.`,
        'busy',
      );
    }
    const clock = new JobClock(limits);
    let outcome: JobOutcome<O>;
    try {
      const message: JobMessage<I> = { input, started: clock.started };
      outcome = (await pool.run(message, {
        filename: job.module,
        name: job.name,
        signal: clock.signal,
        transferList: opts.transfer,
      })) as JobOutcome<O>;
    } catch (err) {
      const stoppedBy = clock.stoppedBy();
      // a thread that died (heap limit, crash) may leave Piscina unwilling to start new ones
      // ("fails during bootstrap"): the next job gets a new pool
      if (!stoppedBy) this.discard(pool);
      if (stoppedBy === 'time') {
        throw new FileRefused(
          'invalid_request',
          `Reading the ${opts.what} took longer than ${limits.timeoutMs / 1000} s; it was stopped.`,
          'time',
        );
      }
      if (stoppedBy === 'start') {
        throw new FileRefused(
          'unavailable',
          `No parsing thread could start reading the ${opts.what} within ${limits.startMs / 1000} s; send it ` +
            `again later.`,
          'busy',
        );
      }
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new FileRefused(
          'invalid_request',
          `Reading the ${opts.what} needed more than ${limits.memoryMb} MiB of memory; it was stopped.`,
          'memory',
        );
      }
      throw err;
    } finally {
      clock.stop();
    }
    if (!outcome.ok) throw new FileRefused('invalid_request', outcome.message, 'file', outcome.field);
    return outcome.value;
  }

  private discard(pool: Piscina): void {
    if (this.pool !== pool) return;
    this.pool = undefined;
    void pool.destroy().catch(() => {});
  }

  private threads(PiscinaClass: typeof Piscina): Piscina {
    if (this.closed) throw new FileRefused('unavailable', 'The service is shutting down.', 'busy');
    if (this.pool) return this.pool;
    const pool = new PiscinaClass({
      minThreads: 0,
      maxThreads: this.limits.threads,
      idleTimeout: 30_000,
      // one job per thread at a time: its time and memory are its own
      concurrentTasksPerWorker: 1,
      // the queue is bounded by run(); Piscina's own check would throw a plain Error
      maxQueue: Number.MAX_SAFE_INTEGER,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      // below the serving thread: a parse never takes the CPU from an answer (Linux nice value)
      niceIncrement: 5,
    });
    // a thread that dies between jobs is reported here, not to a job: the pool is replaced
    pool.on('error', () => this.discard(pool));
    this.pool = pool;
    return pool;
  }

  /** Jobs running and waiting (metrics, tests). */
  get load(): { running: number; queued: number } {
    if (!this.pool) return { running: 0, queued: 0 };
    return { running: this.pool.threads.length - this.pool.idleThreads, queued: this.pool.queueSize };
  }

  /** Stops the threads; jobs still running are cut. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
