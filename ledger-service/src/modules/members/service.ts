/**
 * Members of the company: add, change, remove. Two rules beyond the permission: only owners
 * grant, take or remove the owner role (an admin cannot make themselves or anyone owner), and
 * the company always keeps an owner (the last owner is neither demoted nor removed).
 */
import type { Role } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { conflict, forbidden, notFound } from '../../domain/errors.ts';
import type { ServiceContext } from '../serviceContext.ts';
import {
  deleteMemberRow,
  findMember,
  findUserIdByEmail,
  insertMember,
  ownerCount,
  updateMemberRow,
  type Member,
} from './store.ts';

function ownersOnly(c: ServiceContext, what: string): void {
  if (c.actor.role !== 'owner') throw forbidden(`Only owners ${what}.`);
}

export async function addMember(
  c: ServiceContext,
  input: { email: string; role: Role; approval_limit?: number | null },
): Promise<Member> {
  if (input.role === 'owner') ownersOnly(c, 'add owners');
  const userId = await findUserIdByEmail(c.tx, input.email);
  if (userId === undefined) throw notFound(`No person with the e-mail ${input.email} has an account.`);
  if (await findMember(c.tx, c.company.id, userId)) throw conflict(`${input.email} is already a member.`, 'email');
  await insertMember(c.tx, c.company.id, userId, input.role, input.approval_limit ?? null);
  await recordAudit(c.tx, c.company.id, c.actor, 'member', userId, 'add', {
    email: input.email,
    role: input.role,
    approval_limit: input.approval_limit ?? null,
  });
  return (await findMember(c.tx, c.company.id, userId))!;
}

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
  const role = input.role ?? member.role;
  const limit = input.approval_limit === undefined ? member.approval_limit : input.approval_limit;
  if (role !== member.role && (role === 'owner' || member.role === 'owner'))
    ownersOnly(c, 'grant or take the owner role');
  if (role !== 'owner') await keepAnOwner(c, member, 'demoted');
  await updateMemberRow(c.tx, c.company.id, userId, role, limit);
  await recordAudit(c.tx, c.company.id, c.actor, 'member', userId, 'update', {
    email: member.email,
    role: { from: member.role, to: role },
    approval_limit: { from: member.approval_limit, to: limit },
  });
  return (await findMember(c.tx, c.company.id, userId))!;
}

export async function removeMember(c: ServiceContext, userId: number): Promise<void> {
  const member = await existing(c, userId);
  if (member.role === 'owner') ownersOnly(c, 'remove owners');
  await keepAnOwner(c, member, 'removed');
  await deleteMemberRow(c.tx, c.company.id, userId);
  await recordAudit(c.tx, c.company.id, c.actor, 'member', userId, 'remove', {
    email: member.email,
    role: member.role,
  });
}
