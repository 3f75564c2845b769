/**
 * Stage 8, idempotent write (POST with an Idempotency-Key): the key row is claimed in the
 * request's transaction; a new key runs the rest in a savepoint and keeps its answer with the
 * write, a repeat finds the kept answer instead (answered by the idempotency stage once the
 * transaction has ended). kernel/idempotency.ts has the rules.
 */
import { keepOpen, type Tx } from '../../db/knex.ts';
import type { Flow, Stage } from './flow.ts';

export const idempotentWrite: Stage = {
  name: 'idempotent write',
  appliesTo: (route) => route.contract.method === 'POST',
  async run(flow: Flow): Promise<void> {
    const keyed = flow.keyed;
    if (!keyed) return flow.next();
    // the key's answer is kept after the handler, in the same transaction
    keepOpen(flow.tx);
    const { keys } = flow.served.shared;
    const outcome = await keys.run(flow.tx, flow.ctx, flow.tenant.company.id, keyed, (sp: Tx) => {
      flow.tx = sp;
      return flow.next();
    });
    if (!('ran' in outcome)) flow.outcome = outcome;
  },
};
