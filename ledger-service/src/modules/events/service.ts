/**
 * Events and webhooks, the workflow. `recordEvent` is what every other module calls, inside
 * the transaction of its change (an outbox: the change and its event commit together or not
 * at all), after the change's own writes: it takes the company's event sequence, whose lock
 * is held to the commit, so it comes last to keep that short. It also queues the event for
 * every webhook subscribed to its type and wakes their senders on the durable queue.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_PATTERNS, type EventResource, type EventType } from '@ledger/shared';
import type { Actor } from '../../domain/actor.ts';
import { conflict, notFound, ruleInvalid } from '../../domain/errors.ts';
import { encryptSecret } from '../../domain/secrets.ts';
import { recordAudit } from '../../db/audit.ts';
import type { Tx } from '../../db/knex.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { companyBaseUrl, eventBySeq, eventsAfter, toCloudEvent, type EventJson } from './reads.ts';
import { wakeInTransaction } from './queue.ts';
import { parseTypeFilter, visibleResources } from './rules.ts';
import {
  deleteSubscription,
  eventSeqsAfter,
  findDelivery,
  findSubscription,
  insertSubscription,
  listDeliveries,
  listSubscriptions,
  queueDeliveries,
  writeEvents,
  type EventActor,
  type SubscriptionRow,
} from './store.ts';
import { targetProblem } from './target.ts';

/** What a change tells about itself. */
export interface EventInput {
  type: EventType;
  /** the resource: its kind (who may read the event), id and read path relative to the company's base URL */
  resource: { type: EventResource; id: number | string; path: string };
  /** a small copy of the resource: amounts as strings, status, numbers, names */
  snapshot: Record<string, unknown>;
}

/** Who acted: a request's actor (or an audit actor), or `system` for the ledger's own workers. */
export type EventActorInput = { userId: number | null; via: Pick<Actor['via'], 'kind' | 'id' | 'label'> } | 'system';

function eventActor(actor: EventActorInput): EventActor {
  if (actor === 'system') return { via: 'system', id: null, label: null, user_id: null };
  return {
    via: actor.via.kind,
    id: actor.via.id === null ? null : String(actor.via.id),
    label: actor.via.label,
    user_id: actor.userId,
  };
}

/** Records an event in the change's transaction `tx` and queues its webhook deliveries; its sequence. */
export async function recordEvent(
  tx: Tx,
  companyId: number,
  actor: EventActorInput,
  event: EventInput,
): Promise<number> {
  const [seq] = await recordEvents(tx, companyId, actor, [event]);
  return seq!;
}

/** Several events of one change (a statement's transactions), numbered in the order given, written at once. */
export async function recordEvents(
  tx: Tx,
  companyId: number,
  actor: EventActorInput,
  events: readonly EventInput[],
): Promise<number[]> {
  if (events.length === 0) return [];
  const { first, wake } = await writeEvents(
    tx,
    companyId,
    eventActor(actor),
    events.map((event) => ({
      type: event.type,
      subject: event.resource.path,
      resource_type: event.resource.type,
      resource_id: String(event.resource.id),
      data: event.snapshot,
    })),
  );
  await wakeSubscribers(tx, companyId, wake);
  return events.map((_, i) => first + i);
}

/** The actor as an event records it (JSON), for a change writing its events itself (`eventsWrittenWith`). */
export function eventActorJson(actor: EventActorInput): string {
  return JSON.stringify(eventActor(actor));
}

/**
 * Wakes, once `tx` commits, the senders of the subscriptions whose deliveries the change's
 * events queued (`writeEvents`' or `eventsWrittenWith`'s `wake`).
 */
export async function wakeSubscribers(
  tx: Tx,
  companyId: number,
  wake: readonly { subscription_id: number; queue: string }[],
): Promise<void> {
  for (const { subscription_id, queue } of wake) {
    await wakeInTransaction(tx, queue, { companyId, subscriptionId: subscription_id });
  }
}

// --- the feed -----------------------------------------------------------------------------

export async function eventFeed(
  c: ServiceContext,
  publicUrl: string,
  q: { after?: number; limit?: number; type?: string },
): Promise<{ events: EventJson[]; next: number }> {
  const patterns = parseTypeFilter(q.type);
  const after = q.after ?? 0;
  const rows = await eventsAfter(c.tx, c.company.id, {
    after,
    limit: q.limit ?? 100,
    resources: visibleResources(c.actor),
    patterns,
  });
  const base = companyBaseUrl(publicUrl, c.company.dataset);
  return { events: rows.map((r) => toCloudEvent(r, base)), next: rows.at(-1)?.seq ?? after };
}

export async function eventById(c: ServiceContext, publicUrl: string, seq: number): Promise<EventJson> {
  const row = await eventBySeq(c.tx, c.company.id, seq, visibleResources(c.actor));
  if (!row) throw notFound(`Event ${seq} not found.`);
  return toCloudEvent(row, companyBaseUrl(publicUrl, c.company.dataset));
}

// --- webhook subscriptions ---------------------------------------------------------------

export function webhookJson(s: SubscriptionRow) {
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    status: s.status === 'disabled' ? ('disabled' as const) : ('active' as const),
    disabled_reason: s.disabled_reason,
    created_at: new Date(s.created_at).toISOString(),
  };
}

export interface WebhookSettings {
  encryptionKey: Buffer;
  allowLoopback: boolean;
  queue: string;
}

export async function createWebhook(
  c: ServiceContext,
  settings: WebhookSettings,
  body: { url: string; events: string[] },
): Promise<ReturnType<typeof webhookJson> & { secret: string }> {
  const problem = await targetProblem(body.url, settings.allowLoopback);
  if (problem) throw ruleInvalid(problem, 'url');
  const unknown = body.events.find((e) => !EVENT_PATTERNS.includes(e));
  if (unknown) throw ruleInvalid(`unknown event type "${unknown}"`, 'events');
  // Standard Webhooks secrets: whsec_ + base64 of 32 random bytes
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const row = await insertSubscription(c.tx, {
    company_id: c.company.id,
    url: body.url,
    events: body.events,
    secret: encryptSecret(secret, settings.encryptionKey),
    queue: settings.queue,
    created_by: c.actor.userId,
  });
  await recordAudit(c.tx, c.company.id, c.actor, 'webhook', row.id, 'create', { url: row.url, events: row.events });
  return { ...webhookJson(row), secret };
}

export async function webhooks(c: ServiceContext) {
  return (await listSubscriptions(c.tx, c.company.id)).map(webhookJson);
}

async function requireWebhook(c: ServiceContext, id: number): Promise<SubscriptionRow> {
  const row = await findSubscription(c.tx, c.company.id, id);
  if (!row) throw notFound(`Webhook ${id} not found.`);
  return row;
}

export async function webhookById(c: ServiceContext, id: number) {
  return webhookJson(await requireWebhook(c, id));
}

export async function removeWebhook(c: ServiceContext, id: number): Promise<void> {
  if (!(await deleteSubscription(c.tx, c.company.id, id))) throw notFound(`Webhook ${id} not found.`);
  await recordAudit(c.tx, c.company.id, c.actor, 'webhook', id, 'delete');
}

export async function webhookDeliveries(c: ServiceContext, id: number, q: { limit?: number; status?: string }) {
  await requireWebhook(c, id);
  const rows = await listDeliveries(c.tx, c.company.id, id, { limit: q.limit ?? 50, status: q.status });
  return rows.map((d) => ({
    id: d.id,
    event_id: String(d.event_seq),
    event_type: d.event_type,
    reason: d.reason,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? new Date(d.next_attempt_at).toISOString() : null,
    delivered_at: d.delivered_at ? new Date(d.delivered_at).toISOString() : null,
    created_at: new Date(d.created_at).toISOString(),
    log: d.log.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  }));
}

async function requireActive(c: ServiceContext, id: number): Promise<SubscriptionRow> {
  const row = await requireWebhook(c, id);
  if (row.status !== 'active') throw conflict(`Webhook ${id} is disabled (${row.disabled_reason ?? 'no reason'}).`);
  return row;
}

/** Queues a delivery's event again, behind what the subscription has pending. */
export async function redeliver(c: ServiceContext, id: number, deliveryId: number): Promise<{ queued: number }> {
  const row = await requireActive(c, id);
  const delivery = await findDelivery(c.tx, c.company.id, id, deliveryId);
  if (!delivery) throw notFound(`Delivery ${deliveryId} of webhook ${id} not found.`);
  const queued = await queueDeliveries(c.tx, c.company.id, id, [delivery.event_seq], 'redelivery');
  await wakeInTransaction(c.tx, row.queue, { companyId: c.company.id, subscriptionId: id });
  return { queued };
}

export const REPLAY_LIMIT = 10_000;

/** Queues every kept event after the cursor that the subscription takes, in order. */
export async function replay(c: ServiceContext, id: number, after: number): Promise<{ queued: number }> {
  const row = await requireActive(c, id);
  const seqs = await eventSeqsAfter(c.tx, c.company.id, after, row.events, REPLAY_LIMIT);
  const queued = await queueDeliveries(c.tx, c.company.id, id, seqs, 'replay');
  if (queued > 0) await wakeInTransaction(c.tx, row.queue, { companyId: c.company.id, subscriptionId: id });
  return { queued };
}
