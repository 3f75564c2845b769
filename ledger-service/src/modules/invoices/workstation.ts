import { roleHas, scopeSatisfied, toJsonNumber, type Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { describeVia } from '../../db/audit.ts';
import type { ListPage } from '../../db/listOrder.ts';
import type { Actor } from '../../domain/actor.ts';

/**
 * GET /arap/workstation: the drafts awaiting review — AR/AP transactions and invoices of the
 * sides the member may read, and journal-entry drafts for members who may read journal
 * entries — oldest first, each with who created it and via what, taken from the audit log's
 * create entry of the document. One list for the app's workstation and the MCP tool, so a
 * journal entry an integration or assistant saved as a draft is reviewed like a bill.
 */
export interface WorkstationFilter {
  sides: readonly Vc[];
  /** journal-entry drafts too (journalVisible) */
  journal: boolean;
  kind?: 'transaction' | 'invoice' | 'journal';
  limit: number;
  offset: number;
}

/**
 * Journal entries are accounting data: listed for members who read them, and for an AI
 * connection only when it was also granted `accounting:read` (the workstation's own scope is
 * `invoices:read`, which must not open the journal).
 */
export function journalVisible(actor: Pick<Actor, 'role' | 'via'>): boolean {
  if (!roleHas(actor.role, 'gl.journal_entries')) return false;
  return actor.via.kind !== 'ai_connection' || scopeSatisfied(actor.via.scopes, 'accounting:read');
}

interface DraftRow {
  id: number;
  vc: Vc | null;
  kind: 'transaction' | 'invoice' | 'journal';
  number: string;
  document_number: string | null;
  party_id: number | null;
  party_name: string | null;
  inv_date: string;
  currency: string;
  amount: string;
  created_at: Date;
  user_id: number | null;
  email: string | null;
  via: string | null;
  via_label: string | null;
  total: string;
}

export async function listWorkstation(tx: Tx, f: WorkstationFilter): Promise<ListPage<Record<string, unknown>>> {
  const arap = f.sides.length > 0 && f.kind !== 'journal';
  const journal = f.journal && (f.kind === undefined || f.kind === 'journal');
  if (!arap && !journal) return { rows: [], total: 0 };
  const arapKind = f.kind === 'journal' ? null : (f.kind ?? null);
  const { rows } = await tx.raw<{ rows: DraftRow[] }>(
    `with drafts as (
       select t.id, t.vc, t.type as kind, t.inv_number as number, t.document_number, t.party_id,
              p.name as party_name, t.inv_date::text as inv_date, trim(t.currency) as currency,
              t.amount::text as amount,
              t.created_at, t.vc || '_' || t.type as entity
         from arap_transactions t
         join parties p on p.id = t.party_id
        where ?::boolean and t.status = 'draft' and t.vc = any(?::text[]) and (?::text is null or t.type = ?::text)
       union all
       select g.id, null, 'journal', g.reference, null, null, null, g.transdate::text, trim(g.currency),
              (select coalesce(sum(l.debit), 0) from gl_lines l where l.journal_id = g.id)::text,
              g.created_at, 'journal_entry'
         from gl_transactions g
        where ?::boolean and g.status = 'draft')
     select d.*, a.user_id, u.email, a.via, a.via_label, count(*) over () as total
       from drafts d
       left join lateral (
         select l.user_id, l.via, l.via_label from audit_log l
          where l.entity = d.entity and l.entity_id = d.id::text and l.action in ('create', 'create_posted')
          order by l.id limit 1) a on true
       left join users u on u.id = a.user_id
      order by d.created_at, d.kind, d.id
      limit ? offset ?`,
    [arap, [...f.sides], arapKind, arapKind, journal, f.limit, f.offset],
  );
  const total = rows[0] ? Number(rows[0].total) : await countDrafts(tx, { ...f, journal }, arap);
  return {
    total,
    rows: rows.map((r) => ({
      id: Number(r.id),
      ...(r.vc === null ? {} : { vc: r.vc }),
      kind: r.kind,
      invNumber: r.number,
      ...(r.document_number === null ? {} : { documentNumber: r.document_number }),
      ...(r.party_id === null ? {} : { party_id: Number(r.party_id), name: r.party_name }),
      invDate: r.inv_date,
      currency: r.currency,
      grossAmount: toJsonNumber(r.amount),
      createdAt: r.created_at.toISOString(),
      createdBy: {
        user_id: r.user_id === null ? null : Number(r.user_id),
        email: r.email,
        via: r.via ?? 'unknown',
        via_label: r.via_label,
        via_text: r.via === null ? 'unknown' : describeVia(r.via, r.via_label),
      },
    })),
  };
}

/** The total when the page is past the last row. */
async function countDrafts(tx: Tx, f: WorkstationFilter, arap: boolean): Promise<number> {
  let n = 0;
  if (arap) {
    const q = tx('arap_transactions')
      .where({ status: 'draft' })
      .whereIn('vc', [...f.sides]);
    if (f.kind) q.where({ type: f.kind });
    n += Number((await q.count({ n: '*' }).first())?.n ?? 0);
  }
  if (f.journal) {
    const row = await tx('gl_transactions').where({ status: 'draft' }).count({ n: '*' }).first();
    n += Number((row as { n: string | number } | undefined)?.n ?? 0);
  }
  return n;
}
