/**
 * Serving stage: the tools the request may use. For a `tools/call`, only the called tool (a
 * server per request is built from this list, so a short list is cheaper); for `tools/list`,
 * the tools of the granted scopes that the person's role may use (the ledger says which,
 * access.ts); otherwise the tools of the granted scopes (a call goes through with the scope
 * and the ledger enforces the role).
 */
import { endpointKeys } from '../tools/declare.ts';
import { toolsForScopes, type CatalogueTool } from '../tools/catalogue.ts';
import type { ServeEnv, Serving } from './state.ts';

export async function chooseTools({ access }: ServeEnv, state: Omit<Serving, 'tools'>): Promise<Serving> {
  return { ...state, tools: await toolsOf(access, state) };
}

async function toolsOf(
  access: ServeEnv['access'],
  { connection, requests }: Omit<Serving, 'tools'>,
): Promise<readonly CatalogueTool[]> {
  const byScope = toolsForScopes(connection.scopes);
  if (requests.length > 0 && requests.every((r) => r.method === 'tools/call')) {
    const names = new Set(requests.map((r) => r.params?.name));
    const called = byScope.filter((t) => names.has(t.declaration.name));
    // an unknown tool: the whole list, so the SDK answers exactly as it does for any unknown tool
    if (called.length === names.size) return called;
  }
  if (!requests.some((r) => r.method === 'tools/list')) return byScope;
  const endpoints = await access.permittedEndpoints(connection);
  return endpoints ? byScope.filter((t) => endpointKeys(t.declaration).some((key) => endpoints.has(key))) : byScope;
}
