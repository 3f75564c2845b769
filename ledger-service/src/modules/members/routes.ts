import { contracts } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { idParam } from '../../kernel/params.ts';
import { route, type RouteRequest } from '../../kernel/route.ts';
import { changeMember, getInvitation, inviteMember, removeMember, withdrawInvitation } from './service.ts';
import { memberPage, openInvitationPage } from './store.ts';

/** How long an invitation stays open, the app's address for its link, and the outbox to send it from. */
function invitationSettings(req: Pick<RouteRequest, 'ctx'>) {
  const config = req.ctx.config as LedgerConfig;
  return {
    days: config.invitationDays ?? 7,
    publicUrl: config.publicUrl,
    mailQueue: config.mailQueue,
    fallbackSender: `noreply@${new URL(config.publicUrl).hostname}`,
  };
}

/**
 * The company's members, `GET /system/members`, `POST/DELETE /system/members/{userId}`, and the
 * invitations that make them, `GET/POST /system/invitations`, `GET/DELETE /system/invitations/{id}`.
 */
export const memberRoutes = [
  route(contracts.listMembers, async (req) => memberPage(req.tx, req.company.id, req.query)),
  route(contracts.updateMember, async (req) => changeMember(req, idParam(req.params.userId, 'member'), req.body)),
  route(contracts.removeMember, async (req) => removeMember(req, idParam(req.params.userId, 'member'))),
  route(contracts.listInvitations, async (req) => openInvitationPage(req.tx, req.company.id, req.query)),
  route(contracts.createInvitation, async (req) => inviteMember(req, invitationSettings(req), req.body)),
  route(contracts.getInvitation, async (req) => getInvitation(req, idParam(req.params.id, 'invitation'))),
  route(contracts.withdrawInvitation, async (req) => withdrawInvitation(req, idParam(req.params.id, 'invitation'))),
];
