import { PARTY_FIELDS, numberField, partyReadName, type PartyInput, type Side } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import type { PartiesRow } from '../../db/tables.ts';
import type { Company } from '../../db/companies.ts';
import { nextNumber } from '../../db/sequences.ts';
import { orderBySql, type ListPage } from '../../db/listOrder.ts';
import { conflict } from '../../domain/errors.ts';

/** Vendors and customers (one `parties` table, told apart by `vc`). Runs inside a tenant transaction. */

/** The read shape: id, the side's number field, and every stored field (null when unset). */
export type Party = { id: number } & Record<string, string | number | null>;

/** The side's number field names a party that exists already: 409 on that field. */
const numberInUse = (vc: Side, number: string) =>
  conflict(`${numberField(vc)} "${number}" is already in use.`, `/${numberField(vc)}`);

function toReadShape(vc: Side, row: PartiesRow): Party {
  const out: Party = { id: row.id, [numberField(vc)]: row.number };
  const cells: Readonly<Record<string, unknown>> = row;
  for (const f of PARTY_FIELDS.map(partyReadName)) {
    const v = cells[f];
    out[f] = typeof v === 'string' || typeof v === 'number' ? v : null;
  }
  // char(n) columns come back padded in some drivers; keep codes exact
  if (typeof out.country === 'string') out.country = out.country.trim();
  if (typeof out.currency === 'string') out.currency = out.currency.trim();
  return out;
}

/**
 * Only the known columns of a validated body (named as the read shape names them: `curr` → `currency`); the side's
 * number field becomes `number`.
 */
function columns(vc: Side, input: PartyInput): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  const fields: Readonly<Record<string, unknown>> = input;
  for (const f of PARTY_FIELDS) if (f in fields) cols[partyReadName(f)] = fields[f];
  const num = fields[numberField(vc)];
  if (typeof num === 'string') cols.number = num;
  return cols;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const PARTY_ORDER = { name: 'lower(name)', number: 'number', id: 'id' };

export async function searchParties(
  tx: Tx,
  companyId: number,
  vc: Side,
  q: { name?: string; sort: string; limit: number; offset: number },
): Promise<ListPage<Party>> {
  const query = tx('parties').where({ company_id: companyId, vc });
  if (q.name) query.whereRaw(`lower(name) like ? escape '\\'`, [`%${escapeLike(q.name.toLowerCase())}%`]);
  const counted = await query.clone().count({ n: '*' }).first();
  const rows = await query
    .orderByRaw(orderBySql(q.sort, PARTY_ORDER, 'id'))
    .limit(q.limit)
    .offset(q.offset)
    .select('*');
  return { rows: rows.map((r) => toReadShape(vc, r)), total: Number(counted?.n ?? 0) };
}

export async function getParty(tx: Tx, companyId: number, vc: Side, id: number): Promise<Party | undefined> {
  const row = await tx('parties').where({ company_id: companyId, vc, id }).first();
  return row && toReadShape(vc, row);
}

/** The id of the party with this number on this side, if there is one. */
export async function partyIdByNumber(
  tx: Tx,
  companyId: number,
  vc: Side,
  number: string,
): Promise<number | undefined> {
  const row = await tx('parties').where({ company_id: companyId, vc, number }).first('id');
  return row?.id;
}

async function numberTaken(tx: Tx, companyId: number, vc: Side, number: string, exceptId?: number): Promise<boolean> {
  const q = tx('parties').where({ company_id: companyId, vc, number });
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  return (await q.first('id')) !== undefined;
}

/**
 * Next free number from the company's sequence. Numbers given by hand can occupy
 * sequence values; those are skipped rather than failing the create.
 */
async function freeNumber(tx: Tx, company: Company, vc: Side): Promise<string> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const candidate = await nextNumber(tx, company, vc);
    if (!(await numberTaken(tx, company.id, vc, candidate))) return candidate;
  }
  throw new Error(`no free ${vc} number found in 1000 attempts`);
}

export async function createParty(tx: Tx, company: Company, vc: Side, input: PartyInput): Promise<Party> {
  const cols = columns(vc, input);
  if (typeof cols.number === 'string') {
    if (await numberTaken(tx, company.id, vc, cols.number)) throw numberInUse(vc, cols.number);
  } else {
    cols.number = await freeNumber(tx, company, vc);
  }
  const [row] = await tx('parties')
    .insert({ ...cols, company_id: company.id, vc })
    .returning('*');
  return toReadShape(vc, row!);
}

/** Changes only the fields given; undefined when there is no such party. */
export async function updateParty(
  tx: Tx,
  companyId: number,
  vc: Side,
  id: number,
  input: PartyInput,
): Promise<Party | undefined> {
  const cols = columns(vc, input);
  if (typeof cols.number === 'string' && (await numberTaken(tx, companyId, vc, cols.number, id))) {
    throw numberInUse(vc, cols.number);
  }
  const [row] = await tx('parties')
    .where({ company_id: companyId, vc, id })
    .update({ ...cols, updated_at: tx.fn.now() })
    .returning('*');
  return row && toReadShape(vc, row);
}

/**
 * Deletes a party that no document refers to. Documents reference parties without
 * cascade, so Postgres refuses (23503) while any exists; the savepoint keeps the
 * surrounding transaction usable so the caller can report a conflict.
 */
export async function deleteParty(
  tx: Tx,
  companyId: number,
  vc: Side,
  id: number,
): Promise<'deleted' | 'missing' | 'referenced'> {
  try {
    const n = await tx.transaction(
      async (sp): Promise<number> => sp('parties').where({ company_id: companyId, vc, id }).delete(),
    );
    return n > 0 ? 'deleted' : 'missing';
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return 'referenced';
    throw err;
  }
}
