/**
 * Serving stage: the request's connection check (connectionCheck.ts), pending when admission
 * left it to the request's own ledger REST call.
 */
import type { ServerResponse } from 'node:http';
import type { Admitted } from '../steps.ts';
import { ConnectionCheck } from './connectionCheck.ts';
import type { ServeEnv, Serving } from './state.ts';
import { extended } from '../pipeline.ts';

export interface Incoming extends Admitted {
  res: ServerResponse;
}

export function trackConnection({ deps }: ServeEnv, state: Incoming): Omit<Serving, 'tools'> {
  return extended(state, { check: new ConnectionCheck(deps, state.connection, state.deferred) });
}
