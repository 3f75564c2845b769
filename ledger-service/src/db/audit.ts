import type { Tx } from './knex.ts';
import { orderBySql, type ListPage } from './listOrder.ts';
import type { Actor } from '../domain/actor.ts';
import type { AssistantConfirmation } from '@ledger/shared';

type AuditActor = {
  userId: number | null;
  via: Pick<Actor['via'], 'kind' | 'id' | 'label'> & { confirmation?: AssistantConfirmation };
};

/**
 * The entry's details; a write an AI connection made after the person confirmed it (or under
 * the company's setting) records how, as `confirmation`, whatever the write's own details are.
 */
function detailsOf(actor: AuditActor, details: unknown): unknown {
  const confirmation = actor.via.confirmation;
  if (confirmation === undefined) return details;
  if (details === undefined || details === null) return { confirmation };
  if (typeof details === 'object' && !Array.isArray(details)) return { ...details, confirmation };
  return { confirmation, details };
}

/** One audit entry per change: who, via what, which entity, which action. */
export async function recordAudit(tx: Tx, ...entry: Parameters<typeof auditRow>): Promise<void> {
  await tx('audit_log').insert(auditRow(...entry));
}

/**
 * Many audit entries (a batch's, one per document) in one statement with one parameter: the
 * rows as one JSON document, as the batch's other rows travel (db/jsonRows.ts); a thousand
 * entries bound as 9,000 parameters cost more to build and send than to write. `details` is
 * already JSON text (auditRow), so it travels as text and becomes jsonb in the statement.
 */
export async function recordAudits(tx: Tx, rows: readonly ReturnType<typeof auditRow>[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.raw(
    `insert into audit_log (company_id, user_id, via, via_id, via_label, entity, entity_id, action, details)
     select x.company_id, x.user_id, x.via, x.via_id, x.via_label, x.entity, x.entity_id, x.action, x.details::jsonb
       from jsonb_to_recordset(?::jsonb) as x(company_id bigint, user_id bigint, via text, via_id text,
         via_label text, entity text, entity_id text, action text, details text)`,
    [JSON.stringify(rows)],
  );
}

/** The audit_log row recordAudit writes, for callers that insert it within a larger statement. */
export function auditRow(
  companyId: number,
  actor: AuditActor,
  entity: string,
  entityId: number | null,
  action: string,
  details?: unknown,
) {
  const recorded = detailsOf(actor, details);
  return {
    company_id: companyId,
    user_id: actor.userId,
    via: actor.via.kind,
    via_id: actor.via.id === null ? null : String(actor.via.id),
    via_label: actor.via.label,
    entity,
    entity_id: entityId === null ? null : String(entityId),
    action,
    details: recorded === undefined ? null : JSON.stringify(recorded),
  };
}

export function describeVia(via: string, label: string | null): string {
  switch (via) {
    case 'api_key':
      return `via API key (${label})`;
    case 'ai_connection':
      return `via AI connection (${label})`;
    case 'cli':
      return 'via CLI';
    case 'web':
      return `via the web app (${label})`;
    case 'app':
      return 'via app';
    default:
      return `via ${via}`;
  }
}

export interface AuditEntry {
  id: number;
  at: Date;
  user_id: number | null;
  user_email: string | null;
  via: string;
  via_id: string | null;
  via_label: string | null;
  via_text: string;
  entity: string;
  /** the entity's id; stored as text, always an integer id */
  entity_id: number | null;
  action: string;
  details: unknown;
}

const AUDIT_ORDER = { at: 'l.at', id: 'l.id' };

/** Newest first by default; runs inside a tenant transaction, so only the company's own entries are visible. */
export async function listAudit(
  tx: Tx,
  q: { sort: string; limit: number; offset: number; entity?: string; entity_id?: number },
): Promise<ListPage<AuditEntry>> {
  const filtered = tx('audit_log as l');
  if (q.entity) filtered.where('l.entity', q.entity);
  if (q.entity_id !== undefined) filtered.where('l.entity_id', String(q.entity_id));
  const counted = await filtered.clone().count({ n: '*' }).first();
  const query = filtered
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .orderByRaw(orderBySql(q.sort, AUDIT_ORDER, 'l.id'))
    .limit(q.limit)
    .offset(q.offset)
    .select(
      'l.id',
      'l.at',
      'l.user_id',
      'u.email as user_email',
      'l.via',
      'l.via_id',
      'l.via_label',
      'l.entity',
      'l.entity_id',
      'l.action',
      'l.details',
    );
  const rows = (await query) as (Omit<AuditEntry, 'via_text' | 'entity_id'> & { entity_id: string | null })[];
  // ids leave as integers, like everywhere else in the API
  return {
    rows: rows.map((r) => ({
      ...r,
      entity_id: r.entity_id === null ? null : Number(r.entity_id),
      via_text: describeVia(r.via, r.via_label),
    })),
    total: Number(counted?.n ?? 0),
  };
}
