import type PgBoss from 'pg-boss';
import type { Logger } from '../logger.ts';

/**
 * The loop that takes a queue's jobs one at a time and records each outcome: our own, over
 * pg-boss's public `fetch`, `complete` and `fail`, instead of pg-boss's `work()`.
 *
 * Why not `work()`: pg-boss 10's work loop calls `complete`/`fail` after the handler without
 * awaiting them (manager.js `onFetch`). When the database goes away while a job is in hand —
 * the mail being sent, a file being read, a webhook being delivered — that call's promise
 * rejects with nobody listening, and Node's default for an unhandled rejection ends the process:
 * one database outage would stop the ledger that is meant to answer 503 and recover by itself
 * (seen in CI: an outage test caught `unhandledRejection: connect ECONNREFUSED` from
 * `Manager.fail`). Here every call is awaited: an outcome that cannot be recorded is logged, the
 * job stays active, and pg-boss's supervision expires it and retries it by the queue's policy
 * (every handler of the ledger is safe to run again: the outbox claims by state and
 * Message-ID, the inbox rereads its entry, a delivery is keyed by its webhook id).
 *
 * A loop fetches again at once after a job (a burst of mail does not wait a polling interval
 * per message) and waits the interval when the queue is empty or the database is away; `stop`
 * ends the wait and resolves once the jobs in hand are finished and recorded.
 *
 * `concurrency`: how many jobs the loop has in hand at once (the webhook senders: a receiver that
 * stalls holds one slot, not the others). One loop fetches for all its slots — as many jobs as
 * are free — so an idle queue costs one query per interval, not one per slot (eight webhook
 * senders polling apart were eight queries a second of an idle ledger's CPU).
 */

/** What a worker does with one job; throwing fails it (pg-boss retries it by the queue's policy). */
export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>) => Promise<void>;

export interface JobLoopOptions {
  /** the wait between fetches while the queue is empty */
  pollingIntervalSeconds: number;
  /** jobs in hand at once (default 1) */
  concurrency?: number;
}

export interface JobLoop {
  /** resolves once the loop has ended, after the job in hand */
  stop(): Promise<void>;
}

/** The part of pg-boss the loop uses (the client started by `startQueueWorker`). */
export type JobSource = Pick<PgBoss, 'fetch' | 'complete' | 'fail'>;

export function runJobLoop<T extends object>(
  source: JobSource,
  queue: string,
  options: JobLoopOptions,
  handle: JobHandler<T>,
  log: Logger,
): JobLoop {
  let stopping = false;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const inHand = new Set<Promise<void>>();
  // what the loop waits for (the interval, or a slot to free) ends early on stop
  let wake: (() => void) | undefined;
  const waitFor = (what: Promise<unknown> | undefined, ms?: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
      what?.then(wake, wake);
    });

  const finish = async (job: PgBoss.JobWithMetadata<T>): Promise<void> => {
    let failure: Error | undefined;
    try {
      await handle(job);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    try {
      if (failure) await source.fail(queue, job.id, { message: failure.message });
      else await source.complete(queue, job.id);
    } catch (err) {
      log.warn(
        { err, queue, job: job.id, failed: failure !== undefined },
        'a job outcome could not be recorded; the job expires and is retried',
      );
    }
  };

  /** Fetches as many jobs as there are free slots and starts them; how many it started. */
  const takeFree = async (): Promise<number> => {
    // pg-boss's fetch answers [] when its query fails (the database away): the loop waits
    const jobs = await source.fetch<T>(queue, { batchSize: concurrency - inHand.size, includeMetadata: true });
    for (const job of jobs) {
      const running: Promise<void> = finish(job).finally(() => inHand.delete(running));
      inHand.add(running);
    }
    return jobs.length;
  };

  const loop = async (): Promise<void> => {
    while (!stopping) {
      if (inHand.size >= concurrency) {
        await waitFor(Promise.race(inHand));
        continue;
      }
      let took = 0;
      try {
        took = await takeFree();
      } catch (err) {
        log.warn({ err, queue }, 'a job could not be fetched');
      }
      if (took === 0 && !stopping) await waitFor(undefined, options.pollingIntervalSeconds * 1000);
    }
    await Promise.all(inHand);
  };

  const running = loop();
  return {
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
