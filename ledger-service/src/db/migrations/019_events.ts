import type { Knex } from 'knex';
import { enableTenantRls } from './rls.ts';

/**
 * Events for integrations (modules/events, docs/events.md): the change feed and webhooks.
 *
 * `events` is an outbox: one row per change an integration cares about, written in the
 * change's own transaction. `seq` is the company's gapless sequence (the feed's cursor),
 * taken from the company's `sequences` row (kind `event`), whose row lock is held until
 * commit: events of one company become visible in sequence order, so a reader that saw
 * `seq` n has seen every event before it (no gaps, no late arrivals behind a cursor).
 *
 * `webhook_subscriptions` (the secret encrypted with the ledger's key), `webhook_deliveries`
 * (one per event and subscription, delivered in id order per subscription; the pump's lease
 * on the subscription keeps one sender per subscription across replicas) and
 * `webhook_attempts` (the per-delivery log). All under RLS like every books table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('seq').notNullable();
    t.text('type').notNullable();
    t.timestamp('time', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    // the resource's read path relative to the company's base URL, e.g. /gl/transactions/12
    t.text('subject').notNullable();
    t.text('resource_type').notNullable();
    t.text('resource_id').notNullable();
    t.jsonb('actor').notNullable();
    t.jsonb('data').notNullable();
    t.primary(['company_id', 'seq']);
    t.index(['company_id', 'type', 'seq']);
    t.index(['company_id', 'time']);
  });

  await knex.schema.createTable('webhook_subscriptions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('secret').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // the pg-boss queue its deliveries are woken on (WEBHOOKS_QUEUE when it was made; tests name their own)
    t.text('queue').notNullable();
    t.bigInteger('created_by');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // one sender at a time per subscription (across replicas): who holds it, until when
    t.uuid('lease_token');
    t.timestamp('lease_until', { useTz: true });
    t.index(['company_id']);
  });
  await knex.raw(
    `alter table webhook_subscriptions add constraint webhook_subscriptions_status_check
       check (status in ('active','disabled','deleted'))`,
  );

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.bigInteger('event_seq').notNullable();
    // why it was queued: the event itself, a manual redelivery or a replay
    t.text('reason').notNullable().defaultTo('event');
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('first_failed_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['subscription_id', 'status', 'id']);
    t.foreign(['company_id', 'event_seq']).references(['company_id', 'seq']).inTable('events').onDelete('CASCADE');
  });
  await knex.raw(
    `alter table webhook_deliveries add constraint webhook_deliveries_status_check
       check (status in ('pending','delivered','failed'))`,
  );
  await knex.raw(
    `alter table webhook_deliveries add constraint webhook_deliveries_reason_check
       check (reason in ('event','redelivery','replay'))`,
  );

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.bigInteger('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('status_code');
    t.text('error');
    t.integer('duration_ms').notNullable();
    t.index(['delivery_id']);
  });

  for (const table of ['events', 'webhook_subscriptions', 'webhook_deliveries', 'webhook_attempts']) {
    await enableTenantRls(knex, table);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_subscriptions', 'events']) {
    await knex.schema.dropTable(table);
  }
}
