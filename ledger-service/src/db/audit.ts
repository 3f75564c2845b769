import type { Tx } from './knex.ts';
import { orderBySql, type ListPage } from './listOrder.ts';
import type { Actor } from '../domain/actor.ts';

type AuditActor = { userId: number | null; via: Pick<Actor['via'], 'kind' | 'id' | 'label'> };

/** One audit entry per change: who, via what, which entity, which action. */
export async function recordAudit(tx: Tx, ...entry: Parameters<typeof auditRow>): Promise<void> {
  await tx('audit_log').insert(auditRow(...entry));
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
  return {
    company_id: companyId,
    user_id: actor.userId,
    via: actor.via.kind,
    via_id: actor.via.id === null ? null : String(actor.via.id),
    via_label: actor.via.label,
    entity,
    entity_id: entityId === null ? null : String(entityId),
    action,
    details: details === undefined ? null : JSON.stringify(details),
  };
}

export function describeVia(via: string, label: string | null): string {
  switch (via) {
    case 'api_key': return `via API key (${label})`;
    case 'ai_connection': return `via AI connection (${label})`;
    case 'cli': return 'via CLI';
    case 'web': return `via the web app (${label})`;
    default: return `via ${via}`;
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
  const counted = (await filtered.clone().count({ n: '*' }).first()) as { n: string | number } | undefined;
  const query = filtered
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .orderByRaw(orderBySql(q.sort, AUDIT_ORDER, 'l.id'))
    .limit(q.limit)
    .offset(q.offset)
    .select('l.id', 'l.at', 'l.user_id', 'u.email as user_email', 'l.via', 'l.via_id', 'l.via_label', 'l.entity', 'l.entity_id', 'l.action', 'l.details');
  const rows = (await query) as (Omit<AuditEntry, 'via_text' | 'entity_id'> & { entity_id: string | null })[];
  // ids leave as integers, like everywhere else in the API
  return {
    rows: rows.map((r) => ({ ...r, entity_id: r.entity_id === null ? null : Number(r.entity_id), via_text: describeVia(r.via, r.via_label) })),
    total: Number(counted?.n ?? 0),
  };
}
