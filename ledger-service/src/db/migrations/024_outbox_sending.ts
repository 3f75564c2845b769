import type { Knex } from 'knex';
import { ensureRole } from '../roles.ts';

/** The role the background sweeps of every company run as (modules/events/store.ts `sweepAllCompanies`). */
export const SWEEP_ROLE = 'ledger_sweeper';

/**
 * The outbox's `sending` state (modules/outbox/worker.ts): a message goes queued → sending →
 * sent (or back to queued after a failed attempt, failed after the last), and `sending` is
 * committed before the SMTP server is talked to. A message found in `sending` was being sent
 * when its process stopped; `sending_at` says since when. A Message-ID is one message: unique
 * per company, so the outbox cannot hold (and send) the same Message-ID twice.
 *
 * And the role of the sweeps over every company (the webhook sweep, every minute): one
 * statement for all companies instead of one transaction per company. `ledger_sweeper` may
 * read the webhook subscriptions and deliveries of every company and delete expired events
 * (row-level security policies for that role alone, beside the tenant policy), and nothing
 * else: no other table, no insert or update. The ledger switches to it (`set local role`)
 * only inside the sweep's own transaction, as it switches to `ledger_app` for a company.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table messages drop constraint messages_status_check');
  await knex.raw(
    `alter table messages add constraint messages_status_check check (status in ('queued','sending','sent','failed'))`,
  );
  await knex.schema.alterTable('messages', (t) => {
    t.timestamp('sending_at', { useTz: true });
  });
  await knex.raw('create unique index messages_company_message_id_unique on messages (company_id, message_id)');

  await ensureRole(knex, SWEEP_ROLE);
  await knex.raw(`grant usage on schema public to ${SWEEP_ROLE}`);
  await knex.raw(`grant select on webhook_subscriptions, webhook_deliveries to ${SWEEP_ROLE}`);
  await knex.raw(`grant select, delete on events to ${SWEEP_ROLE}`);
  for (const table of ['webhook_subscriptions', 'webhook_deliveries', 'events']) {
    await knex.raw(`create policy sweep_read on ?? for select to ${SWEEP_ROLE} using (true)`, [table]);
  }
  await knex.raw(`create policy sweep_prune on events for delete to ${SWEEP_ROLE} using (true)`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_subscriptions', 'webhook_deliveries', 'events']) {
    await knex.raw('drop policy sweep_read on ??', [table]);
  }
  await knex.raw('drop policy sweep_prune on events');
  await knex.raw(`revoke all on webhook_subscriptions, webhook_deliveries, events from ${SWEEP_ROLE}`);
  await knex.raw(`revoke usage on schema public from ${SWEEP_ROLE}`);
  await knex.raw('drop index messages_company_message_id_unique');
  await knex.raw(`update messages set status = 'queued' where status = 'sending'`);
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('sending_at');
  });
  await knex.raw('alter table messages drop constraint messages_status_check');
  await knex.raw(
    `alter table messages add constraint messages_status_check check (status in ('queued','sent','failed'))`,
  );
}
