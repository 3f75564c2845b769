import { toJsonNumber, type ServiceListQuery, type ServiceRead } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { Company } from '../../db/companies.ts';
import { nextNumber } from '../../db/sequences.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';

/** The services catalogue (table `services`). Runs inside a tenant transaction. */

/**
 * One service as stored, accounts by number. `price` is the exact decimal text of the
 * NUMERIC column (use Money on it, never a float); `curr` is its currency.
 */
export interface ServiceRecord {
  id: number;
  partnumber: string;
  description: string;
  unit: string | null;
  price: string;
  curr: string;
  income_account: string | null;
  expense_account: string | null;
  taxAccount: string | null;
  active: boolean;
}

/** The columns a write sets, accounts already resolved to their ids by the service. */
export interface ServiceColumns {
  partnumber?: string;
  description?: string;
  unit?: string | null;
  price?: string;
  currency?: string;
  income_account_id?: number | null;
  expense_account_id?: number | null;
  tax_account_id?: number | null;
  active?: boolean;
}

const SELECT_SERVICE = `
  select s.id, s.partnumber, s.description, s.unit, s.price::text as price, trim(s.currency) as curr,
         ia.accno as income_account, ea.accno as expense_account, ta.accno as "taxAccount", s.active
    from services s
    left join accounts ia on ia.company_id = s.company_id and ia.id = s.income_account_id
    left join accounts ea on ea.company_id = s.company_id and ea.id = s.expense_account_id
    left join accounts ta on ta.company_id = s.company_id and ta.id = s.tax_account_id`;

interface ServiceRow extends Omit<ServiceRecord, 'id'> {
  id: number | string;
}

function toRecord(row: ServiceRow): ServiceRecord {
  return { ...row, id: Number(row.id) };
}

export function toReadShape(s: ServiceRecord): ServiceRead {
  return { ...s, price: toJsonNumber(s.price) };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const SERVICE_ORDER = { partnumber: 's.partnumber', description: 'lower(s.description)', id: 's.id' };

export async function listServices(tx: Tx, companyId: number, q: ServiceListQuery): Promise<ListPage<ServiceRead>> {
  const where: string[] = ['s.company_id = ?'];
  const params: (string | number | boolean)[] = [companyId];
  if (q.active !== undefined) {
    where.push('s.active = ?');
    params.push(q.active);
  }
  if (q.q) {
    const pattern = `%${escapeLike(q.q.toLowerCase())}%`;
    where.push(`(lower(s.description) like ? escape '\\' or lower(s.partnumber) like ? escape '\\')`);
    params.push(pattern, pattern);
  }
  const filter = `where ${where.join(' and ')}`;
  const { rows } = await tx.raw<{ rows: ServiceRow[] }>(
    `${SELECT_SERVICE} ${filter}
     order by ${orderBySql(q.sort, SERVICE_ORDER, 's.id')} limit ? offset ?`,
    [...params, q.limit, q.offset],
  );
  const counted = await tx.raw<{ rows: { n: string }[] }>(`select count(*) as n from services s ${filter}`, params);
  return { rows: rows.map((r) => toReadShape(toRecord(r))), total: Number(counted.rows[0]?.n ?? 0) };
}

export async function getService(tx: Tx, companyId: number, id: number): Promise<ServiceRecord | undefined> {
  const { rows } = await tx.raw<{ rows: ServiceRow[] }>(`${SELECT_SERVICE} where s.company_id = ? and s.id = ?`, [
    companyId,
    id,
  ]);
  return rows[0] && toRecord(rows[0]);
}

/**
 * The catalogue service an invoice item names, by `service_id` or `partnumber` (both: the
 * one row carrying both); undefined when there is none in the company or neither is given.
 * Inactive services are returned too (with `active: false`); the caller decides.
 */
export async function findServiceForItem(
  tx: Tx,
  companyId: number,
  ref: { service_id?: number; partnumber?: string },
): Promise<ServiceRecord | undefined> {
  if (ref.service_id === undefined && ref.partnumber === undefined) return undefined;
  const where: string[] = ['s.company_id = ?'];
  const params: (string | number | boolean)[] = [companyId];
  if (ref.service_id !== undefined) {
    where.push('s.id = ?');
    params.push(ref.service_id);
  }
  if (ref.partnumber !== undefined) {
    where.push('s.partnumber = ?');
    params.push(ref.partnumber);
  }
  const { rows } = await tx.raw<{ rows: ServiceRow[] }>(`${SELECT_SERVICE} where ${where.join(' and ')}`, params);
  return rows[0] && toRecord(rows[0]);
}

export async function partnumberTaken(
  tx: Tx,
  companyId: number,
  partnumber: string,
  exceptId?: number,
): Promise<boolean> {
  const q = tx('services').where({ company_id: companyId, partnumber });
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

/**
 * Next free part number from the company's `service` sequence. Numbers given by hand can
 * occupy sequence values; those are skipped rather than failing the create.
 */
export async function freePartnumber(tx: Tx, company: Company): Promise<string> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const candidate = await nextNumber(tx, company, 'service');
    if (!(await partnumberTaken(tx, company.id, candidate))) return candidate;
  }
  throw new Error('no free service number found in 1000 attempts');
}

/** Inserts a service (partnumber, description, price and currency set); returns its id. */
export async function insertService(
  tx: Tx,
  companyId: number,
  cols: ServiceColumns & Required<Pick<ServiceColumns, 'partnumber' | 'description' | 'price' | 'currency'>>,
): Promise<number> {
  const [row] = await tx('services')
    .insert({ ...cols, company_id: companyId })
    .returning('id');
  return Number(row!.id);
}

/** Sets the given columns; false when there is no such service. */
export async function updateService(tx: Tx, companyId: number, id: number, cols: ServiceColumns): Promise<boolean> {
  const n = await tx('services')
    .where({ company_id: companyId, id })
    .update({ ...cols, updated_at: tx.fn.now() });
  return n > 0;
}

/** Locks the service row for an update (concurrent writers of one service queue). */
export async function lockService(tx: Tx, companyId: number, id: number): Promise<boolean> {
  return (await tx('services').where({ company_id: companyId, id }).forUpdate().first('id')) !== undefined;
}

/**
 * Deletes a service no document refers to. Invoice items reference services without
 * cascade, so Postgres refuses (23503) while any exists, whichever table it is; the
 * savepoint keeps the surrounding transaction usable so the caller can report a conflict.
 */
export async function deleteService(
  tx: Tx,
  companyId: number,
  id: number,
): Promise<'deleted' | 'missing' | 'referenced'> {
  try {
    const n = await tx.transaction(
      async (sp): Promise<number> => sp('services').where({ company_id: companyId, id }).delete(),
    );
    return n > 0 ? 'deleted' : 'missing';
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return 'referenced';
    throw err;
  }
}

/** The chart accounts named by number, with their SQL-Ledger links. */
export async function accountsByNumber(
  tx: Tx,
  companyId: number,
  accnos: readonly string[],
): Promise<Map<string, { id: number; links: string[] }>> {
  if (accnos.length === 0) return new Map();
  const rows = await tx('accounts')
    .where({ company_id: companyId })
    .whereIn('accno', [...accnos])
    .select('id', 'accno', 'link');
  return new Map(rows.map((r) => [r.accno, { id: Number(r.id), links: r.link.split(':').filter(Boolean) }]));
}
