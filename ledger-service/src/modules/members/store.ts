import type { Tx } from '../../db/knex.ts';
import type { ListPage } from '../../db/listOrder.ts';
import type { Role } from '@ledger/shared';

/** A membership in its API shape (the approval limit as a JSON number, null = no limit). */
export interface Member {
  user_id: number;
  name: string;
  email: string;
  role: Role;
  approval_limit: number | null;
}

const COLUMNS = ['u.id as user_id', 'u.name', 'u.email', 'm.role', 'm.approval_limit'];

function toMember(r: Omit<Member, 'approval_limit'> & { approval_limit: string | null }): Member {
  return { ...r, approval_limit: r.approval_limit === null ? null : Number(r.approval_limit) };
}

function members(tx: Tx, companyId: number) {
  return tx('memberships as m').join('users as u', 'u.id', 'm.user_id').where('m.company_id', companyId);
}

export async function memberPage(
  tx: Tx,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<ListPage<Member>> {
  const counted = await tx('memberships').where('company_id', companyId).count({ n: '*' }).first();
  const rows = await members(tx, companyId).orderBy('u.email').limit(page.limit).offset(page.offset).select(COLUMNS);
  return { rows: rows.map(toMember), total: Number(counted?.n ?? 0) };
}

/** The membership, locked for the rest of the transaction (role changes are decided on it). */
export async function findMember(tx: Tx, companyId: number, userId: number): Promise<Member | undefined> {
  const row = await members(tx, companyId).where('m.user_id', userId).forUpdate('m').first(COLUMNS);
  return row ? toMember(row) : undefined;
}

/** How many owners the company has, counted with their rows locked (two demotions cannot both pass). */
export async function ownerCount(tx: Tx, companyId: number): Promise<number> {
  const rows = await tx('memberships').where({ company_id: companyId, role: 'owner' }).forUpdate().select('user_id');
  return rows.length;
}

export async function findUserIdByEmail(tx: Tx, email: string): Promise<number | undefined> {
  const row = await tx('users').where({ email: email.trim().toLowerCase() }).first('id');
  return row?.id;
}

export async function insertMember(
  tx: Tx,
  companyId: number,
  userId: number,
  role: Role,
  approvalLimit: number | null,
): Promise<void> {
  await tx('memberships').insert({
    company_id: companyId,
    user_id: userId,
    role,
    approval_limit: approvalLimit === null ? null : String(approvalLimit),
  });
}

export async function updateMemberRow(
  tx: Tx,
  companyId: number,
  userId: number,
  role: Role,
  approvalLimit: number | null,
): Promise<void> {
  await tx('memberships')
    .where({ company_id: companyId, user_id: userId })
    .update({ role, approval_limit: approvalLimit === null ? null : String(approvalLimit) });
}

export async function deleteMemberRow(tx: Tx, companyId: number, userId: number): Promise<void> {
  await tx('memberships').where({ company_id: companyId, user_id: userId }).delete();
}
