import type PgBoss from 'pg-boss';
import { withTenant, type Db } from '../../db/knex.ts';
import type { Logger } from '../../logger.ts';
import { DEFAULT_RETRY_POLICY, ensureQueue, startQueueWorker, type RetryPolicy, type SendJob } from '../../db/queue.ts';
import { loadOutgoingMessage, markAttemptFailed, markSent } from './store.ts';
import { mailTransport, type MailTransport } from './transport.ts';

export interface MailWorkerOptions {
  retry?: RetryPolicy;
  /** how often an idle worker looks for jobs (pg-boss polling), seconds */
  pollingIntervalSeconds?: number;
}

export interface MailWorker {
  stop(): Promise<void>;
}

/**
 * Sends queued messages: takes one job at a time from the queue (pg-boss hands each job to
 * one worker across all ledger replicas), loads its message, hands it to the transport and
 * records the outcome. A failed attempt is recorded and thrown, so pg-boss retries it with
 * backoff; after the last retry the message is `failed`. A message already `sent` (a job
 * delivered again after a crash between sending and recording) is not sent again.
 * No database transaction is held open while talking to the SMTP server.
 */
export function startMailWorker(deps: {
  db: Db;
  databaseUrl: string;
  config: { smtpUrl: string | undefined; dataDir: string; mailQueue: string };
  log: Logger;
  options?: MailWorkerOptions;
}): MailWorker {
  const { db, config, log } = deps;
  const transport = mailTransport(config);
  const worker = startQueueWorker({
    databaseUrl: deps.databaseUrl,
    log,
    what: 'mail',
    async setup(client) {
      await ensureQueue(client, config.mailQueue, deps.options?.retry ?? DEFAULT_RETRY_POLICY);
      await client.work<SendJob>(
        config.mailQueue,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: deps.options?.pollingIntervalSeconds ?? 2 },
        async (jobs) => {
          for (const job of jobs) await sendOne(db, transport, log, job);
        },
      );
    },
  });
  return {
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}

async function sendOne(
  db: Db,
  transport: MailTransport,
  log: Logger,
  job: PgBoss.JobWithMetadata<SendJob>,
): Promise<void> {
  const { companyId, messageId } = job.data;
  const message = await withTenant(db, companyId, (tx) => loadOutgoingMessage(tx, messageId));
  if (message?.status !== 'queued') return;
  try {
    await transport.deliver(message);
  } catch (err) {
    const final = job.retryCount >= job.retryLimit;
    const reason = err instanceof Error ? err.message : String(err);
    await withTenant(db, companyId, (tx) => markAttemptFailed(tx, messageId, reason, final));
    log.warn({ messageId, attempt: message.attempts + 1, final, reason }, 'e-mail not sent');
    throw err;
  }
  await withTenant(db, companyId, (tx) => markSent(tx, messageId));
  log.info({ messageId }, 'e-mail sent');
}
