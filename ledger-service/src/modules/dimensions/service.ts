import type { DimensionCreateInput, DimensionUpdateInput, DimensionValueCreateInput } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import {
  dimensionCodeTaken,
  type DimensionShape,
  type DimensionValueShape,
  insertDimension,
  insertValues,
  listDimensions,
  lockDimension,
  updateDimension,
  updateValue,
  valueCodeTaken,
} from './store.ts';

/** Dimensions and their values: checked, written and audited in the request's transaction. */

export async function dimensionById(c: ServiceContext, id: number): Promise<DimensionShape> {
  const [dimension] = await listDimensions(c.tx, c.company.id, id);
  if (!dimension) throw notFound(`No dimension with id ${id}.`);
  return dimension;
}

export async function addDimension(c: ServiceContext, input: DimensionCreateInput): Promise<{ id: number }> {
  if (await dimensionCodeTaken(c.tx, c.company.id, input.code))
    throw conflict(`A dimension with code "${input.code}" exists already.`, '/code');
  const values = input.values ?? [];
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v.code)) throw conflict(`The value code "${v.code}" is given twice.`, `/values/${i}/code`);
    seen.add(v.code);
  });
  const id = await insertDimension(c.tx, c.company.id, input.code, input.name);
  await insertValues(c.tx, c.company.id, id, values);
  await recordAudit(c.tx, c.company.id, c.actor, 'dimension', id, 'create', {
    code: input.code,
    values: values.map((v) => v.code),
  });
  return { id };
}

export async function changeDimension(
  c: ServiceContext,
  id: number,
  input: DimensionUpdateInput,
): Promise<DimensionShape> {
  if (!(await lockDimension(c.tx, c.company.id, id))) throw notFound(`No dimension with id ${id}.`);
  await updateDimension(c.tx, c.company.id, id, input);
  await recordAudit(c.tx, c.company.id, c.actor, 'dimension', id, 'update', input);
  return dimensionById(c, id);
}

export async function addDimensionValue(
  c: ServiceContext,
  dimensionId: number,
  input: DimensionValueCreateInput,
): Promise<{ id: number }> {
  if (!(await lockDimension(c.tx, c.company.id, dimensionId))) throw notFound(`No dimension with id ${dimensionId}.`);
  if (await valueCodeTaken(c.tx, c.company.id, dimensionId, input.code))
    throw conflict(`The dimension has a value "${input.code}" already.`, '/code');
  const [id] = await insertValues(c.tx, c.company.id, dimensionId, [input]);
  await recordAudit(c.tx, c.company.id, c.actor, 'dimension', dimensionId, 'add_value', { code: input.code });
  return { id: id! };
}

export async function changeDimensionValue(
  c: ServiceContext,
  dimensionId: number,
  valueId: number,
  input: DimensionUpdateInput,
): Promise<DimensionValueShape> {
  if (!(await lockDimension(c.tx, c.company.id, dimensionId))) throw notFound(`No dimension with id ${dimensionId}.`);
  const value = await updateValue(c.tx, c.company.id, dimensionId, valueId, input);
  if (!value) throw notFound(`The dimension has no value with id ${valueId}.`);
  await recordAudit(c.tx, c.company.id, c.actor, 'dimension', dimensionId, 'update_value', { id: valueId, ...input });
  return value;
}
