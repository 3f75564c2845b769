import type { Db, Tx } from '../../db/knex.ts';
import type { InvitationsRow } from '../../db/tables.ts';
import type { Company } from '../../db/companies.ts';
import { roleOf } from './rules.ts';
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

/** The member with this address, if any (a member's address is no secret to those who manage members). */
export async function memberIdByEmail(tx: Tx, companyId: number, email: string): Promise<number | undefined> {
  const row = await members(tx, companyId).where('u.email', email).first('u.id as user_id');
  return row?.user_id;
}

export async function companyById(tx: Tx, id: number): Promise<Company | undefined> {
  return tx('companies').where({ id }).first();
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

/** The user with this id (an invitation is matched against their address). */
export async function findUserById(
  db: Db | Tx,
  id: number,
): Promise<{ id: number; email: string; active: boolean } | undefined> {
  return db('users').where({ id }).first('id', 'email', 'active');
}

/** An invitation in its API shape. */
export interface Invitation {
  id: number;
  email: string;
  role: Role;
  approval_limit: number | null;
  created_at: string;
  expires_at: string;
}

export function toInvitation(r: InvitationsRow): Invitation {
  return {
    id: r.id,
    email: r.email,
    role: roleOf(r.role),
    approval_limit: r.approval_limit === null ? null : Number(r.approval_limit),
    created_at: r.created_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
  };
}

/** The company's open invitations (not accepted, withdrawn or expired), by e-mail. */
export async function openInvitationPage(
  tx: Tx,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<ListPage<Invitation>> {
  const q = () =>
    tx('invitations')
      .where({ company_id: companyId, accepted_at: null, withdrawn_at: null })
      .where('expires_at', '>', tx.fn.now());
  const counted = await q().count({ n: '*' }).first();
  const rows = await q()
    .orderBy([{ column: 'email' }, { column: 'id' }])
    .limit(page.limit)
    .offset(page.offset);
  return { rows: rows.map(toInvitation), total: Number(counted?.n ?? 0) };
}

/** One invitation of the company, open or not, its row locked for the rest of the transaction. */
export async function findInvitation(tx: Tx, companyId: number, id: number): Promise<InvitationsRow | undefined> {
  return tx('invitations').where({ company_id: companyId, id }).forUpdate().first();
}

/** Any invitation by id, across companies (the person's side: the company is not known yet). */
export async function invitationById(db: Db | Tx, id: number): Promise<InvitationsRow | undefined> {
  return db('invitations').where({ id }).first();
}

/** The invitation to this address in the company that is neither accepted nor withdrawn (expired or not), locked. */
export async function unansweredInvitation(
  tx: Tx,
  companyId: number,
  email: string,
): Promise<InvitationsRow | undefined> {
  return tx('invitations')
    .where({ company_id: companyId, email, accepted_at: null, withdrawn_at: null })
    .forUpdate()
    .first();
}

/** Removes an expired, unanswered invitation (a new one to the same address replaces it). */
export async function deleteInvitation(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('invitations').where({ company_id: companyId, id }).delete();
}

export async function insertInvitation(
  tx: Tx,
  row: Pick<InvitationsRow, 'company_id' | 'email' | 'role' | 'approval_limit' | 'token_hash' | 'invited_by'> & {
    days: number;
  },
): Promise<InvitationsRow> {
  const { days, ...values } = row;
  const [inserted] = await tx('invitations')
    .insert({ ...values, expires_at: tx.raw(`now() + make_interval(days => ?)`, [days]) })
    .returning('*');
  return inserted!;
}

export async function markWithdrawn(tx: Tx, companyId: number, id: number): Promise<void> {
  await tx('invitations').where({ company_id: companyId, id }).update({ withdrawn_at: tx.fn.now() });
}

export async function markAccepted(tx: Tx, id: number, userId: number): Promise<void> {
  await tx('invitations').where({ id }).update({ accepted_at: tx.fn.now(), accepted_by: userId });
}

/** The open invitations to an address, across companies, with the company's name, soonest to expire first. */
export async function openInvitationsTo(
  db: Db | Tx,
  email: string,
): Promise<(InvitationsRow & { dataset: string; company_name: string })[]> {
  const rows: (InvitationsRow & { dataset: string; company_name: string })[] = await db('invitations as i')
    .join('companies as c', 'c.id', 'i.company_id')
    .where({ 'i.email': email })
    .whereNull('i.accepted_at')
    .whereNull('i.withdrawn_at')
    .where('i.expires_at', '>', db.fn.now())
    .orderBy([{ column: 'i.expires_at' }, { column: 'i.id' }])
    .select('i.*', 'c.dataset', 'c.name as company_name');
  return rows;
}

/** The database's clock (expiry is decided by it, the same one that wrote `expires_at`). */
export async function databaseNow(tx: Tx): Promise<Date> {
  const { rows } = await tx.raw<{ rows: { now: Date }[] }>('select now() as now');
  return rows[0]!.now;
}
