import { contracts, numberField, type Side } from '@ledger/shared';
import {
  createParty, deleteParty, getParty, PartyConflict, searchParties, updateParty, type PartyInput,
} from './store.ts';
import { recordAudit } from '../../db/audit.ts';
import { ApiError } from '../../kernel/errors.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';

/** Vendors and customers: `/arap/{vc}` with vc = vendor | customer. */

function conflictToApi(err: unknown, vc: Side): never {
  if (err instanceof PartyConflict) throw new ApiError('conflict', err.message, `/${numberField(vc)}`);
  throw err;
}

export const partyRoutes = [
  route(contracts.searchParties, async (req) => searchParties(req.tx, req.params.vc, req.query)),
  route(contracts.createParty, async (req) => {
    const { vc } = req.params;
    const party = await createParty(req.tx, req.company, vc, req.body).catch((e) => conflictToApi(e, vc));
    await recordAudit(req.tx, req.company.id, req.actor, vc, party.id, 'create', { number: party[numberField(vc)], name: party.name });
    return { id: party.id, [numberField(vc)]: party[numberField(vc)] };
  }),
  route(contracts.getParty, async (req) => {
    const { vc } = req.params;
    const party = await getParty(req.tx, vc, idParam(req.params.id, vc));
    if (!party) throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
    return party;
  }),
  route(contracts.updateParty, async (req) => {
    const { vc } = req.params;
    const id = idParam(req.params.id, vc);
    const party = await updateParty(req.tx, vc, id, req.body).catch((e) => conflictToApi(e, vc));
    if (!party) throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
    await recordAudit(req.tx, req.company.id, req.actor, vc, id, 'update', { fields: Object.keys(req.body) });
    return party;
  }),
  route(contracts.deleteParty, async (req) => {
    const { vc } = req.params;
    const id = idParam(req.params.id, vc);
    const result = await deleteParty(req.tx, vc, id);
    if (result === 'missing') throw new ApiError('not_found', `No ${vc} with id ${req.params.id}.`);
    if (result === 'referenced') {
      throw new ApiError('conflict', `The ${vc} is referenced by documents and cannot be deleted.`);
    }
    await recordAudit(req.tx, req.company.id, req.actor, vc, id, 'delete');
    return undefined;
  }),
];
