import type { Tx } from '../../db/knex.ts';

/** The SQL of dunning runs (`dunning_runs`, `dunning_items`, migration 034). Every query names the company. */

export interface OverdueInvoice {
  id: number;
  inv_number: string;
  inv_date: string;
  due_date: string;
  party_id: number;
  party_name: string;
  currency: string;
  exchangerate: string;
  amount: string;
  open: string;
  qr_reference: string | null;
  /** the highest level a run reached for it (0: none) */
  level: number;
}

/** Posted, unpaid customer invoices due before `date`, with the level earlier runs reached. */
export async function overdueInvoices(tx: Tx, companyId: number, date: string): Promise<OverdueInvoice[]> {
  const { rows } = await tx.raw<{ rows: OverdueInvoice[] }>(
    `select t.id, t.inv_number, t.inv_date::text as inv_date, t.due_date::text as due_date, t.party_id,
            p.name as party_name, trim(t.currency) as currency, t.exchangerate::text as exchangerate,
            t.amount::text as amount, (t.amount - t.paid)::text as open, t.qr_reference,
            coalesce((select max(d.level) from dunning_items d
                       where d.company_id = t.company_id and d.invoice_id = t.id), 0)::int as level
       from arap_transactions t
       join parties p on p.company_id = t.company_id and p.id = t.party_id
      where t.company_id = ? and t.vc = 'customer' and t.type = 'invoice' and t.status = 'posted'
        and t.reversal_of_id is null and t.amount - t.paid > 0 and t.due_date < ?::date
      order by t.due_date, t.id`,
    [companyId, date],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), party_id: Number(r.party_id), level: Number(r.level) }));
}

export async function insertRun(tx: Tx, companyId: number, date: string): Promise<number> {
  const [row] = await tx('dunning_runs').insert({ company_id: companyId, date }).returning('id');
  return Number(row!.id);
}

/** Claims an invoice's level for a run; false when a run already sent it (the unique key). */
export async function claimItem(
  tx: Tx,
  item: { company_id: number; run_id: number; invoice_id: number; level: number; fee: string; open: string },
): Promise<number | undefined> {
  const rows = await tx('dunning_items')
    .insert(item)
    .onConflict(['company_id', 'invoice_id', 'level'])
    .ignore()
    .returning('id');
  return rows[0] ? Number(rows[0].id) : undefined;
}

export async function recordItemResult(
  tx: Tx,
  companyId: number,
  itemId: number,
  result: { fee_transaction_id: number | null; message_id: number | null },
): Promise<void> {
  await tx('dunning_items').where({ company_id: companyId, id: itemId }).update(result);
}

export async function deleteRun(tx: Tx, companyId: number, runId: number): Promise<void> {
  await tx('dunning_runs').where({ company_id: companyId, id: runId }).delete();
}

export async function listRuns(
  tx: Tx,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: { id: number; date: string; count: number }[]; total: number }> {
  const counted = await tx('dunning_runs').where({ company_id: companyId }).count({ n: '*' }).first();
  const { rows } = await tx.raw<{ rows: { id: number; date: string; count: number }[] }>(
    `select r.id, r.date::text as date,
            (select count(*) from dunning_items i where i.company_id = r.company_id and i.run_id = r.id)::int as count
       from dunning_runs r where r.company_id = ? order by r.date desc, r.id desc limit ? offset ?`,
    [companyId, page.limit, page.offset],
  );
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })), total: Number(counted?.n ?? 0) };
}

export interface RunItemRow {
  invoice_id: number;
  inv_number: string;
  party_id: number;
  party_name: string;
  level: number;
  fee: string;
  open: string;
  currency: string;
  days_overdue: number;
  fee_transaction_id: number | null;
  message_id: number | null;
}

export async function runWithItems(
  tx: Tx,
  companyId: number,
  runId: number,
): Promise<{ date: string; items: RunItemRow[] } | undefined> {
  const run = await tx('dunning_runs').where({ company_id: companyId, id: runId }).first('date');
  if (!run) return undefined;
  const { rows } = await tx.raw<{ rows: RunItemRow[] }>(
    `select i.invoice_id, t.inv_number, t.party_id, p.name as party_name, i.level, i.fee::text as fee,
            i.open::text as open, trim(t.currency) as currency, (r.date - t.due_date)::int as days_overdue,
            i.fee_transaction_id, i.message_id
       from dunning_items i
       join dunning_runs r on r.company_id = i.company_id and r.id = i.run_id
       join arap_transactions t on t.company_id = i.company_id and t.id = i.invoice_id
       join parties p on p.company_id = t.company_id and p.id = t.party_id
      where i.company_id = ? and i.run_id = ? order by i.id`,
    [companyId, runId],
  );
  return { date: run.date, items: rows };
}
