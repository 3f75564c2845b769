import { roleHas, scopeSatisfied, type Permission, type Scope } from '@ledger/shared';
import type { Actor } from './actor.ts';
import { forbidden } from './errors.ts';

/**
 * Effective access = the role's permissions ∩, for AI connections, the granted scopes.
 * The kernel checks each contract's permission with it; services call it for permissions
 * that depend on the request's content (e.g. reopening closed books).
 */
export function authorize(actor: Actor, permission: Permission | null, scope: Scope | null): void {
  if (permission && !roleHas(actor.role, permission)) {
    throw forbidden(`Missing permission ${permission} (role ${actor.role}).`);
  }
  if (actor.via.kind === 'ai_connection') {
    if (!scope) throw forbidden('This endpoint is not available to AI connections.');
    if (!scopeSatisfied(actor.via.scopes, scope)) throw forbidden(`Missing scope ${scope}.`);
  }
}
