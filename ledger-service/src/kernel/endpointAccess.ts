/**
 * Which endpoints a person may call: role permissions ∩ (for AI connections) granted scopes,
 * from the same contracts `authorize()` applies (shared/src/contracts and the role table in
 * shared/src/permissions.ts). The gateway uses the answer to list only usable MCP tools.
 */
import { CONTRACTS, endpointKey, forSide, roleHas, scopeSatisfied, sidesOf, type Role } from '@ledger/shared';

/**
 * Endpoint keys ("GET /arap/vendor/:id", `:vc` resolved to each side) the person may call.
 * `scopes` undefined means no scope restriction (API key); an array restricts as an AI connection does.
 */
export function permittedEndpoints(role: Role, scopes?: readonly string[]): string[] {
  const out: string[] = [];
  for (const contract of CONTRACTS) {
    for (const side of sidesOf(contract)) {
      const permission = contract.permission ? forSide(contract.permission, side) : null;
      if (permission && !roleHas(role, permission)) continue;
      if (scopes && (!contract.scope || !scopeSatisfied(scopes, contract.scope))) continue;
      out.push(endpointKey(contract, side));
    }
  }
  return out;
}
