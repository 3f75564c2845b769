/**
 * The SQL of events and webhooks (writes and the worker's reads). Everything runs inside a
 * tenant transaction (RLS: only the company's rows), the company id is still written
 * explicitly like everywhere else.
 */
import { type Db, preparedQuery, type Tx } from '../../db/knex.ts';
import { SWEEP_ROLE } from '../../db/migrations/024_outbox_sending.ts';
import type { EventsRow } from '../../db/tables.ts';

/** Who acted, as an event records it. `system`: the ledger itself (a worker, a migration). */
export interface EventActor {
  via: 'api_key' | 'ai_connection' | 'cli' | 'web' | 'app' | 'system';
  id: string | null;
  label: string | null;
  user_id: number | null;
}

/** An event as stored (db/tables.ts), its actor typed. */
export type EventRow = Omit<EventsRow, 'actor'> & { actor: EventActor };

/** An event to write: its row without the company, the sequence number and the actor (the statement adds those). */
export type NewEvent = Pick<EventRow, 'type' | 'subject' | 'resource_type' | 'resource_id' | 'data'>;

/** writeEvents' statement: eventsWrittenWith's CTEs on their own (gated by a CTE that always has its row). */
const WRITE_EVENTS_SQL = `with ev_always as (select 1), ${eventsWrittenWith('ev_always', '?::jsonb')}
  select first, wake from ev_written`;

/**
 * Writes a change's events in one statement: takes `events.length` numbers from the
 * company's event sequence, inserts the events numbered in the order given, and queues each
 * for every active subscription taking its type (in sequence order per subscription). Returns
 * the first number and the subscriptions to wake with their queues.
 *
 * The upsert locks the company's `sequences` row until the transaction ends, so events of one
 * company are numbered and committed one after the other: the feed never shows n+1 before n,
 * and a rolled-back change gives its numbers back. One statement instead of three (sequence,
 * insert, queue): the lock is held from here to the commit, and every round trip in between
 * is time the company's other writes wait.
 */
export async function writeEvents(
  tx: Tx,
  companyId: number,
  actor: EventActor,
  events: readonly NewEvent[],
): Promise<{ first: number; wake: { subscription_id: number; queue: string }[] }> {
  const { rows } = await preparedQuery(tx, WRITE_EVENTS_SQL, [
    companyId,
    events.length,
    events.length,
    events.length,
    companyId,
    JSON.stringify(actor),
    JSON.stringify(events),
  ]);
  const written = rows[0] as { first: string | number; wake: { subscription_id: number; queue: string }[] };
  return { first: Number(written.first), wake: written.wake };
}

/**
 * Whether the company (the one binding: its id) has a webhook subscription that a new event may
 * queue a delivery for, as a SQL expression for another module's statement: a writer whose
 * events would wake no one may let its statement commit the transaction (db/knex.ts
 * `closingQuery`), since the wake-up is a statement after it.
 */
export const ACTIVE_SUBSCRIPTION_SQL = `exists (select 1 from webhook_subscriptions s
     where s.company_id = ? and s.status = 'active')`;

/**
 * The events of a change written by the change's own statement, one round trip less than
 * `writeEvents` after it (the AR/AP document store writes a new document's events so): the
 * three steps (sequence, insert, queue) as CTEs to go after the change's own ones. `gate` names
 * a CTE of the statement: the events are written only when it has a row (a document whose
 * number was taken meanwhile writes none and takes no event number). `events` is a SQL
 * expression of the statement giving the jsonb array of the events (NewEvent: type, subject,
 * resource_type, resource_id, data), so they can name what the statement itself made. The
 * CTE `ev_written` has one row: the first event number (`first`) and the subscriptions to wake
 * (`wake`, as `writeEvents` returns them).
 *
 * Its bindings, in this order: the company id, the number of events three times, the
 * company id, the actor (JSON), then those of `events`.
 */
export function eventsWrittenWith(gate: string, events: string): string {
  return `ev_seq as (
       insert into sequences (company_id, kind, next_value) select ?, 'event', ? + 1 from ${gate}
       on conflict (company_id, kind) do update set next_value = sequences.next_value + ?
       returning next_value - ? as first),
     ev_inserted as (
       insert into events (company_id, seq, type, subject, resource_type, resource_id, actor, data)
       select ?, ev_seq.first + e.i - 1, e.doc->>'type', e.doc->>'subject', e.doc->>'resource_type',
              e.doc->>'resource_id', ?::jsonb, e.doc->'data'
         from ev_seq, jsonb_array_elements(${events}) with ordinality as e(doc, i)
       returning company_id, seq, type),
     ev_queued as (
       insert into webhook_deliveries (company_id, subscription_id, event_seq)
       select s.company_id, s.id, e.seq
         from ev_inserted e join webhook_subscriptions s on s.company_id = e.company_id and s.status = 'active'
        where exists (select 1 from unnest(s.events) p
                       where p = e.type or (right(p, 2) = '.*' and starts_with(e.type, left(p, -1))))
        order by s.id, e.seq
       returning subscription_id),
     ev_written as (
       select (select first from ev_seq) as first,
              coalesce(jsonb_agg(jsonb_build_object('subscription_id', w.subscription_id, 'queue', s.queue)), '[]')
                as wake
         from (select distinct subscription_id from ev_queued) w
         join webhook_subscriptions s on s.id = w.subscription_id)`;
}

// --- subscriptions ---------------------------------------------------------------------

export interface SubscriptionRow {
  id: number;
  company_id: number;
  url: string;
  events: string[];
  secret: string;
  queue: string;
  status: 'active' | 'disabled' | 'deleted';
  disabled_reason: string | null;
  created_at: Date;
}

export async function insertSubscription(
  tx: Tx,
  row: Pick<SubscriptionRow, 'company_id' | 'url' | 'events' | 'secret' | 'queue'> & { created_by: number | null },
): Promise<SubscriptionRow> {
  const [inserted] = await tx<SubscriptionRow>('webhook_subscriptions').insert(row).returning('*');
  return inserted!;
}

/** Subscriptions not deleted, oldest first. */
export async function listSubscriptions(tx: Tx, companyId: number): Promise<SubscriptionRow[]> {
  return tx('webhook_subscriptions').where({ company_id: companyId }).whereNot('status', 'deleted').orderBy('id');
}

export async function findSubscription(tx: Tx, companyId: number, id: number): Promise<SubscriptionRow | undefined> {
  return tx('webhook_subscriptions').where({ company_id: companyId, id }).whereNot('status', 'deleted').first();
}

/** Ends a subscription: deleted, and nothing of it left pending. */
export async function deleteSubscription(tx: Tx, companyId: number, id: number): Promise<boolean> {
  const n = await tx('webhook_subscriptions')
    .where({ company_id: companyId, id })
    .whereNot('status', 'deleted')
    .update({
      status: 'deleted',
      lease_token: null,
      lease_until: null,
    });
  if (n > 0)
    await tx('webhook_deliveries')
      .where({ company_id: companyId, subscription_id: id, status: 'pending' })
      .update({ status: 'failed' });
  return n > 0;
}

export async function disableSubscription(tx: Tx, companyId: number, id: number, reason: string): Promise<boolean> {
  const n = await tx('webhook_subscriptions')
    .where({ company_id: companyId, id, status: 'active' })
    .update({ status: 'disabled', disabled_reason: reason, disabled_at: tx.fn.now() });
  return n > 0;
}

// --- deliveries ---------------------------------------------------------------------------

export interface DeliveryListRow {
  id: number;
  event_seq: number;
  event_type: string;
  reason: 'event' | 'redelivery' | 'replay';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  created_at: Date;
  log: { at: string; status_code: number | null; error: string | null; duration_ms: number }[];
}

/** A subscription's newest deliveries with their attempts, oldest attempt first. */
export async function listDeliveries(
  tx: Tx,
  companyId: number,
  subscriptionId: number,
  q: { limit: number; status?: string },
): Promise<DeliveryListRow[]> {
  const { rows } = await tx.raw(
    `select d.id, d.event_seq, e.type as event_type, d.reason, d.status, d.attempts, d.next_attempt_at,
            d.delivered_at, d.created_at,
            coalesce((select json_agg(json_build_object('at', a.at, 'status_code', a.status_code, 'error', a.error,
                                                        'duration_ms', a.duration_ms) order by a.id)
                        from webhook_attempts a
                       where a.company_id = d.company_id and a.delivery_id = d.id), '[]') as log
       from webhook_deliveries d join events e on e.company_id = d.company_id and e.seq = d.event_seq
      where d.company_id = ? and d.subscription_id = ? ${q.status ? 'and d.status = ?' : ''}
      order by d.id desc limit ?`,
    q.status ? [companyId, subscriptionId, q.status, q.limit] : [companyId, subscriptionId, q.limit],
  );
  return rows;
}

export async function findDelivery(
  tx: Tx,
  companyId: number,
  subscriptionId: number,
  id: number,
): Promise<{ id: number; event_seq: number } | undefined> {
  return tx('webhook_deliveries')
    .where({ company_id: companyId, id, subscription_id: subscriptionId })
    .first('id', 'event_seq');
}

/** Queues deliveries of the given events (in sequence order) for one subscription. */
export async function queueDeliveries(
  tx: Tx,
  companyId: number,
  subscriptionId: number,
  seqs: readonly number[],
  reason: 'redelivery' | 'replay',
): Promise<number> {
  if (seqs.length === 0) return 0;
  await tx('webhook_deliveries').insert(
    seqs.map((seq) => ({ company_id: companyId, subscription_id: subscriptionId, event_seq: seq, reason })),
  );
  return seqs.length;
}

/** The kept events after `after` that the patterns take, in order (at most `limit`). */
export async function eventSeqsAfter(
  tx: Tx,
  companyId: number,
  after: number,
  patterns: readonly string[],
  limit: number,
) {
  const { rows } = await tx.raw<{ rows: { seq: number }[] }>(
    `select e.seq from events e
      where e.company_id = ? and e.seq > ? and exists (select 1 from unnest(?::text[]) p
                                   where p = e.type or (right(p, 2) = '.*' and starts_with(e.type, left(p, -1))))
      order by e.seq limit ?`,
    [companyId, after, [...patterns], limit],
  );
  return rows.map((r) => r.seq);
}

// --- the sender (worker) --------------------------------------------------------------------

export interface LeasedSubscription {
  id: number;
  url: string;
  secret: string;
  queue: string;
}

/** Takes the subscription's sender lease unless another sender holds it; undefined when taken or not active. */
export async function takeLease(
  tx: Tx,
  companyId: number,
  id: number,
  token: string,
  seconds: number,
): Promise<LeasedSubscription | undefined> {
  const { rows } = await tx.raw(
    `update webhook_subscriptions set lease_token = ?, lease_until = now() + make_interval(secs => ?)
      where company_id = ? and id = ? and status = 'active'
        and (lease_until is null or lease_until < now() or lease_token = ?)
      returning id, url, secret, queue`,
    [token, seconds, companyId, id, token],
  );
  return rows[0];
}

export async function releaseLease(tx: Tx, companyId: number, id: number, token: string): Promise<void> {
  await tx('webhook_subscriptions')
    .where({ company_id: companyId, id, lease_token: token })
    .update({ lease_token: null, lease_until: null });
}

export interface HeadDelivery {
  id: number;
  attempts: number;
  due: boolean;
  next_attempt_at: Date;
  failing_for_seconds: number;
  event: EventRow;
  dataset: string;
}

/** The subscription's oldest pending delivery (deliveries go out in id order) and its event. */
export async function headDelivery(
  tx: Tx,
  companyId: number,
  subscriptionId: number,
): Promise<HeadDelivery | undefined> {
  const { rows } = await tx.raw(
    `select d.id, d.attempts, d.next_attempt_at <= now() as due, d.next_attempt_at,
            coalesce(extract(epoch from now() - d.first_failed_at), 0)::float8 as failing_for_seconds,
            row_to_json(e) as event, c.dataset
       from webhook_deliveries d
       join events e on e.company_id = d.company_id and e.seq = d.event_seq
       join companies c on c.id = d.company_id
      where d.company_id = ? and d.subscription_id = ? and d.status = 'pending'
      order by d.id limit 1`,
    [companyId, subscriptionId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return { ...row, event: { ...row.event, time: new Date(row.event.time) } };
}

export async function recordAttempt(
  tx: Tx,
  companyId: number,
  deliveryId: number,
  attempt: { statusCode: number | null; error: string | null; durationMs: number },
): Promise<void> {
  await tx('webhook_attempts').insert({
    company_id: companyId,
    delivery_id: deliveryId,
    status_code: attempt.statusCode,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  });
}

export async function markDelivered(tx: Tx, companyId: number, deliveryId: number): Promise<void> {
  await tx('webhook_deliveries')
    .where({ company_id: companyId, id: deliveryId })
    .update({ status: 'delivered', delivered_at: tx.fn.now(), attempts: tx.raw('attempts + 1') });
}

export async function markFailed(tx: Tx, companyId: number, deliveryId: number): Promise<void> {
  await tx('webhook_deliveries')
    .where({ company_id: companyId, id: deliveryId })
    .update({
      status: 'failed',
      attempts: tx.raw('attempts + 1'),
      first_failed_at: tx.raw('coalesce(first_failed_at, now())'),
    });
}

export async function scheduleRetry(
  tx: Tx,
  companyId: number,
  deliveryId: number,
  delaySeconds: number,
): Promise<void> {
  await tx('webhook_deliveries')
    .where({ company_id: companyId, id: deliveryId })
    .update({
      attempts: tx.raw('attempts + 1'),
      first_failed_at: tx.raw('coalesce(first_failed_at, now())'),
      next_attempt_at: tx.raw('now() + make_interval(secs => ?)', [delaySeconds]),
    });
}

/** Active subscriptions with something pending, and when their head is due (the sweep). */
export async function subscriptionsWithPending(
  tx: Tx,
  companyId: number,
): Promise<{ id: number; queue: string; due_at: Date }[]> {
  const { rows } = await tx.raw(
    `select s.id, s.queue, min(d.next_attempt_at) as due_at
       from webhook_subscriptions s
       join webhook_deliveries d on d.company_id = s.company_id and d.subscription_id = s.id and d.status = 'pending'
      where s.company_id = ? and s.status = 'active'
      group by s.id, s.queue`,
    [companyId],
  );
  return rows;
}

/** A subscription of some company with something pending (the sweep over every company). */
export interface PendingSubscription {
  company_id: number;
  id: number;
  queue: string;
  due_at: Date;
}

/**
 * The sweep of every company in one transaction, as the sweep role (migration 024), not one
 * per company: deletes the events older than the retention (their deliveries go with them),
 * then lists every active subscription with something pending and when its head is due.
 */
export async function sweepAllCompanies(db: Db, retentionDays: number): Promise<PendingSubscription[]> {
  return db.transaction(async (tx) => {
    await tx.raw(`select set_config('role', ?, true)`, [SWEEP_ROLE]);
    await tx('events')
      .where('time', '<', tx.raw(`now() - make_interval(days => ?)`, [retentionDays]))
      .delete();
    const { rows } = await tx.raw<{ rows: PendingSubscription[] }>(
      `select s.company_id, s.id, s.queue, min(d.next_attempt_at) as due_at
         from webhook_subscriptions s
         join webhook_deliveries d
           on d.company_id = s.company_id and d.subscription_id = s.id and d.status = 'pending'
        where s.status = 'active'
        group by s.company_id, s.id, s.queue`,
    );
    return rows;
  });
}

/** Deletes events older than the retention (their deliveries go with them). */
export async function pruneEvents(tx: Tx, companyId: number, retentionDays: number): Promise<number> {
  return tx('events')
    .where('company_id', companyId)
    .andWhere('time', '<', tx.raw(`now() - make_interval(days => ?)`, [retentionDays]))
    .delete();
}

/** The e-mail addresses of the company's owners (to tell them a webhook was disabled). */
export async function ownerEmails(tx: Tx, companyId: number): Promise<string[]> {
  const rows: { email: string }[] = await tx('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.company_id': companyId, 'm.role': 'owner' })
    .select('u.email');
  return rows.map((r) => r.email);
}
