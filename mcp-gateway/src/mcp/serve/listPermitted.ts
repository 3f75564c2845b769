/** Serving stage: resource lists show what the person's role may read, as tools/list does (access.ts). */
import type { Maybe } from '../maybe.ts';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export function listPermitted({ access }: ServeEnv, state: Serving): Maybe<Serving> {
  if (!state.requests.some((r) => r.method === 'resources/list' || r.method === 'resources/templates/list'))
    return state;
  return access.permittedEndpoints(state.connection).then((permitted) => extended(state, { permitted }));
}
