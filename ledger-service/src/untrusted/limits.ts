import { availableParallelism } from 'node:os';

/**
 * The limits of the parsing threads (pool.ts), apart from the pool itself so that reading
 * the configuration (config.ts) does not load the thread pool.
 */
export interface FileJobLimits {
  /** threads parsing at once (default: the machine's cores, at most 4) */
  threads: number;
  /** longest a job may run, ms, counted from when its job function begins */
  timeoutMs: number;
  /** longest a job may wait for a thread, its start and its module's import, ms (then 503) */
  startMs: number;
  /** V8 heap of a parsing thread, MiB */
  memoryMb: number;
  /** largest input, bytes */
  maxBytes: number;
  /** jobs waiting for a thread before new ones are refused with 503 */
  maxQueue: number;
  /** jobs of one company running and waiting at once before its next one is refused with 503 */
  companyJobs?: number;
}

/** A company's share of the parsing threads and their queue (at most 8 of its files at once). */
export const DEFAULT_COMPANY_JOBS = 8;

export const DEFAULT_FILE_JOB_LIMITS: Omit<FileJobLimits, 'maxBytes'> = {
  threads: Math.max(1, Math.min(4, availableParallelism())),
  timeoutMs: 20_000,
  startMs: 120_000,
  memoryMb: 512,
  maxQueue: 64,
};
