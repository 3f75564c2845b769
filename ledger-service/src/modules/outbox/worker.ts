import type PgBoss from 'pg-boss';
import { withTenant, type Db } from '../../db/knex.ts';
import type { Logger } from '../../logger.ts';
import { DEFAULT_RETRY_POLICY, ensureQueue, startQueueWorker, type RetryPolicy, type SendJob } from '../../db/queue.ts';
import { rendererOf, type AttachmentRenderers } from './render.ts';
import {
  claimForSending,
  loadOutgoingMessage,
  markAttemptFailed,
  markSent,
  storeRenderedAttachment,
  type OutgoingMessage,
  type StoredMessage,
} from './store.ts';
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
 * one worker across all ledger replicas) and moves its message queued → sending → sent:
 *
 * - `sending` is committed, in its own transaction, before the transport is called. No
 *   database transaction is held open while talking to the SMTP server.
 * - The transport hands the message over with the Message-ID fixed when it was queued.
 * - `sent` is recorded afterwards. A failed attempt goes back to `queued` and is thrown, so
 *   pg-boss retries it with backoff; after the last retry the message is `failed`.
 *
 * A message already `sent` or `failed` is never sent again. A message found in `sending` was
 * cut off between the hand-over and its record (a crash, a kill): whether the server took it
 * is unknown, so it is sent once more with the same Message-ID — the receiving side
 * de-duplicates by Message-ID, and the `.eml` outbox keeps the file already written — and the
 * cut-off attempt is noted in `last_error`. Mail is thus never lost, and a repeat after a
 * crash is the same message, not a new one.
 *
 * An attachment still to be rendered (render.ts) is rendered after the claim, in a transaction of
 * its own, and stored as the attachment's document before the transport is called: a failed
 * rendering is a failed attempt like a failed hand-over (retried), and a repeat sends the stored
 * file. `renderers` are the ones the ledger's start registers (modules/index.ts).
 */
export function startMailWorker(deps: {
  db: Db;
  databaseUrl: string;
  config: { smtpUrl: string | undefined; dataDir: string; mailQueue: string };
  log: Logger;
  renderers?: AttachmentRenderers;
  options?: MailWorkerOptions;
}): MailWorker {
  const { db, config, log } = deps;
  const renderers = deps.renderers ?? {};
  const transport = mailTransport(config);
  const worker = startQueueWorker({
    databaseUrl: deps.databaseUrl,
    log,
    what: 'mail',
    async setup(_client, work) {
      await ensureQueue(db, config.mailQueue, deps.options?.retry ?? DEFAULT_RETRY_POLICY);
      work<SendJob>(config.mailQueue, { pollingIntervalSeconds: deps.options?.pollingIntervalSeconds ?? 2 }, (job) =>
        sendOne(db, transport, renderers, log, job),
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
  renderers: AttachmentRenderers,
  log: Logger,
  job: PgBoss.JobWithMetadata<SendJob>,
): Promise<void> {
  const { companyId, messageId } = job.data;
  const claimed = await withTenant(db, companyId, async (tx) => {
    const claim = await claimForSending(tx, companyId, messageId);
    return claim && { claim, message: await loadOutgoingMessage(tx, companyId, messageId) };
  });
  if (!claimed?.message) return;
  const { claim, message } = claimed;
  if (claim.interrupted) log.warn({ messageId }, 'e-mail found in sending: sent again with the same Message-ID');
  try {
    await transport.deliver(await rendered(db, renderers, companyId, message));
  } catch (err) {
    const final = job.retryCount >= job.retryLimit;
    const reason = err instanceof Error ? err.message : String(err);
    await withTenant(db, companyId, (tx) => markAttemptFailed(tx, companyId, messageId, reason, final));
    log.warn({ messageId, attempt: message.attempts + 1, final, reason }, 'e-mail not sent');
    throw err;
  }
  await withTenant(db, companyId, (tx) => markSent(tx, companyId, messageId));
  log.info({ messageId }, 'e-mail sent');
}

/** The message with every attachment's bytes: those still to be rendered rendered now and stored. */
async function rendered(
  db: Db,
  renderers: AttachmentRenderers,
  companyId: number,
  message: StoredMessage,
): Promise<OutgoingMessage> {
  const ready = message.attachments.flatMap((a) => ('data' in a ? [a] : []));
  if (ready.length === message.attachments.length) return { ...message, attachments: ready };
  const attachments = await withTenant(db, companyId, async (tx) => {
    const out = [];
    for (const a of message.attachments) {
      if ('data' in a) {
        out.push(a);
        continue;
      }
      const file = { filename: a.filename, mediaType: a.mediaType };
      const data = await rendererOf(renderers, a.render.kind)(tx, companyId, a.render.ref);
      out.push({ ...file, data: await storeRenderedAttachment(tx, companyId, a.attachmentId, { ...file, data }) });
    }
    return out;
  });
  return { ...message, attachments };
}
