import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addParty, changeParty, partyById, removeParty } from './service.ts';
import { searchParties } from './store.ts';

/** Vendors and customers: `/arap/{vc}` with vc = vendor | customer. */
export const partyRoutes = [
  route(contracts.searchParties, async (req) => searchParties(req.tx, req.company.id, req.params.vc, req.query)),
  route(contracts.createParty, async (req) => addParty(req, req.params.vc, req.body)),
  route(contracts.getParty, async (req) =>
    partyById(req.tx, req.company.id, req.params.vc, idParam(req.params.id, req.params.vc)),
  ),
  route(contracts.updateParty, async (req) =>
    changeParty(req, req.params.vc, idParam(req.params.id, req.params.vc), req.body),
  ),
  route(contracts.deleteParty, async (req) => removeParty(req, req.params.vc, idParam(req.params.id, req.params.vc))),
];
