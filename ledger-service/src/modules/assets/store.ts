import type { Tx } from '../../db/knex.ts';
import type { AssetsRow } from '../../db/tables.ts';

/** Rows of assets and asset_depreciations; every query names its company. */

export interface AccountRef {
  id: number;
  accno: string;
  category: string;
}

/** The accounts of the company with these numbers, by number. */
export async function accountsByNumber(tx: Tx, companyId: number, accnos: string[]): Promise<Map<string, AccountRef>> {
  const rows = await tx('accounts')
    .where({ company_id: companyId })
    .whereIn('accno', accnos)
    .select('id', 'accno', 'category');
  return new Map(rows.map((r) => [r.accno, { id: r.id, accno: r.accno, category: r.category.trim() }]));
}

/** Account numbers by id (the read shape names accounts by number). */
export async function accountNumbers(tx: Tx, companyId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx('accounts').where({ company_id: companyId }).whereIn('id', ids).select('id', 'accno');
  return new Map(rows.map((r) => [r.id, r.accno]));
}

export type AssetColumns = Omit<AssetsRow, 'id' | 'company_id' | 'created_at' | 'disposed' | 'disposal_journal_id'>;

export async function insertAsset(tx: Tx, companyId: number, cols: AssetColumns): Promise<number> {
  const [row] = await tx('assets')
    .insert({ company_id: companyId, ...cols })
    .returning(['id']);
  return row!.id;
}

export async function updateAsset(tx: Tx, companyId: number, id: number, cols: Partial<AssetsRow>): Promise<void> {
  await tx('assets').where({ company_id: companyId, id }).update(cols);
}

export async function deleteAsset(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('assets').where({ company_id: companyId, id }).delete();
}

/** The company's assets (or one), locked for the rest of the transaction when `lock`. */
export async function loadAssets(
  tx: Tx,
  companyId: number,
  opts: { id?: number; lock?: boolean } = {},
): Promise<AssetsRow[]> {
  const q = tx('assets')
    .where({ company_id: companyId })
    .orderBy([{ column: 'acquired' }, { column: 'id' }]);
  if (opts.id !== undefined) q.andWhere({ id: opts.id });
  if (opts.lock) q.forUpdate();
  return q.select('*');
}

export interface BookedRow {
  asset_id: number;
  date: string;
  amount: string;
}

/** What the posted (not reversed) depreciation runs booked, per asset and run date. */
export async function bookedDepreciation(tx: Tx, companyId: number): Promise<BookedRow[]> {
  return tx('asset_depreciations as d')
    .join('gl_transactions as g', function () {
      this.on('g.company_id', 'd.company_id').andOn('g.id', 'd.journal_id');
    })
    .where('d.company_id', companyId)
    .andWhere('g.status', 'posted')
    .select<BookedRow[]>('d.asset_id', 'd.date', 'd.amount');
}

export async function insertDepreciations(
  tx: Tx,
  companyId: number,
  journalId: number,
  date: string,
  rows: readonly { assetId: number; amount: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx('asset_depreciations').insert(
    rows.map((r) => ({ company_id: companyId, asset_id: r.assetId, journal_id: journalId, date, amount: r.amount })),
  );
}
