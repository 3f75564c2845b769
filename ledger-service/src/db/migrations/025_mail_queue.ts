import type { Knex } from 'knex';
import { PGBOSS_SCHEMA } from './008_mail.ts';

/**
 * The mail queue under its default name (`mail_send`), created with the schema as the inbox's
 * queue is (013): until now only the mail worker created it, in the background once the
 * ledger listened, so an e-mail or reminder asked for before that (a ledger just started, a
 * loaded machine, a process run without the worker) found no queue to put its send job in and
 * was answered 500. The options are the worker's own (db/queue.ts `ensureQueue` with
 * `DEFAULT_RETRY_POLICY`): 10 retries from 30 s with backoff, a send expires after 5 min.
 * A queue already there (made by a worker) is left as it is.
 */
export const MAIL_QUEUE = 'mail_send';
export const MAIL_QUEUE_OPTIONS = {
  policy: 'standard',
  retryLimit: 10,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 300,
};

/** Creates a pg-boss queue unless one of that name exists. */
export async function createQueueUnlessPresent(knex: Knex, name: string, options: object): Promise<void> {
  await knex.raw(
    `select ${PGBOSS_SCHEMA}.create_queue(?, ?::json)
      where not exists (select 1 from ${PGBOSS_SCHEMA}.queue where name = ?)`,
    [name, JSON.stringify({ name, ...options }), name],
  );
}

export async function up(knex: Knex): Promise<void> {
  await createQueueUnlessPresent(knex, MAIL_QUEUE, MAIL_QUEUE_OPTIONS);
}

export async function down(): Promise<void> {
  // the queue may hold jobs of messages already queued: it stays
}
