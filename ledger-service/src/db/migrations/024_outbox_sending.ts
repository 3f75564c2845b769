import type { Knex } from 'knex';

/**
 * The outbox's `sending` state (modules/outbox/worker.ts): a message goes queued → sending →
 * sent (or back to queued after a failed attempt, failed after the last), and `sending` is
 * committed before the SMTP server is talked to. A message found in `sending` was being sent
 * when its process stopped; `sending_at` says since when. A Message-ID is one message: unique
 * per company, so the outbox cannot hold (and send) the same Message-ID twice.
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
}

export async function down(knex: Knex): Promise<void> {
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
