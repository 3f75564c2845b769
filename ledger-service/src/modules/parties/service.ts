import { numberField, type PartyInput, type Side } from '@ledger/shared';
import type { Tx } from '../../db/knex.ts';
import { recordAudit } from '../../db/audit.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { recordEvent } from '../events/index.ts';
import { createParty, deleteParty, getParty, updateParty, type Party } from './store.ts';

/** Vendors and customers: every change is audited in the same transaction. */

export async function partyById(tx: Tx, companyId: number, vc: Side, id: number): Promise<Party> {
  const party = await getParty(tx, companyId, vc, id);
  if (!party) throw notFound(`No ${vc} with id ${id}.`);
  return party;
}

export async function addParty(
  c: ServiceContext,
  vc: Side,
  input: PartyInput,
): Promise<{ id: number } & Record<string, unknown>> {
  const party = await createParty(c.tx, c.company, vc, input);
  const number = party[numberField(vc)];
  await recordAudit(c.tx, c.company.id, c.actor, vc, party.id, 'create', { number, name: party.name });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'party.created',
    resource: { type: vc, id: party.id, path: `/arap/${vc}/${party.id}` },
    snapshot: { side: vc, number, name: party.name },
  });
  return { id: party.id, [numberField(vc)]: number };
}

/** Changes only the fields sent. */
export async function changeParty(c: ServiceContext, vc: Side, id: number, input: PartyInput): Promise<Party> {
  const party = await updateParty(c.tx, c.company.id, vc, id, input);
  if (!party) throw notFound(`No ${vc} with id ${id}.`);
  await recordAudit(c.tx, c.company.id, c.actor, vc, id, 'update', { fields: Object.keys(input) });
  await recordEvent(c.tx, c.company.id, c.actor, {
    type: 'party.updated',
    resource: { type: vc, id, path: `/arap/${vc}/${id}` },
    snapshot: { side: vc, number: party[numberField(vc)], name: party.name, fields: Object.keys(input) },
  });
  return party;
}

/** Only a party no document refers to can go. */
export async function removeParty(c: ServiceContext, vc: Side, id: number): Promise<void> {
  const result = await deleteParty(c.tx, c.company.id, vc, id);
  if (result === 'missing') throw notFound(`No ${vc} with id ${id}.`);
  if (result === 'referenced') throw conflict(`The ${vc} is referenced by documents and cannot be deleted.`);
  await recordAudit(c.tx, c.company.id, c.actor, vc, id, 'delete');
}
