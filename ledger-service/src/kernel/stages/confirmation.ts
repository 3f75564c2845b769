/**
 * Stage 9, confirmation (writes): the slot where an assistant's write is checked against the
 * confirmation it carries, inside the write's transaction and after its key is claimed, so a
 * confirmation is used once with the write it allows. Today it only hands on: the check is
 * plugged in here, as one call.
 */
import type { Flow, Stage } from './flow.ts';

export const confirmation: Stage = {
  name: 'confirmation',
  appliesTo: (route) => route.contract.method !== 'GET',
  run(flow: Flow): Promise<void> {
    // no check yet: the request goes on unchanged
    return flow.next();
  },
};
