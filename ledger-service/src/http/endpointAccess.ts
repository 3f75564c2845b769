/**
 * Which endpoints a person may call: role permissions ∩ (for AI connections) granted scopes,
 * from the same two tables `authorize()` applies (domain/permissions.ts and
 * endpointPermissions.ts). The gateway uses the answer to list only usable MCP tools.
 */
import { scopeSatisfied, type Scope } from '@ledger/shared';
import { roleHas, type Permission, type Role } from '../domain/permissions.ts';
import { ENDPOINT_PERMISSIONS, resolveRule } from './endpointPermissions.ts';

const SIDES = ['vendor', 'customer'] as const;

/**
 * Endpoint keys ("GET /arap/vendor/:id", `:vc` resolved to each side) the person may call.
 * `scopes` undefined means no scope restriction (API key); an array restricts as an AI connection does.
 */
export function permittedEndpoints(role: Role, scopes?: readonly string[]): string[] {
  const out: string[] = [];
  for (const [key, rule] of Object.entries(ENDPOINT_PERMISSIONS)) {
    const sides = key.includes(':vc') ? SIDES : [undefined];
    for (const vc of sides) {
      const { permission, scope } = resolveRule(rule, vc);
      if (permission && !roleHas(role, permission as Permission)) continue;
      if (scopes && (!scope || !scopeSatisfied(scopes, scope as Scope))) continue;
      out.push(vc ? key.replace(':vc', vc) : key);
    }
  }
  return out;
}
