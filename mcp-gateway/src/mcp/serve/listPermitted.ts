/** Serving stage: resource lists show what the person's role may read, as tools/list does (access.ts). */
import type { ServeEnv, Serving } from './state.ts';

export async function listPermitted({ access }: ServeEnv, state: Serving): Promise<Serving> {
  if (!state.requests.some((r) => r.method === 'resources/list' || r.method === 'resources/templates/list'))
    return state;
  return { ...state, permitted: await access.permittedEndpoints(state.connection) };
}
