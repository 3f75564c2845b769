/**
 * Who may change whom, and to what: pure decisions on the acting member and the member (or
 * invitation) in question. Approval limits are a control, not a preference: only owners set
 * them, nobody changes their own role or limit, and an admin who raises a member into a role
 * that approves leaves no unlimited approval behind (the limit becomes 0 until an owner sets it).
 */
import { isRole, roleHas, type Role } from '@ledger/shared';
import { forbidden } from '../../domain/errors.ts';

export interface Acting {
  userId: number;
  role: Role;
}

export interface Standing {
  role: Role;
  /** null = no limit */
  approval_limit: number | null;
}

/** Whether the role approves and posts documents (where the approval limit applies). */
export function approves(role: Role): boolean {
  return roleHas(role, 'vendors.postings.approve') || roleHas(role, 'customers.postings.approve');
}

/**
 * The member's standing after `input` (absent fields keep theirs), or the refusal: own role or
 * limit (anyone), a different limit (non-owners), the owner role given or taken (non-owners).
 */
export function decideChange(
  actor: Acting,
  member: Standing & { user_id: number },
  input: { role?: Role; approval_limit?: number | null },
): Standing {
  const role = input.role ?? member.role;
  const asked = input.approval_limit === undefined ? member.approval_limit : input.approval_limit;
  const roleChanges = role !== member.role;
  const limitChanges = asked !== member.approval_limit;
  if (member.user_id === actor.userId && (roleChanges || limitChanges))
    throw forbidden('Nobody changes their own role or approval limit; another owner does.');
  if (limitChanges && actor.role !== 'owner') throw forbidden('Only owners change approval limits.');
  if (roleChanges && (role === 'owner' || member.role === 'owner') && actor.role !== 'owner')
    throw forbidden('Only owners grant or take the owner role.');
  const newlyApproves = roleChanges && approves(role) && !approves(member.role);
  const limit = newlyApproves && actor.role !== 'owner' && asked === null ? 0 : asked;
  return { role, approval_limit: limit };
}

/**
 * The role and limit an invitation carries, or the refusal: only owners invite owners or set a
 * limit; an admin's invitation carries 0 (no approval until an owner sets a limit), an owner's
 * without one none.
 */
export function decideInvitation(actor: Acting, input: { role: Role; approval_limit?: number | null }): Standing {
  if (actor.role !== 'owner') {
    if (input.role === 'owner') throw forbidden('Only owners invite owners.');
    if (input.approval_limit !== undefined) throw forbidden('Only owners set approval limits.');
    return { role: input.role, approval_limit: 0 };
  }
  return { role: input.role, approval_limit: input.approval_limit ?? null };
}

/** Whether an invitation can still be accepted at `now`. */
export function isOpen(
  invitation: { accepted_at: Date | null; withdrawn_at: Date | null; expires_at: Date },
  now: Date,
): boolean {
  return invitation.accepted_at === null && invitation.withdrawn_at === null && invitation.expires_at > now;
}

/** The address an invitation is sent to and matched against the account: trimmed, lower case. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A stored role (the column holds only roles: the API validates them before they are written). */
export function roleOf(text: string): Role {
  if (!isRole(text)) throw new Error(`unknown role "${text}" stored`);
  return text;
}
