import type { Tx } from '../../db/knex.ts';
import type { QuotesRow } from '../../db/tables.ts';

/** The SQL of quotes (table `quotes`, migration 032). Every query names the company. */

export type QuoteRow = QuotesRow & { party_name: string };

export async function insertQuote(
  tx: Tx,
  row: Omit<QuotesRow, 'id' | 'created_at' | 'updated_at' | 'status' | 'invoice_id'>,
): Promise<number> {
  const [created] = await tx('quotes').insert(row).returning('id');
  return Number(created!.id);
}

export async function updateQuoteRow(
  tx: Tx,
  companyId: number,
  id: number,
  changes: Partial<Omit<QuotesRow, 'id' | 'company_id' | 'created_at'>>,
): Promise<void> {
  await tx('quotes')
    .where({ company_id: companyId, id })
    .update({ ...changes, updated_at: tx.fn.now() });
}

/** One quote with its customer's name; `lock` holds its row until the transaction ends. */
export async function quoteRow(tx: Tx, companyId: number, id: number, lock = false): Promise<QuoteRow | undefined> {
  const q = tx('quotes as q')
    .join('parties as p', function () {
      this.on('p.company_id', '=', 'q.company_id').andOn('p.id', '=', 'q.party_id');
    })
    .where('q.company_id', companyId)
    .where('q.id', id);
  if (lock) q.forUpdate('q');
  const row = await q.first<QuoteRow | undefined>('q.*', 'p.name as party_name');
  return row && { ...row, currency: row.currency.trim() };
}

export async function deleteQuoteRow(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('quotes').where({ company_id: companyId, id }).delete();
}

/** A page of quotes, newest first; `status` expired is read from valid_until as rules.effectiveStatus does. */
export async function listQuoteRows(
  tx: Tx,
  companyId: number,
  f: { status?: string; customer_id?: number; limit: number; offset: number },
  today: string,
): Promise<{ rows: QuoteRow[]; total: number }> {
  const q = tx('quotes as q')
    .join('parties as p', function () {
      this.on('p.company_id', '=', 'q.company_id').andOn('p.id', '=', 'q.party_id');
    })
    .where('q.company_id', companyId);
  if (f.customer_id !== undefined) q.where('q.party_id', f.customer_id);
  if (f.status === 'expired') q.whereIn('q.status', ['draft', 'sent']).where('q.valid_until', '<', today);
  else if (f.status === 'draft' || f.status === 'sent')
    q.where('q.status', f.status).where('q.valid_until', '>=', today);
  else if (f.status !== undefined) q.where('q.status', f.status);
  const counted = await q.clone().count({ n: '*' }).first();
  const rows = await q
    .orderBy([
      { column: 'q.quote_date', order: 'desc' },
      { column: 'q.id', order: 'desc' },
    ])
    .limit(f.limit)
    .offset(f.offset)
    .select<QuoteRow[]>('q.*', 'p.name as party_name');
  return { rows: rows.map((r) => ({ ...r, currency: r.currency.trim() })), total: Number(counted?.n ?? 0) };
}
