import type { Tx } from '../../db/knex.ts';
import type { DimensionCatalogue } from './rules.ts';

/** Rows of dimensions and dimension_values; every query names its company. */

export interface DimensionValueShape {
  id: number;
  code: string;
  name: string;
  active: boolean;
}

export interface DimensionShape extends DimensionValueShape {
  values: DimensionValueShape[];
}

/** Every dimension of the company with its values (inactive ones too), by code. */
export async function listDimensions(tx: Tx, companyId: number, id?: number): Promise<DimensionShape[]> {
  const q = tx('dimensions').where({ company_id: companyId }).orderBy('code');
  if (id !== undefined) q.andWhere({ id });
  const dims = await q.select('id', 'code', 'name', 'active');
  if (dims.length === 0) return [];
  const values = await tx('dimension_values')
    .where({ company_id: companyId })
    .whereIn(
      'dimension_id',
      dims.map((d) => d.id),
    )
    .orderBy('code')
    .select('id', 'dimension_id', 'code', 'name', 'active');
  return dims.map((d) => ({
    id: d.id,
    code: d.code,
    name: d.name,
    active: d.active,
    values: values
      .filter((v) => v.dimension_id === d.id)
      .map((v) => ({ id: v.id, code: v.code, name: v.name, active: v.active })),
  }));
}

/** What the posting rules check lines against: dimension code → active flag and value codes → active. */
export async function loadDimensionCatalogue(tx: Tx, companyId: number): Promise<DimensionCatalogue> {
  const dims = await listDimensions(tx, companyId);
  return new Map(
    dims.map((d) => [d.code, { active: d.active, values: new Map(d.values.map((v) => [v.code, v.active])) }]),
  );
}

export async function lockDimension(tx: Tx, companyId: number, id: number) {
  return tx('dimensions').where({ company_id: companyId, id }).forUpdate().first('id', 'code');
}

export async function dimensionCodeTaken(tx: Tx, companyId: number, code: string): Promise<boolean> {
  return (await tx('dimensions').where({ company_id: companyId, code }).first('id')) !== undefined;
}

export async function insertDimension(tx: Tx, companyId: number, code: string, name: string): Promise<number> {
  const [row] = await tx('dimensions').insert({ company_id: companyId, code, name }).returning(['id']);
  return row!.id;
}

export async function updateDimension(
  tx: Tx,
  companyId: number,
  id: number,
  cols: { name?: string; active?: boolean },
): Promise<void> {
  await tx('dimensions').where({ company_id: companyId, id }).update(cols);
}

export async function valueCodeTaken(tx: Tx, companyId: number, dimensionId: number, code: string): Promise<boolean> {
  const row = await tx('dimension_values')
    .where({ company_id: companyId, dimension_id: dimensionId, code })
    .first('id');
  return row !== undefined;
}

export async function insertValues(
  tx: Tx,
  companyId: number,
  dimensionId: number,
  values: readonly { code: string; name: string }[],
): Promise<number[]> {
  if (values.length === 0) return [];
  const rows = await tx('dimension_values')
    .insert(values.map((v) => ({ company_id: companyId, dimension_id: dimensionId, code: v.code, name: v.name })))
    .returning(['id']);
  return rows.map((r) => r.id);
}

/** Changes a value of the dimension; the value as it now is, undefined when the dimension has no such value. */
export async function updateValue(
  tx: Tx,
  companyId: number,
  dimensionId: number,
  id: number,
  cols: { name?: string; active?: boolean },
): Promise<DimensionValueShape | undefined> {
  const [row] = await tx('dimension_values')
    .where({ company_id: companyId, dimension_id: dimensionId, id })
    .update(cols)
    .returning(['id', 'code', 'name', 'active']);
  return row;
}

/** One dimension with its values, by code; undefined when the company has none of that code. */
export async function dimensionByCode(tx: Tx, companyId: number, code: string): Promise<DimensionShape | undefined> {
  const row = await tx('dimensions').where({ company_id: companyId, code }).first('id');
  if (!row) return undefined;
  const [dimension] = await listDimensions(tx, companyId, row.id);
  return dimension;
}
