/**
 * The read shapes of events: the change feed and one event, in the CloudEvents 1.0 JSON
 * format (the `cloudevents` package builds and validates each one). Events are stored with
 * their resource's path relative to the company; `source` and the read URL are made absolute
 * here, from the ledger's public URL, so a changed public URL changes no stored row.
 */
import { CloudEvent } from 'cloudevents';
import { EVENT_TYPES, type EventType, type ResponseOf, type contracts } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { EventActor, EventRow } from './store.ts';
import { patternMatches } from './rules.ts';

export type EventJson = ResponseOf<typeof contracts.getEvent>;

/** `{publicUrl}/client/{dataset}`: the company's base URL, every event's `source`. */
export function companyBaseUrl(publicUrl: string, dataset: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/client/${dataset}`;
}

/** One stored event as CloudEvents JSON. */
export function toCloudEvent(row: EventRow, baseUrl: string): EventJson {
  const id = String(row.seq);
  const resourceId = /^\d+$/.test(row.resource_id) ? Number(row.resource_id) : row.resource_id;
  const event = new CloudEvent({
    specversion: '1.0',
    id,
    type: row.type,
    source: baseUrl,
    time: new Date(row.time).toISOString(),
    subject: row.subject,
    datacontenttype: 'application/json',
    sequence: id,
    data: {
      actor: row.actor satisfies EventActor,
      resource: { type: row.resource_type, id: resourceId, url: `${baseUrl}${row.subject}` },
      snapshot: row.data,
    },
  });
  return event.toJSON() as EventJson;
}

/** The concrete types a filter of types and `area.*` patterns names. */
function typesOf(patterns: readonly string[]): EventType[] {
  return EVENT_TYPES.filter((t) => patterns.some((p) => patternMatches(p, t)));
}

/** Events after the cursor, in sequence order, of the resource types the caller may read. */
export async function eventsAfter(
  tx: Tx,
  companyId: number,
  q: { after: number; limit: number; resources: readonly string[]; patterns?: readonly string[] },
): Promise<EventRow[]> {
  const query = tx<EventRow>('events')
    .where('company_id', companyId)
    .andWhere('seq', '>', q.after)
    .whereIn('resource_type', [...q.resources])
    .orderBy('seq')
    .limit(q.limit);
  if (q.patterns) query.whereIn('type', typesOf(q.patterns));
  return await query;
}

export async function eventBySeq(
  tx: Tx,
  companyId: number,
  seq: number,
  resources: readonly string[],
): Promise<EventRow | undefined> {
  return await tx<EventRow>('events')
    .where({ company_id: companyId, seq })
    .whereIn('resource_type', [...resources])
    .first();
}
