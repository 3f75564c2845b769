import type { Db, Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import type { RecurringInvoicesRow } from '../../db/tables.ts';

/** The SQL of recurring invoices (table `recurring_invoices`, migration 042). Every query names the company. */

export type RecurringRow = RecurringInvoicesRow & { party_name: string };

type Columns = Omit<
  RecurringInvoicesRow,
  'id' | 'company_id' | 'created_at' | 'updated_at' | 'status' | 'invoice_count' | 'last_error' | 'last_date'
>;

export async function insertRecurring(tx: Tx, companyId: number, row: Columns): Promise<number> {
  const [created] = await tx('recurring_invoices')
    .insert({ ...row, company_id: companyId })
    .returning('id');
  return Number(created!.id);
}

export async function updateRecurringRow(
  tx: Tx,
  companyId: number,
  id: number,
  changes: Partial<Omit<RecurringInvoicesRow, 'id' | 'company_id' | 'created_at'>>,
): Promise<void> {
  await tx('recurring_invoices')
    .where({ company_id: companyId, id })
    .update({ ...changes, updated_at: tx.fn.now() });
}

const withParty = (tx: Tx) =>
  tx('recurring_invoices as r').join('parties as p', function () {
    this.on('p.company_id', '=', 'r.company_id').andOn('p.id', '=', 'r.party_id');
  });

const trimmed = (row: RecurringRow): RecurringRow => ({ ...row, currency: row.currency.trim() });

/** One recurring invoice with its customer's name; `lock` holds its row until the transaction ends. */
export async function recurringRow(
  tx: Tx,
  companyId: number,
  id: number,
  lock: 'none' | 'wait' | 'skip' = 'none',
): Promise<RecurringRow | undefined> {
  const q = withParty(tx).where('r.company_id', companyId).where('r.id', id);
  if (lock === 'wait') q.forUpdate('r');
  if (lock === 'skip') q.forUpdate('r').skipLocked();
  const row = await q.first<RecurringRow | undefined>('r.*', 'p.name as party_name');
  return row && trimmed(row);
}

export async function deleteRecurringRow(tx: Tx, companyId: number, id: number): Promise<void> {
  // the invoices it made stay; they no longer name it
  await tx('arap_transactions')
    .where({ company_id: companyId, recurring_id: id })
    .update({ recurring_id: null, recurring_date: null });
  await tx('recurring_invoices').where({ company_id: companyId, id }).delete();
}

/** A page of recurring invoices by next date (ended ones last); `status` ended is read from next_date. */
export async function listRecurringRows(
  tx: Tx,
  companyId: number,
  f: { status?: 'active' | 'paused' | 'ended'; customer_id?: number; limit: number; offset: number },
): Promise<{ rows: RecurringRow[]; total: number }> {
  const q = withParty(tx).where('r.company_id', companyId);
  if (f.customer_id !== undefined) q.where('r.party_id', f.customer_id);
  if (f.status === 'ended') q.whereNull('r.next_date');
  else if (f.status !== undefined) q.where('r.status', f.status).whereNotNull('r.next_date');
  const counted = await q.clone().count({ n: '*' }).first();
  const rows = await q
    .orderByRaw('r.next_date asc nulls last, r.id asc')
    .limit(f.limit)
    .offset(f.offset)
    .select<RecurringRow[]>('r.*', 'p.name as party_name');
  return { rows: rows.map(trimmed), total: Number(counted?.n ?? 0) };
}

/** The active recurring invoices of the company with a date due on `today`. */
export async function dueRecurringIds(tx: Tx, companyId: number, today: string): Promise<number[]> {
  const rows = await tx('recurring_invoices')
    .where({ company_id: companyId, status: 'active' })
    .where('next_date', '<=', today)
    .orderBy('next_date')
    .select('id');
  return rows.map((r) => Number(r.id));
}

/** Every company, or those named (a reference table, read outside any tenant): the job looks into each. */
export async function companiesToScan(db: Db, ids?: number[]): Promise<Company[]> {
  const q = db('companies').orderBy('id');
  if (ids) q.whereIn('id', ids);
  return q.select<Company[]>('*');
}

/** Links the invoice just made to its recurring invoice and the schedule's date. */
export async function markRecurringInvoice(
  tx: Tx,
  companyId: number,
  invoiceId: number,
  recurringId: number,
  date: string,
): Promise<void> {
  await tx('arap_transactions')
    .where({ company_id: companyId, id: invoiceId })
    .update({ recurring_id: recurringId, recurring_date: date });
}
