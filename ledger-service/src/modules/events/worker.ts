/**
 * The webhook sender: every ledger process runs one on the durable queue (pg-boss hands each
 * wake-up to one process). A wake-up names a subscription; the sender takes the
 * subscription's lease (one sender per subscription across replicas, so deliveries go out
 * in order), then sends its pending deliveries oldest first, each in its own short
 * transaction around the HTTP call (none held open while the receiver answers):
 *
 * - 2xx: delivered; the next one follows.
 * - timeout, connection error, 5xx, 408, 429: the same delivery is tried again after the
 *   backoff (rules.ts), and the ones behind it wait (order per subscription). After failing
 *   for 3 days the delivery is failed, the subscription disabled and its owners e-mailed.
 * - any other answer: the receiver refused this one message; it is failed, the next follows.
 *
 * Each delivery is recorded before the next starts; a process killed mid-delivery leaves it
 * pending, and it is sent again (at least once; the receiver tells by `webhook-id`) when its
 * lease has run out and a sender is woken: by pg-boss taking up the expired job, or by the
 * sweep, which also wakes whatever a lost wake-up left waiting and drops expired events.
 */
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { Webhook } from 'standardwebhooks';
import { withTenant, type Db } from '../../db/knex.ts';
import { decryptSecret } from '../../domain/secrets.ts';
import type { Logger } from '../../logger.ts';
import { startQueueWorker, enqueueSend } from '../../db/queue.ts';
import { insertMessage } from '../outbox/index.ts';
import { companyBaseUrl, toCloudEvent } from './reads.ts';
import { ensureWebhookQueue, wake, type WakeJob } from './queue.ts';
import { DEFAULT_WEBHOOK_SENDERS } from './settings.ts';
import { afterFailure, classifyAttempt, DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from './rules.ts';
import {
  disableSubscription,
  headDelivery,
  markDelivered,
  markFailed,
  ownerEmails,
  recordAttempt,
  releaseLease,
  scheduleRetry,
  subscriptionsWithPending,
  sweepAllCompanies,
  takeLease,
  type HeadDelivery,
  type LeasedSubscription,
} from './store.ts';
import { TargetClient, TARGET_LIMITS } from './target.ts';

export interface WebhookWorkerOptions {
  retry?: RetrySchedule;
  /** how long a sender holds a subscription without renewing (s; default 60) */
  leaseSeconds?: number;
  /** how often the sweep runs (s; default 60) */
  sweepIntervalSeconds?: number;
  /** time limit of one delivery (ms; default 10 s) */
  timeoutMs?: number;
  /** how often an idle worker looks for jobs (pg-boss polling, s; default 1) */
  pollingIntervalSeconds?: number;
  /** subscriptions this process sends to at once (default: the events setting, else 8) */
  senders?: number;
}

export interface WebhookWorker {
  ready: Promise<void>;
  stop(): Promise<void>;
}

interface Deps {
  db: Db;
  databaseUrl: string;
  log: Logger;
  encryptionKey: Buffer;
  publicUrl: string;
  mailQueue: string;
  events: { retentionDays: number; allowLoopback: boolean; webhookQueue: string; senders?: number };
  options?: WebhookWorkerOptions;
}

/** How long one wake-up keeps sending before it hands over to a new job (pg-boss expires jobs after 120 s). */
const BUDGET_MS = 60_000;

export function startWebhookWorker(deps: Deps): WebhookWorker {
  const { log } = deps;
  const opts = deps.options ?? {};
  const client = new TargetClient(deps.events.allowLoopback, opts.timeoutMs ?? TARGET_LIMITS.timeoutMs);
  let sweepTimer: NodeJS.Timeout | undefined;
  // the sweep in progress: stop() waits for it, so nothing uses the database pool after the
  // ledger destroys it (a sweep reads every company and can outlast the close)
  let sweeping: Promise<void> | undefined;
  let stopped = false;
  const sender = new Sender(deps, client, opts, () => stopped);
  // `senders` workers on the queue, each sending one subscription's deliveries at a time: a
  // receiver that stalls holds one of them (its own subscription's lease), not the others
  const senders = opts.senders ?? deps.events.senders ?? DEFAULT_WEBHOOK_SENDERS;
  const worker = startQueueWorker({
    databaseUrl: deps.databaseUrl,
    log,
    what: 'webhook',
    workers: senders,
    async setup(b, work) {
      await ensureWebhookQueue(deps.db, deps.events.webhookQueue);
      // one loop with a slot per sender: an idle queue costs one query per interval, not one per sender
      work<WakeJob>(
        deps.events.webhookQueue,
        { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1, concurrency: senders },
        (job) => sender.pump(b, job.data),
      );
      const every = (opts.sweepIntervalSeconds ?? 60) * 1000;
      const sweep = async () => {
        try {
          await sender.sweep(b);
        } catch (err) {
          if (!stopped) log.warn({ err }, 'webhook sweep failed');
        }
        if (!stopped) sweepTimer = setTimeout(startSweep, every);
      };
      const startSweep = () => {
        sweeping = sweep();
      };
      // the first sweep after one interval: a start does not read every company at once
      sweepTimer = setTimeout(startSweep, every);
    },
  });
  return {
    ready: worker.ready,
    async stop() {
      stopped = true;
      clearTimeout(sweepTimer);
      // the sweep first (it wakes senders through pg-boss), then the queue worker, whose stop
      // waits for the deliveries in hand; the ledger destroys the pool only after this
      await sweeping;
      await worker.stop();
      await client.close();
    },
  };
}

class Sender {
  private readonly schedule: RetrySchedule;
  private readonly leaseSeconds: number;

  constructor(
    private readonly deps: Deps,
    private readonly client: TargetClient,
    opts: WebhookWorkerOptions,
    private readonly stopping: () => boolean,
  ) {
    this.schedule = opts.retry ?? DEFAULT_RETRY_SCHEDULE;
    this.leaseSeconds = opts.leaseSeconds ?? 60;
  }

  /** Sends what the subscription has due, in order, until done, waiting on a retry, or out of time. */
  async pump(boss: PgBoss, job: WakeJob): Promise<void> {
    const { db } = this.deps;
    const { companyId, subscriptionId } = job;
    const token = randomUUID();
    const sub = await withTenant(db, companyId, (tx) =>
      takeLease(tx, companyId, subscriptionId, token, this.leaseSeconds),
    );
    if (!sub) {
      // another sender holds it (it may be about to let go): look again shortly if there is work
      const pending = await withTenant(db, companyId, (tx) => subscriptionsWithPending(tx, companyId));
      const mine = pending.find((p) => p.id === subscriptionId);
      if (mine) await wake(boss, mine.queue, job, 2);
      return;
    }
    let handOver = false;
    try {
      const signer = new Webhook(decryptSecret(sub.secret, this.deps.encryptionKey));
      const deadline = Date.now() + BUDGET_MS;
      for (;;) {
        const head = await withTenant(db, companyId, (tx) => headDelivery(tx, companyId, subscriptionId));
        if (!head) break;
        if (!head.due) {
          await wake(boss, sub.queue, job, (new Date(head.next_attempt_at).getTime() - Date.now()) / 1000);
          break;
        }
        if (Date.now() > deadline) {
          handOver = true;
          break;
        }
        const outcome = await this.deliverOne(companyId, sub, signer, head, token);
        if (outcome === 'disabled') break;
      }
    } finally {
      await withTenant(db, companyId, (tx) => releaseLease(tx, companyId, subscriptionId, token));
    }
    if (handOver) await wake(boss, sub.queue, job);
  }

  private async deliverOne(
    companyId: number,
    sub: LeasedSubscription,
    signer: Webhook,
    head: HeadDelivery,
    token: string,
  ): Promise<'sent' | 'disabled'> {
    const { db, log } = this.deps;
    const payload = JSON.stringify(toCloudEvent(head.event, companyBaseUrl(this.deps.publicUrl, head.dataset)));
    // the same id for every attempt and redelivery of an event: the receiver's idempotency key
    const messageId = `evt_${companyId}_${head.event.seq}`;
    const now = new Date();
    const result = await this.client.post(
      sub.url,
      {
        'content-type': 'application/cloudevents+json',
        'webhook-id': messageId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(messageId, now, payload),
      },
      payload,
    );
    const outcome = classifyAttempt(result.statusCode);
    return withTenant(db, companyId, async (tx) => {
      await recordAttempt(tx, companyId, head.id, result);
      if (outcome === 'delivered') await markDelivered(tx, companyId, head.id);
      else if (outcome === 'rejected') await markFailed(tx, companyId, head.id);
      else {
        const next = afterFailure(head.attempts + 1, head.failing_for_seconds, this.schedule);
        if (next.giveUp) {
          await markFailed(tx, companyId, head.id);
          const reason = `deliveries failed for ${describeSpan(this.schedule.giveUpAfterSeconds)} (last: ${
            result.error ?? `HTTP ${result.statusCode}`
          })`;
          if (await disableSubscription(tx, companyId, sub.id, reason)) {
            await this.tellOwners(tx, companyId, head.dataset, sub, reason);
            log.warn({ companyId, webhook: sub.id }, 'webhook disabled after failing deliveries');
          }
          return 'disabled';
        }
        await scheduleRetry(tx, companyId, head.id, next.delaySeconds);
      }
      await takeLease(tx, companyId, sub.id, token, this.leaseSeconds);
      return 'sent';
    });
  }

  /** The e-mail to the company's owners that a webhook was disabled, through the mail outbox. */
  private async tellOwners(
    tx: Parameters<typeof insertMessage>[0],
    companyId: number,
    dataset: string,
    sub: LeasedSubscription,
    reason: string,
  ): Promise<void> {
    const to = await ownerEmails(tx, companyId);
    if (to.length === 0) return;
    const id = await insertMessage(tx, companyId, {
      transactionId: null,
      kind: 'other',
      from: `noreply@${new URL(this.deps.publicUrl).hostname}`,
      to,
      cc: [],
      subject: `Webhook ${sub.id} disabled (${dataset})`,
      text:
        `The webhook ${sub.id} of ${dataset}, sending to ${sub.url}, was disabled: ${reason}.\n\n` +
        'Events are still recorded and can be read from the change feed (GET /events). To receive them again, ' +
        'create a new webhook and replay from the last event the receiver has (POST /system/webhooks/{id}/replay).\n',
      messageId: `<webhook-${sub.id}-${randomUUID()}@${new URL(this.deps.publicUrl).hostname}>`,
      attachments: [],
    });
    await enqueueSend(tx, this.deps.mailQueue, { companyId, messageId: id });
  }

  /**
   * Wakes every subscription with pending deliveries (a lost wake-up), and drops expired events:
   * one transaction for all companies (store.ts `sweepAllCompanies`), then one wake-up each.
   */
  async sweep(boss: PgBoss): Promise<void> {
    const pending = await sweepAllCompanies(this.deps.db, this.deps.events.retentionDays);
    for (const p of pending) {
      // a stopping worker ends its sweep here (the next sweep does the rest)
      if (this.stopping()) return;
      const seconds = (new Date(p.due_at).getTime() - Date.now()) / 1000;
      await wake(boss, p.queue, { companyId: p.company_id, subscriptionId: p.id }, seconds);
    }
  }
}

function describeSpan(seconds: number): string {
  if (seconds >= 86_400) return `${Math.round(seconds / 86_400)} days`;
  if (seconds >= 3600) return `${Math.round(seconds / 3600)} hours`;
  return `${Math.round(seconds)} seconds`;
}
