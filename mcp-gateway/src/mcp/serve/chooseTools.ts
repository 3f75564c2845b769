/**
 * Serving stage: the tools the request may use. For a `tools/call`, only the called tool (a
 * server per request is built from this list, so a short list is cheaper); for `tools/list`,
 * the tools of the granted scopes that the person's role may use (the ledger says which,
 * access.ts); otherwise the tools of the granted scopes (a call goes through with the scope
 * and the ledger enforces the role).
 */
import { endpointKeys } from '../tools/declare.ts';
import { findTool, toolsForScopes, type CatalogueTool } from '../tools/catalogue.ts';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export function chooseTools({ access }: ServeEnv, state: Omit<Serving, 'tools'>): Serving | Promise<Serving> {
  const { connection, requests } = state;
  const byScope = toolsForScopes(connection.scopes);
  if (requests.length > 0 && requests.every((r) => r.method === 'tools/call')) {
    const called = calledTools(byScope, requests);
    if (called) return extended(state, { tools: called });
  }
  if (!requests.some((r) => r.method === 'tools/list')) return extended(state, { tools: byScope });
  return permittedTools(access, connection, byScope).then((tools) => extended(state, { tools }));
}

/** The one-tool list of a single call, one frozen list per catalogue tool rather than one per call. */
const singleLists = new WeakMap<CatalogueTool, readonly CatalogueTool[]>();

function listOf(tool: CatalogueTool): readonly CatalogueTool[] {
  const list = Object.freeze([tool]);
  singleLists.set(tool, list);
  return list;
}

/** The called tools; undefined when one is unknown (then the SDK answers as for any unknown tool, with every tool). */
function calledTools(
  byScope: readonly CatalogueTool[],
  requests: Serving['requests'],
): readonly CatalogueTool[] | undefined {
  if (requests.length === 1) {
    // by name from the catalogue's map, then whether the scopes allow it: a pointer search of
    // the scopes' list instead of a name comparison with each of its tools, on every call
    const name = requests[0]!.params?.name;
    const tool = typeof name === 'string' ? findTool(name) : undefined;
    return tool && byScope.includes(tool) ? (singleLists.get(tool) ?? listOf(tool)) : undefined;
  }
  const names = new Set(requests.map((r) => r.params?.name));
  const called = byScope.filter((t) => names.has(t.declaration.name));
  return called.length === names.size ? called : undefined;
}

/** tools/list: the scopes' tools the person's role may use (every one of them when the ledger cannot say). */
async function permittedTools(
  access: ServeEnv['access'],
  connection: Serving['connection'],
  byScope: readonly CatalogueTool[],
): Promise<readonly CatalogueTool[]> {
  const endpoints = await access.permittedEndpoints(connection);
  return endpoints ? byScope.filter((t) => endpointKeys(t.declaration).some((key) => endpoints.has(key))) : byScope;
}
