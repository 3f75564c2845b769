/**
 * Members of the company: invite, change, remove; and the person's side of an invitation
 * (list, accept). The rules of who may change what are in rules.ts; here they are applied in
 * the request's transaction and every change is audited with before and after. Beyond them:
 * the company always keeps an owner (the last owner is neither demoted nor removed), and a
 * person becomes a member only by accepting an invitation sent to their address, so the
 * invitation's answer is the same whether or not the address has an account.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex, type Role } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { withTenant, type Db } from '../../db/knex.ts';
import { conflict, forbidden, notFound } from '../../domain/errors.ts';
import { queueMessage } from '../outbox/index.ts';
import type { ServiceContext } from '../serviceContext.ts';
import { decideChange, decideInvitation, isOpen, normalEmail, roleOf } from './rules.ts';
import {
  companyById,
  databaseNow,
  deleteInvitation,
  deleteMemberRow,
  findInvitation,
  findMember,
  findUserById,
  insertInvitation,
  insertMember,
  invitationById,
  markAccepted,
  markWithdrawn,
  memberIdByEmail,
  openInvitationsTo,
  ownerCount,
  toInvitation,
  unansweredInvitation,
  updateMemberRow,
  type Invitation,
  type Member,
} from './store.ts';

/** What sending an invitation needs: how long it stays open, the app's address, the outbox. */
export interface InvitationSettings {
  days: number;
  /** the public origin of the app (the link in the e-mail) */
  publicUrl: string;
  mailQueue: string;
  fallbackSender: string;
}

const acting = (c: ServiceContext) => ({ userId: c.actor.userId, role: c.actor.role });

async function existing(c: ServiceContext, userId: number): Promise<Member> {
  const member = await findMember(c.tx, c.company.id, userId);
  if (!member) throw notFound(`No member with user id ${userId}.`);
  return member;
}

/** Refuses when `member` is the company's only owner and would stop being one. */
async function keepAnOwner(c: ServiceContext, member: Member, what: string): Promise<void> {
  if (member.role === 'owner' && (await ownerCount(c.tx, c.company.id)) <= 1) {
    throw conflict(
      `${member.email} is the company's last owner and cannot be ${what}; make another member owner first.`,
      'role',
    );
  }
}

export async function changeMember(
  c: ServiceContext,
  userId: number,
  input: { role?: Role; approval_limit?: number | null },
): Promise<Member> {
  const member = await existing(c, userId);
  const after = decideChange(acting(c), member, input);
  if (after.role !== 'owner') await keepAnOwner(c, member, 'demoted');
  await updateMemberRow(c.tx, c.company.id, userId, after.role, after.approval_limit);
  await recordAudit(c.tx, c.company.id, c.actor, 'member', userId, 'update', {
    email: member.email,
    before: { role: member.role, approval_limit: member.approval_limit },
    after,
  });
  return (await findMember(c.tx, c.company.id, userId))!;
}

export async function removeMember(c: ServiceContext, userId: number): Promise<void> {
  const member = await existing(c, userId);
  if (member.role === 'owner' && c.actor.role !== 'owner') throw forbidden('Only owners remove owners.');
  await keepAnOwner(c, member, 'removed');
  await deleteMemberRow(c.tx, c.company.id, userId);
  await recordAudit(c.tx, c.company.id, c.actor, 'member', userId, 'remove', {
    email: member.email,
    before: { role: member.role, approval_limit: member.approval_limit },
    after: null,
  });
}

/** The link's token: 192 random bits; only its SHA-256 is kept. */
function newToken(): string {
  return `inv_${randomBytes(24).toString('base64url')}`;
}

function invitationText(companyName: string, role: Role, link: string, expiresAt: string): string {
  return (
    `You are invited to become a member of ${companyName} (role: ${role}).\n\n` +
    `To accept, open this link and sign in with this e-mail address:\n${link}\n\n` +
    'If you have no account yet, ask the company for one with this address; the invitation waits for you ' +
    `until ${expiresAt} (UTC). If you did not expect it, ignore this message.\n`
  );
}

/**
 * Invites an address: the invitation and its e-mail (through the outbox) commit together. The
 * answer is the invitation whether or not the address has an account; an address that is
 * already a member or already has an open invitation is a 409 (the member list shows both).
 */
export async function inviteMember(
  c: ServiceContext,
  settings: InvitationSettings,
  input: { email: string; role: Role; approval_limit?: number | null },
): Promise<Invitation> {
  const standing = decideInvitation(acting(c), input);
  const email = normalEmail(input.email);
  if ((await memberIdByEmail(c.tx, c.company.id, email)) !== undefined)
    throw conflict(`${email} is already a member.`, 'email');
  const earlier = await unansweredInvitation(c.tx, c.company.id, email);
  if (earlier && isOpen(earlier, await databaseNow(c.tx)))
    throw conflict(`${email} already has an open invitation; withdraw it to send a new one.`, 'email');
  if (earlier) await deleteInvitation(c.tx, c.company.id, earlier.id);
  const token = newToken();
  const row = await insertInvitation(c.tx, {
    company_id: c.company.id,
    email,
    role: standing.role,
    approval_limit: standing.approval_limit === null ? null : String(standing.approval_limit),
    token_hash: sha256Hex(token),
    invited_by: c.actor.userId,
    days: settings.days,
  });
  const invitation = toInvitation(row);
  const link = `${settings.publicUrl.replace(/\/+$/, '')}/invitations?token=${encodeURIComponent(token)}`;
  await queueMessage(c, settings.mailQueue, {
    transactionId: null,
    kind: 'other',
    from: settings.fallbackSender,
    to: [email],
    cc: [],
    subject: `Invitation to ${c.company.name}`,
    text: invitationText(c.company.name, standing.role, link, invitation.expires_at),
    attachments: [],
  });
  await recordAudit(c.tx, c.company.id, c.actor, 'invitation', invitation.id, 'create', {
    email,
    role: standing.role,
    approval_limit: standing.approval_limit,
    expires_at: invitation.expires_at,
  });
  return invitation;
}

export async function getInvitation(c: ServiceContext, id: number): Promise<Invitation> {
  const row = await findInvitation(c.tx, c.company.id, id);
  if (!row) throw notFound(`No invitation with id ${id}.`);
  return toInvitation(row);
}

/** Withdraws an open invitation (its link stops working); an answered one is a 404 (nothing left to withdraw). */
export async function withdrawInvitation(c: ServiceContext, id: number): Promise<void> {
  const row = await findInvitation(c.tx, c.company.id, id);
  if (!row || row.accepted_at !== null || row.withdrawn_at !== null)
    throw notFound(`No open invitation with id ${id}.`);
  await markWithdrawn(c.tx, c.company.id, id);
  await recordAudit(c.tx, c.company.id, c.actor, 'invitation', id, 'withdraw', { email: row.email, role: row.role });
}

/** One open invitation as the invited person sees it. */
export interface OpenInvitation {
  id: number;
  company: { dataset: string; name: string };
  role: Role;
  approval_limit: number | null;
  expires_at: string;
}

/**
 * The open invitations to an active person's account address, and which of them `token` (the
 * e-mail link's) names: null when it names none of theirs (another person's, withdrawn, expired).
 */
export async function invitationsOfUser(
  db: Db,
  userId: number,
  token: string | undefined,
): Promise<{ invitations: OpenInvitation[]; linked: number | null }> {
  const user = await findUserById(db, userId);
  if (!user?.active) return { invitations: [], linked: null };
  const rows = await openInvitationsTo(db, normalEmail(user.email));
  const hash = token === undefined ? undefined : sha256Hex(token);
  return {
    invitations: rows.map((r) => ({
      id: r.id,
      company: { dataset: r.dataset, name: r.company_name },
      role: roleOf(r.role),
      approval_limit: r.approval_limit === null ? null : Number(r.approval_limit),
      expires_at: r.expires_at.toISOString(),
    })),
    linked: rows.find((r) => hash !== undefined && r.token_hash === hash)?.id ?? null,
  };
}

/**
 * The invited person accepts: in one transaction of the company the invitation is locked and
 * checked (open, addressed to this active person's account), the membership is made with the
 * invited role and limit, the invitation marked accepted, and both audited. Another person,
 * a withdrawn or expired invitation: 404, the same answer as none at all.
 */
export async function acceptInvitation(
  db: Db,
  userId: number,
  invitationId: number,
): Promise<{ dataset: string; name: string; role: Role }> {
  const gone = () => notFound('No open invitation for this account.');
  const found = await invitationById(db, invitationId);
  const user = await findUserById(db, userId);
  if (!found || !user?.active) throw gone();
  const { company, role } = await withTenant(db, found.company_id, async (tx) => {
    const row = await findInvitation(tx, found.company_id, invitationId);
    if (!row || !isOpen(row, await databaseNow(tx)) || row.email !== normalEmail(user.email)) throw gone();
    const companyRow = (await companyById(tx, row.company_id))!;
    const c: ServiceContext = {
      tx,
      company: companyRow,
      actor: {
        userId,
        role: roleOf(row.role),
        approvalLimit: row.approval_limit,
        via: { kind: 'app', id: null, label: 'app' },
      },
    };
    if (await findMember(tx, row.company_id, userId)) throw conflict('You are already a member of this company.');
    const limit = row.approval_limit === null ? null : Number(row.approval_limit);
    await insertMember(tx, row.company_id, userId, roleOf(row.role), limit);
    await markAccepted(tx, row.id, userId);
    await recordAudit(tx, row.company_id, c.actor, 'member', userId, 'add', {
      email: row.email,
      invitation_id: row.id,
      before: null,
      after: { role: row.role, approval_limit: limit },
    });
    await recordAudit(tx, row.company_id, c.actor, 'invitation', row.id, 'accept', { email: row.email });
    return { company: companyRow, role: roleOf(row.role) };
  });
  return { dataset: company.dataset, name: company.name, role };
}
