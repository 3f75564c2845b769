/**
 * The wake-ups of webhook senders on the durable queue (pg-boss, the schema of migration
 * 008). The deliveries themselves are rows (`webhook_deliveries`, written with the event);
 * a job only says "subscription S of company C has something to send". Jobs are keyed by
 * subscription on a `short` queue: at most one waits per subscription, so a burst of events
 * wakes its sender once. A wake-up lost anyhow (a queue made after the event, a crash) is
 * made good by the worker's sweep (worker.ts).
 */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db, Tx } from '../../db/knex.ts';
import { makeQueue } from '../../db/queue.ts';
import { PGBOSS_SCHEMA } from '../../db/migrations/008_mail.ts';

export interface WakeJob {
  companyId: number;
  subscriptionId: number;
}

async function pgBoss(): Promise<typeof PgBoss> {
  return (await import('pg-boss')).default;
}

function singletonKey(job: WakeJob): string {
  return `${job.companyId}:${job.subscriptionId}`;
}

/** Wakes the subscription's sender once `tx` commits (nothing when a wake-up already waits). */
export async function wakeInTransaction(tx: Tx, queue: string, job: WakeJob): Promise<void> {
  const db: PgBoss.Db = {
    async executeSql(text, values) {
      // a knex transaction's client hands out the transaction's own connection
      const connection = (await tx.client.acquireConnection()) as pg.ClientBase;
      return connection.query(text, values);
    },
  };
  const PgBossClass = await pgBoss();
  const boss = new PgBossClass({ db, schema: PGBOSS_SCHEMA });
  await boss.send(queue, { ...job }, { db, singletonKey: singletonKey(job) });
}

/** Wakes the subscription's sender from the worker's own client, now or after `seconds`. */
export async function wake(boss: PgBoss, queue: string, job: WakeJob, seconds = 0): Promise<void> {
  await boss.send(queue, { ...job }, { singletonKey: singletonKey(job), startAfter: Math.max(0, Math.ceil(seconds)) });
}

/**
 * The queue: `short` (one waiting job per key). A sender that dies mid-job is taken up again
 * by pg-boss once the job expires; its work is in the rows, so nothing is lost.
 */
export async function ensureWebhookQueue(db: Db, queue: string): Promise<void> {
  await makeQueue(db, queue, {
    policy: 'short',
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
  });
}
