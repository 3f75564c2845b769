import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { addMember, changeMember, removeMember } from './service.ts';
import { memberPage } from './store.ts';

/** The company's members: `GET/POST /system/members`, `POST/DELETE /system/members/{userId}`. */
export const memberRoutes = [
  route(contracts.listMembers, async (req) => memberPage(req.tx, req.company.id, req.query)),
  route(contracts.addMember, async (req) => addMember(req, req.body)),
  route(contracts.updateMember, async (req) => changeMember(req, idParam(req.params.userId, 'member'), req.body)),
  route(contracts.removeMember, async (req) => removeMember(req, idParam(req.params.userId, 'member'))),
];
