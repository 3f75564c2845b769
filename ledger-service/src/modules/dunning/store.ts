import type { Language } from '@ledger/shared';
import { insertJsonRows } from '../../db/jsonRows.ts';
import type { Tx } from '../../db/knex.ts';

/**
 * The SQL of dunning runs (`dunning_runs`, `dunning_items`, migrations 034 and 046). Every query names the
 * company. A run's items are written and updated set-based, each with one JSON parameter (db/jsonRows.ts),
 * so 10,000 reminders are one statement each time, whatever Postgres's parameter limit.
 */

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
  /** the customer's e-mail address and language (null: the company's) */
  email: string | null;
  language: Language | null;
  /** the highest level a run reached for it (0: none) */
  level: number;
}

/** Posted, unpaid customer invoices due before `date`, with the level earlier runs reached. */
export async function overdueInvoices(tx: Tx, companyId: number, date: string): Promise<OverdueInvoice[]> {
  const { rows } = await tx.raw<{ rows: OverdueInvoice[] }>(
    `select t.id, t.inv_number, t.inv_date::text as inv_date, t.due_date::text as due_date, t.party_id,
            p.name as party_name, trim(t.currency) as currency, t.exchangerate::text as exchangerate,
            t.amount::text as amount, (t.amount - t.paid)::text as open, t.qr_reference, p.email, p.language,
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

/** An invoice's level as a run claims it, with what its reminder prints (docs/invoices.md "Dunning runs"). */
export interface NewItem {
  invoice_id: number;
  level: number;
  fee: string;
  open: string;
  due_date: string;
  language: Language;
  level_text: string;
}

const ITEM_COLUMNS = {
  invoice_id: 'bigint',
  level: 'int',
  fee: 'numeric',
  open: 'numeric',
  due_date: 'date',
  language: 'text',
  level_text: 'text',
} as const;

/**
 * Claims the invoices' levels for a run in one statement: the ids of the rows inserted, by
 * `invoice_id:level`. A level another run holds already (the unique key; a run at the same time
 * waits for the other's commit) is left out: that run sends it.
 */
export async function claimItems(
  tx: Tx,
  companyId: number,
  runId: number,
  items: readonly NewItem[],
): Promise<Map<string, number>> {
  if (items.length === 0) return new Map();
  const { rows } = await tx.raw<{ rows: { id: number; invoice_id: number; level: number }[] }>(
    `${insertJsonRows('dunning_items', ITEM_COLUMNS, { company_id: '?', run_id: '?' })}
     on conflict (company_id, invoice_id, level) do nothing returning id, invoice_id, level`,
    [companyId, runId, JSON.stringify(items)],
  );
  return new Map(rows.map((r) => [itemKey(r.invoice_id, r.level), Number(r.id)]));
}

export const itemKey = (invoiceId: number, level: number) => `${Number(invoiceId)}:${Number(level)}`;

/** The fee's booking and the message of each item, in one statement. */
export async function recordItemResults(
  tx: Tx,
  companyId: number,
  results: readonly { id: number; fee_transaction_id: number | null; message_id: number | null }[],
): Promise<void> {
  const written = results.filter((r) => r.fee_transaction_id !== null || r.message_id !== null);
  if (written.length === 0) return;
  await tx.raw(
    `update dunning_items d set fee_transaction_id = x.fee_transaction_id, message_id = x.message_id
       from jsonb_to_recordset(?::jsonb) as x(id bigint, fee_transaction_id bigint, message_id bigint)
      where d.company_id = ? and d.id = x.id`,
    [JSON.stringify(written), companyId],
  );
}

/** What one item's reminder prints, as the run recorded it (the mail sender renders it from this). */
export interface ReminderFacts {
  item_id: number;
  run_date: string;
  invoice_id: number;
  inv_number: string;
  inv_date: string;
  party_id: number;
  currency: string;
  qr_reference: string | null;
  level: number;
  fee: string;
  open: string;
  due_date: string | null;
  language: Language | null;
  level_text: string | null;
}

export async function reminderFacts(tx: Tx, companyId: number, itemId: number): Promise<ReminderFacts | undefined> {
  const { rows } = await tx.raw<{ rows: ReminderFacts[] }>(
    `select i.id as item_id, r.date::text as run_date, i.invoice_id, t.inv_number, t.inv_date::text as inv_date,
            t.party_id, trim(t.currency) as currency, t.qr_reference, i.level, i.fee::text as fee,
            i.open::text as open, i.due_date::text as due_date, i.language, i.level_text
       from dunning_items i
       join dunning_runs r on r.company_id = i.company_id and r.id = i.run_id
       join arap_transactions t on t.company_id = i.company_id and t.id = i.invoice_id
      where i.company_id = ? and i.id = ?`,
    [companyId, itemId],
  );
  const row = rows[0];
  return row && { ...row, invoice_id: Number(row.invoice_id), party_id: Number(row.party_id) };
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
