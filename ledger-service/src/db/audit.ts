import type { Tx } from './knex.ts';
import type { Actor } from '../http/auth.ts';

/** One audit entry per change: who, via what, which entity, which action. */
export async function recordAudit(
  tx: Tx,
  companyId: number,
  actor: Pick<Actor, 'userId' | 'via'>,
  entity: string,
  entityId: string | number | null,
  action: string,
  details?: unknown,
): Promise<void> {
  await tx('audit_log').insert({
    company_id: companyId,
    user_id: actor.userId,
    via: actor.via.kind,
    via_id: actor.via.id === null ? null : String(actor.via.id),
    via_label: actor.via.label,
    entity,
    entity_id: entityId === null ? null : String(entityId),
    action,
    details: details === undefined ? null : JSON.stringify(details),
  });
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
