import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db, Tx } from './knex.ts';
import { PGBOSS_SCHEMA } from './migrations/008_mail.ts';
import type { Logger } from '../logger.ts';
import { INBOX_QUEUE } from './migrations/013_documents.ts';
import { createQueueUnlessPresent, MAIL_QUEUE, MAIL_QUEUE_OPTIONS } from './migrations/025_mail_queue.ts';
import { DomainError } from '../domain/errors.ts';
import { type JobHandler, type JobLoop, type JobLoopOptions, runJobLoop } from './jobLoop.ts';

/**
 * The ledger's durable job queue: pg-boss (schema `pgboss`, created by migration 008), shared
 * by every module that hands work to a background worker (the mail outbox, the inbox's
 * extraction, the webhook deliveries). A job names rows of its module; it is inserted in the
 * same transaction as those rows, so it exists exactly when they do (a rolled-back request
 * leaves neither). The queue names are here, in one place (`QUEUE_NAMES`).
 */

/**
 * The default queue names (migrations create the inbox and mail queues under these names;
 * `MAIL_QUEUE` and `WEBHOOKS_QUEUE` rename the other two, and tests give each run its own).
 */
export const QUEUE_NAMES = { mail: MAIL_QUEUE, inbox: INBOX_QUEUE, webhooks: 'webhook_deliveries' } as const;

export interface SendJob {
  companyId: number;
  messageId: number;
}

/** How often a failed send is retried: 30 s, 1 min, 2 min, … (pg-boss backoff), 10 times (about 8 h). */
export interface RetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retryLimit: MAIL_QUEUE_OPTIONS.retryLimit,
  retryDelaySeconds: MAIL_QUEUE_OPTIONS.retryDelay,
};

/** pg-boss, read when a job is first queued or a worker starts (after the ledger listens), not at start. */
async function pgBoss(): Promise<typeof PgBoss> {
  return (await import('pg-boss')).default;
}

/** pg-boss's SQL run on the transaction's own connection. */
function transactionExecutor(tx: Tx): PgBoss.Db {
  return {
    async executeSql(text, values) {
      // a knex transaction's client hands out the transaction's connection
      const connection = (await tx.client.acquireConnection()) as pg.ClientBase;
      return connection.query(text, values);
    },
  };
}

/** Queues the send of a message inside the transaction `tx` (which inserted the message). */
export async function enqueueSend(tx: Tx, queue: string, job: SendJob): Promise<void> {
  await enqueueJob(tx, queue, { ...job });
}

/**
 * Queues the sends of many messages inside `tx` with one statement (pg-boss's `insert`: the jobs
 * as one JSON parameter, the queue's retry policy), as enqueueSend queues one: a dunning run's
 * reminders. pg-boss's insert silently skips jobs of a queue that does not exist, so the queue is
 * looked up first and its absence refused as enqueueJob refuses it.
 */
export async function enqueueSends(tx: Tx, queue: string, jobs: readonly SendJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const made = await tx.raw<{ rows: unknown[] }>(`select 1 from ${PGBOSS_SCHEMA}.queue where name = ?`, [queue]);
  if (made.rows.length === 0) throw queueNotReady(queue);
  const db = transactionExecutor(tx);
  const PgBossClass = await pgBoss();
  const boss = new PgBossClass({ db, schema: PGBOSS_SCHEMA });
  await boss.insert(
    jobs.map((data) => ({ name: queue, data: { ...data } })),
    { db },
  );
}

const queueNotReady = (queue: string) =>
  new DomainError('unavailable', `The "${queue}" job queue is not ready yet (its worker is starting); retry.`);

/**
 * Queues a job inside the transaction `tx`: it exists exactly when the rows it names do.
 * The same mechanism serves other queues of the ledger (the inbox's extraction jobs).
 */
export async function enqueueJob(tx: Tx, queue: string, data: object): Promise<void> {
  const db = transactionExecutor(tx);
  const PgBossClass = await pgBoss();
  const boss = new PgBossClass({ db, schema: PGBOSS_SCHEMA });
  const id = await boss.send(queue, data, { db });
  // a queue under another name than the migrated one (MAIL_QUEUE) exists once its worker has
  // started: until then the request is refused as a whole (503, nothing written), never a 500
  if (!id) throw queueNotReady(queue);
}

/**
 * A pg-boss instance with its own small pool, for the worker; the schema must be migrated.
 * The pool has a connection for each of its `workers` (the `work()` loops it runs) and one for
 * pg-boss's own upkeep: with fewer, a loop's fetch waits in the pool's queue, and if the pool is
 * closed meanwhile (a ledger closed while its workers start) that fetch never ends, the loop
 * never stops and pg-boss polls for it forever — the process never exits (seen with the
 * webhook senders on a pool of two).
 */
export async function createQueueClient(databaseUrl: string, workers = 1): Promise<PgBoss> {
  const PgBossClass = await pgBoss();
  return new PgBossClass({
    connectionString: databaseUrl,
    schema: PGBOSS_SCHEMA,
    max: workers + 1,
    migrate: false,
    schedule: false,
    application_name: 'ledger-mail',
  });
}

/**
 * Queue DDL, one at a time across every process on the database. pg-boss keeps each queue as a
 * partition of pgboss.job (create_queue makes and attaches a table, delete_queue drops it), and
 * two of these at once can deadlock on pgboss.job and pgboss.queue (seen: test ledgers starting
 * and stopping side by side, each with queues of its own; possible for replicas starting at
 * once). One transaction-scoped advisory lock serialises them; a queue already there costs one
 * read and no lock.
 */
export async function withQueueDdl<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.raw('select pg_advisory_xact_lock(hashtext(?))', ['ledger: pg-boss queue ddl']);
    return fn(tx);
  });
}

/** Makes the queue unless it is there; `options` as pg-boss's createQueue takes them. */
export async function makeQueue(db: Db, queue: string, options: object): Promise<void> {
  const made = await db.raw(`select 1 from ${PGBOSS_SCHEMA}.queue where name = ?`, [queue]);
  if (made.rows.length > 0) return;
  await withQueueDdl(db, (tx) => createQueueUnlessPresent(tx, queue, options));
}

/** Removes a queue with its jobs (a test's own queue, at its end). */
export async function dropQueue(db: Db, queue: string): Promise<void> {
  await withQueueDdl(db, async (tx) => {
    await tx.raw(`delete from ${PGBOSS_SCHEMA}.job where name = ?`, [queue]);
    await tx.raw(`select ${PGBOSS_SCHEMA}.delete_queue(?)`, [queue]);
  });
}

/**
 * Makes the mail queue unless it is there, with the worker's retry policy: the start does this
 * before it listens (so an e-mail asked for at once finds its queue), and the worker again.
 */
export async function ensureQueue(db: Db, queue: string, policy: RetryPolicy): Promise<void> {
  await makeQueue(db, queue, {
    ...MAIL_QUEUE_OPTIONS,
    retryLimit: policy.retryLimit,
    retryDelay: policy.retryDelaySeconds,
  });
}

/** Registers a loop taking the queue's jobs one at a time (`runJobLoop`); the worker's stop ends it. */
export type WorkQueue = <T extends object>(queue: string, options: JobLoopOptions, handle: JobHandler<T>) => void;

export interface QueueWorker {
  /** resolves once the worker takes jobs (or gave up starting: it retries in the background) */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs a worker on the queue: its own pg-boss client, `setup` creates the queue and
 * registers the handler with `work` (our job loop, not pg-boss's `work()`: see jobLoop.ts).
 * Started in the background and retried every 10 s: a ledger whose database is down still
 * starts (and answers 503), and its workers begin once the database is back. `stop` waits for
 * the jobs in hand.
 */
export function startQueueWorker(deps: {
  databaseUrl: string;
  log: Logger;
  what: string;
  /** the job loops setup registers (default 1): the pool is sized for them */
  workers?: number;
  setup(client: PgBoss, work: WorkQueue): Promise<void>;
}): QueueWorker {
  const { log, what } = deps;
  let boss: PgBoss | undefined;
  let loops: JobLoop[] = [];
  const stopLoops = async () => {
    const running = loops;
    loops = [];
    await Promise.all(running.map((l) => l.stop()));
  };
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const start = async (): Promise<void> => {
    let client: PgBoss;
    try {
      client = await createQueueClient(deps.databaseUrl, deps.workers);
    } catch (err) {
      log.error({ err }, `${what} worker: pg-boss could not be loaded`);
      return;
    }
    client.on('error', (err: Error) => log.error({ err }, `${what} queue error`));
    const work: WorkQueue = (queue, options, handle) => {
      loops.push(runJobLoop(client, queue, options, handle, log));
    };
    try {
      await client.start();
      await deps.setup(client, work);
    } catch (err) {
      log.warn({ err }, `${what} worker could not start; retrying in 10 s`);
      await stopLoops();
      await client.stop({ graceful: false, wait: true }).catch(() => {});
      if (!stopped)
        retryTimer = setTimeout(() => {
          started = start();
        }, 10_000);
      return;
    }
    // stopped while starting: stopped here, once. pg-boss must not be stopped twice — a second
    // stop() leaves a wait loop that polls forever, and the process never exits (seen: a ledger
    // closed while its workers were still registering hung its test until tap's timeout)
    if (stopped) {
      await stopLoops();
      await client.stop({ graceful: true, wait: true, timeout: 10_000 });
      return;
    }
    boss = client;
  };
  let started = start();
  return {
    ready: started,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await started;
      await stopLoops();
      await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
