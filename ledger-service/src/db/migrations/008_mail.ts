import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/** The schema pg-boss keeps its queues and jobs in (db/queue.ts uses the same). */
export const PGBOSS_SCHEMA = 'pgboss';

/**
 * The e-mail outbox (modules/mail): `messages` (one row per e-mail: recipients, subject,
 * text, status queued/sent/failed, attempts, last error, the Message-ID) and
 * `message_attachments`, both under RLS like every books table.
 *
 * pg-boss's own schema is created here too, from the library's construction SQL, so the one
 * migration path (ledger start, `ledger migrate`, the test set-up) installs it and the ledger
 * starts pg-boss with `migrate: false`. Upgrading pg-boss to a new schema version means a
 * new migration running `PgBoss.getMigrationPlans`. The tenant role may enqueue jobs (insert
 * into pgboss.job, read the queue's policy) so the job is written in the request's own
 * transaction: it exists exactly when the message row does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('messages', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // the document the message is about (an invoice); null for other mail
    t.bigInteger('transaction_id').references('arap_transactions.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('from_address');
    t.specificType('to_addresses', 'text[]').notNullable();
    t.specificType('cc_addresses', 'text[]').notNullable().defaultTo('{}');
    t.text('subject').notNullable();
    t.text('body').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    // the RFC 5322 Message-ID, fixed when queued, so every attempt sends the same message
    t.text('message_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.index(['company_id', 'transaction_id']);
  });
  await knex.raw(
    `alter table messages add constraint messages_kind_check check (kind in ('invoice','reminder','other'))`,
  );
  await knex.raw(
    `alter table messages add constraint messages_status_check check (status in ('queued','sent','failed'))`,
  );

  await knex.schema.createTable('message_attachments', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('message_id').notNullable().references('messages.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('filename').notNullable();
    t.text('media_type').notNullable();
    t.binary('data').notNullable();
    t.index(['message_id']);
  });

  for (const table of ['messages', 'message_attachments']) {
    await enableTenantRls(knex, table);
  }

  const [{ exists }] = (
    await knex.raw(`select exists (select 1 from pg_namespace where nspname = ?) as exists`, [PGBOSS_SCHEMA])
  ).rows as [{ exists: boolean }];
  if (!exists) {
    // loaded only when the schema is made: a start with nothing to migrate does not read pg-boss
    const { default: PgBoss } = await import('pg-boss');
    await knex.raw(withoutOwnTransaction(PgBoss.getConstructionPlans(PGBOSS_SCHEMA)));
  }
  await knex.raw(`grant usage on schema ${PGBOSS_SCHEMA} to ledger_app`);
  await knex.raw(`grant select on ${PGBOSS_SCHEMA}.queue to ledger_app`);
  await knex.raw(`grant select, insert on ${PGBOSS_SCHEMA}.job to ledger_app`);
}

/** pg-boss wraps its SQL in BEGIN … COMMIT; here it runs inside the migration's transaction. */
function withoutOwnTransaction(sql: string): string {
  const inner = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(sql)?.[1];
  if (inner === undefined) throw new Error('pg-boss construction SQL is not one BEGIN … COMMIT block');
  return inner;
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('message_attachments');
  await knex.schema.dropTableIfExists('messages');
  await knex.raw(`drop schema if exists ${PGBOSS_SCHEMA} cascade`);
}
