import { money, type ServiceCreate, type ServiceRead, type ServiceUpdate } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { ACCOUNT_FIELDS, ACCOUNT_FIELD_NAMES, accountFor, checkPrice } from './rules.ts';
import {
  accountsByNumber,
  deleteService,
  freePartnumber,
  getService,
  insertService,
  lockService,
  partnumberTaken,
  toReadShape,
  updateService,
  type ServiceColumns,
} from './store.ts';

/** The services catalogue: every change is checked, written and audited in the request's transaction. */

const partnumberInUse = (partnumber: string) =>
  conflict(`partnumber "${partnumber}" is already in use.`, '/partnumber');

export async function serviceById(tx: Tx, companyId: number, id: number): Promise<ServiceRead> {
  const service = await getService(tx, companyId, id);
  if (!service) throw notFound(`No service with id ${id}.`);
  return toReadShape(service);
}

/** The columns of a validated write: price as exact text, accounts resolved to ids by their links. */
async function columnsOf(tx: Tx, companyId: number, input: ServiceUpdate): Promise<ServiceColumns> {
  const cols: ServiceColumns = {};
  if (input.partnumber !== undefined) cols.partnumber = input.partnumber;
  if (input.description !== undefined) cols.description = input.description;
  if (input.unit !== undefined) cols.unit = input.unit;
  if (input.curr !== undefined) cols.currency = input.curr;
  if (input.active !== undefined) cols.active = input.active;
  if (input.price !== undefined) {
    checkPrice(input.price);
    cols.price = money(input.price).toFixed();
  }
  const named = ACCOUNT_FIELD_NAMES.flatMap((f) => (typeof input[f] === 'string' ? [input[f]] : []));
  const accounts = await accountsByNumber(tx, companyId, named);
  for (const field of ACCOUNT_FIELD_NAMES) {
    const accno = input[field];
    if (accno === undefined) continue;
    cols[ACCOUNT_FIELDS[field].column] = accno === null ? null : accountFor(field, accno, accounts.get(accno));
  }
  return cols;
}

export async function addService(c: ServiceContext, input: ServiceCreate): Promise<{ id: number; partnumber: string }> {
  const cols = await columnsOf(c.tx, c.company.id, input);
  if (input.partnumber !== undefined && (await partnumberTaken(c.tx, c.company.id, input.partnumber)))
    throw partnumberInUse(input.partnumber);
  const partnumber = input.partnumber ?? (await freePartnumber(c.tx, c.company));
  const id = await insertService(c.tx, c.company.id, {
    ...cols,
    partnumber,
    description: input.description,
    price: money(input.price).toFixed(),
    currency: input.curr ?? c.company.base_currency,
  });
  await recordAudit(c.tx, c.company.id, c.actor, 'service', id, 'create', {
    partnumber,
    description: input.description,
  });
  return { id, partnumber };
}

/** Changes only the fields sent. */
export async function changeService(c: ServiceContext, id: number, input: ServiceUpdate): Promise<ServiceRead> {
  if (!(await lockService(c.tx, c.company.id, id))) throw notFound(`No service with id ${id}.`);
  const cols = await columnsOf(c.tx, c.company.id, input);
  if (input.partnumber !== undefined && (await partnumberTaken(c.tx, c.company.id, input.partnumber, id)))
    throw partnumberInUse(input.partnumber);
  await updateService(c.tx, c.company.id, id, cols);
  await recordAudit(c.tx, c.company.id, c.actor, 'service', id, 'update', { fields: Object.keys(input) });
  return serviceById(c.tx, c.company.id, id);
}

/** Only a service no invoice uses can go; one in use is deactivated instead. */
export async function removeService(c: ServiceContext, id: number): Promise<void> {
  const result = await deleteService(c.tx, c.company.id, id);
  if (result === 'missing') throw notFound(`No service with id ${id}.`);
  if (result === 'referenced') {
    throw conflict(
      'The service is used by invoices and cannot be deleted; deactivate it instead (POST {"active": false}).',
    );
  }
  await recordAudit(c.tx, c.company.id, c.actor, 'service', id, 'delete');
}
