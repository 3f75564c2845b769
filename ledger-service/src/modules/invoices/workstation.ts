import { toJsonNumber, type Vc } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { describeVia } from '../../db/audit.ts';
import type { ListPage } from '../../db/listOrder.ts';

/**
 * GET /arap/workstation: the drafts awaiting review — AR/AP transactions and invoices of the
 * sides the member may read — oldest first, each with who created it and via what, taken
 * from the audit log's create entry of the document.
 */
export interface WorkstationFilter {
  sides: readonly Vc[];
  kind?: 'transaction' | 'invoice';
  limit: number;
  offset: number;
}

interface DraftRow {
  id: number;
  vc: Vc;
  type: 'transaction' | 'invoice';
  inv_number: string;
  document_number: string | null;
  party_id: number;
  party_name: string;
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
  if (f.sides.length === 0) return { rows: [], total: 0 };
  const { rows } = await tx.raw<{ rows: DraftRow[] }>(
    `select t.id, t.vc, t.type, t.inv_number, t.document_number, t.party_id, p.name as party_name, t.inv_date::text as inv_date,
            trim(t.currency) as currency, t.amount::text as amount, t.created_at,
            a.user_id, u.email, a.via, a.via_label, count(*) over () as total
       from arap_transactions t
       join parties p on p.id = t.party_id
       left join lateral (
         select l.user_id, l.via, l.via_label from audit_log l
          where l.entity = t.vc || '_' || t.type and l.entity_id = t.id::text and l.action in ('create', 'create_posted')
          order by l.id limit 1) a on true
       left join users u on u.id = a.user_id
      where t.status = 'draft' and t.vc = any(?::text[]) and (?::text is null or t.type = ?::text)
      order by t.created_at, t.id
      limit ? offset ?`,
    [[...f.sides], f.kind ?? null, f.kind ?? null, f.limit, f.offset],
  );
  const total = rows[0] ? Number(rows[0].total) : await countDrafts(tx, f);
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      vc: r.vc,
      kind: r.type,
      invNumber: r.inv_number,
      ...(r.document_number === null ? {} : { documentNumber: r.document_number }),
      party_id: r.party_id,
      name: r.party_name,
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
async function countDrafts(tx: Tx, f: WorkstationFilter): Promise<number> {
  const q = tx('arap_transactions').where({ status: 'draft' }).whereIn('vc', [...f.sides]);
  if (f.kind) q.where({ type: f.kind });
  const row = (await q.count({ n: '*' }).first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}
