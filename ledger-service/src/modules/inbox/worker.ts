import { withTenant, type Db } from '../../db/knex.ts';
import { INBOX_QUEUE, INBOX_QUEUE_OPTIONS } from '../../db/migrations/013_documents.ts';
import type { Logger } from '../../logger.ts';
import type { FileJobs } from '../../untrusted/index.ts';
import { makeQueue, startQueueWorker, type QueueWorker } from '../../db/queue.ts';
import { today } from '../../domain/period.ts';
import { loadForExtraction, readInboxFile, recordExtraction, type ExtractJob } from './service.ts';

/**
 * Extraction of inbox uploads from the durable queue (pg-boss, the mechanism of the mail
 * outbox with its own queue): one job per entry, written in the upload's transaction, so an
 * upload answers at once and its extraction survives restarts. Every ledger process works
 * the queue; pg-boss hands each job to one of them. The file is read outside any database
 * transaction; the result is recorded in a short one. What is wrong with a file (corrupt
 * PDF, invalid QR-bill) is a result (`failed` with its reason), not a job failure: only
 * outages are retried. The file itself is read on a parsing thread (untrusted/pool.ts),
 * with its time and memory limits: over one, the entry fails with the limit as its reason.
 */
export interface InboxWorkerOptions {
  queue?: string;
  /** how often an idle worker looks for jobs, seconds */
  pollingIntervalSeconds?: number;
}

export type InboxWorker = QueueWorker;

export function startInboxWorker(deps: {
  db: Db;
  databaseUrl: string;
  log: Logger;
  fileJobs: FileJobs;
  options?: InboxWorkerOptions;
}): InboxWorker {
  const { db, log, fileJobs } = deps;
  const queue = deps.options?.queue ?? INBOX_QUEUE;
  return startQueueWorker({
    databaseUrl: deps.databaseUrl,
    log,
    what: 'inbox',
    async setup(_client, work) {
      await makeQueue(db, queue, INBOX_QUEUE_OPTIONS);
      work<ExtractJob>(queue, { pollingIntervalSeconds: deps.options?.pollingIntervalSeconds ?? 1 }, (job) =>
        extractOne(db, log, fileJobs, job.data),
      );
    },
  });
}

/** One entry: load, read the file, record the result. Database errors throw (pg-boss retries). */
export async function extractOne(db: Db, log: Logger, fileJobs: FileJobs, job: ExtractJob): Promise<void> {
  const { companyId, entryId } = job;
  const file = await withTenant(db, companyId, (tx) => loadForExtraction(tx, companyId, entryId));
  if (!file) return;
  const started = performance.now();
  const result = await readInboxFile(fileJobs, file.data, file.mediaType, companyId);
  const status = await withTenant(db, companyId, (tx) => recordExtraction(tx, companyId, entryId, result, today()));
  log.info(
    { companyId, entryId, status, result: result.kind, ms: Math.round(performance.now() - started) },
    'inbox entry read',
  );
}
