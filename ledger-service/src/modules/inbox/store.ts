import type { Knex } from 'knex';
import type { InboxStatus } from '@ledger/shared/schemas/files';
import type { Tx } from '../../db/knex.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import type { InboxMediaType, InputTax, UsualAccounts, VendorMatch } from './rules.ts';

/** The inbox's SQL (`inbox_entries`, migration 013) and the look-ups extraction needs. */

export interface EntryRow {
  id: number;
  document_id: number;
  name: string;
  status: InboxStatus;
  reason: string | null;
  text: string | null;
  extracted: Record<string, unknown> | null;
  transaction_id: number | null;
  created_at: Date;
  extracted_at: Date | null;
  media_type: InboxMediaType;
  size: number;
  sha256: string;
  storage: 'postgres' | 'directory';
}

const ENTRY_COLUMNS = ['e.*', 'd.media_type', 'd.size', 'd.sha256', 'd.storage'];

export async function insertEntry(
  tx: Tx,
  companyId: number,
  e: { documentId: number; name: string; createdBy: number | null },
): Promise<number> {
  const [row] = await tx('inbox_entries')
    .insert({ company_id: companyId, document_id: e.documentId, name: e.name, created_by: e.createdBy })
    .returning('id');
  return row!.id;
}

export async function entryRow(
  tx: Tx,
  companyId: number,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<EntryRow | undefined> {
  const q = tx('inbox_entries as e')
    .join('documents as d', (j) => j.on('d.id', 'e.document_id').andOn('d.company_id', 'e.company_id'))
    .where({ 'e.company_id': companyId, 'e.id': id })
    .first<EntryRow | undefined>(ENTRY_COLUMNS);
  if (opts.lock) q.forUpdate('e');
  return await q;
}

const ENTRY_ORDER = { created_at: 'e.created_at', id: 'e.id' };

export async function listEntries(
  tx: Tx,
  companyId: number,
  q: { status?: InboxStatus; limit?: number; offset?: number; sort?: string },
): Promise<ListPage<EntryRow>> {
  const where = (b: Knex.QueryBuilder) => {
    b.where('e.company_id', companyId);
    return q.status ? b.where('e.status', q.status) : b;
  };
  const documents = tx('inbox_entries as e').join('documents as d', (j) =>
    j.on('d.id', 'e.document_id').andOn('d.company_id', 'e.company_id'),
  );
  const rows = await where(documents)
    .select<EntryRow[]>(ENTRY_COLUMNS)
    .orderByRaw(orderBySql(q.sort ?? '-created_at', ENTRY_ORDER, 'e.id'))
    .limit(q.limit ?? 100)
    .offset(q.offset ?? 0);
  const [{ n }] = (await where(tx('inbox_entries as e')).count({ n: '*' })) as [{ n: string | number }];
  return { rows, total: Number(n) };
}

export async function updateEntry(
  tx: Tx,
  companyId: number,
  id: number,
  fields: Partial<Pick<EntryRow, 'status' | 'reason' | 'text' | 'transaction_id'>> & {
    extracted?: unknown;
    extracted_at?: Knex.Raw;
  },
): Promise<void> {
  const values: Record<string, unknown> = { ...fields, updated_at: tx.fn.now() };
  if ('extracted' in fields) values.extracted = fields.extracted === null ? null : JSON.stringify(fields.extracted);
  await tx('inbox_entries').where({ company_id: companyId, id }).update(values);
}

/** The vendor owning a bank account with this IBAN (the oldest account first). */
export async function vendorByIban(tx: Tx, companyId: number, iban: string): Promise<VendorMatch | undefined> {
  const row = await tx('vendor_bank_accounts as b')
    .join('parties as p', (j) => j.on('p.id', 'b.party_id').andOn('p.company_id', 'b.company_id'))
    .where({ 'b.company_id': companyId, 'p.vc': 'vendor' })
    .whereRaw(`upper(replace(b.iban, ' ', '')) = ?`, [iban])
    .orderBy('b.id')
    .first<{ id: number; number: string; name: string; bank_account_id: number } | undefined>(
      'p.id',
      'p.number',
      'p.name',
      'b.id as bank_account_id',
    );
  return (
    row && {
      id: row.id,
      vendornumber: row.number,
      name: row.name,
      matched_by: 'iban',
      bank_account_id: row.bank_account_id,
    }
  );
}

/** A vendor of this name (case and surrounding spaces ignored), the oldest first. */
export async function vendorByName(tx: Tx, companyId: number, name: string): Promise<VendorMatch | undefined> {
  const row = await tx('parties')
    .where({ company_id: companyId, vc: 'vendor' })
    .whereRaw('lower(trim(name)) = lower(trim(?))', [name])
    .orderBy('id')
    .first('id', 'number', 'name');
  return row && { id: row.id, vendornumber: row.number, name: row.name, matched_by: 'name' };
}

export async function bankAccountOf(
  tx: Tx,
  companyId: number,
  vendorId: number,
  iban: string,
): Promise<number | undefined> {
  const row = await tx('vendor_bank_accounts')
    .where({ company_id: companyId, party_id: vendorId })
    .whereRaw(`upper(replace(iban, ' ', '')) = ?`, [iban])
    .orderBy('id')
    .first('id');
  return row?.id;
}

/**
 * The vendor's usual accounts: the first line of its last posted bill (AP transaction or
 * invoice); without one, the chart's first expense account open to AP lines.
 */
export async function usualAccounts(
  tx: Tx,
  companyId: number,
  vendorId: number | undefined,
): Promise<UsualAccounts | null> {
  if (vendorId !== undefined) {
    const last = await tx('arap_transactions as t')
      .join('arap_lines as l', (j) => j.on('l.transaction_id', 't.id').andOn('l.company_id', 't.company_id'))
      .join('accounts as a', (j) => j.on('a.id', 'l.account_id').andOn('a.company_id', 'l.company_id'))
      .leftJoin('accounts as ta', (j) => j.on('ta.id', 'l.tax_account_id').andOn('ta.company_id', 'l.company_id'))
      .where({ 't.company_id': companyId, 't.vc': 'vendor', 't.party_id': vendorId, 't.status': 'posted' })
      .whereNull('t.reversal_of_id')
      .orderBy([
        { column: 't.inv_date', order: 'desc' },
        { column: 't.id', order: 'desc' },
        { column: 'l.position', order: 'asc' },
      ])
      .first<{ accno: string; tax_accno: string | null } | undefined>('a.accno', 'ta.accno as tax_accno');
    if (last)
      return { account: last.accno, ...(last.tax_accno ? { taxAccount: last.tax_accno } : {}), source: 'last_bill' };
  }
  const fallback = await tx('accounts')
    .where({ company_id: companyId, category: 'E' })
    .whereRaw(`(':' || link || ':') like '%:AP_amount:%'`)
    .orderBy('accno')
    .first('accno');
  return fallback ? { account: fallback.accno, source: 'default' } : null;
}

/** The input tax accounts (`AP_tax`) with the rate each has on `on` (a fraction, "0.081000"), by account. */
export async function inputTaxes(tx: Tx, companyId: number, on: string): Promise<InputTax[]> {
  return tx('taxes as t')
    .join('accounts as a', (j) => j.on('a.id', 't.account_id').andOn('a.company_id', 't.company_id'))
    .where('t.company_id', companyId)
    .whereRaw(`(':' || a.link || ':') like '%:AP_tax:%'`)
    .where('t.valid_from', '<=', on)
    .andWhere((w) => w.whereNull('t.valid_to').orWhere('t.valid_to', '>=', on))
    .orderBy([{ column: 'a.accno' }, { column: 't.valid_from', order: 'desc' }])
    .select<InputTax[]>('a.accno', 't.rate');
}
