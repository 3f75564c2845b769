/**
 * Stage 7, transaction: the rest of the way runs in one tenant transaction of the request's
 * company (db/tenantTransaction.ts: the company and a role that row-level security applies to,
 * set by the message that opens it; a remembered key is checked in the same message,
 * kernel/requestTenant.ts, and when it changed the rest runs again from here). The answer is
 * set inside it: an answer that cannot be made rolls the write back.
 */
import type { Tx } from '../../db/knex.ts';
import type { Flow, Stage } from './flow.ts';

export const transaction: Stage = {
  name: 'transaction',
  appliesTo: () => true,
  run(flow: Flow): Promise<void> {
    // the rest may run twice: again from here when the remembered key changed (requestTenant.ts)
    const mark = flow.mark();
    return flow.tenant.transaction((tx: Tx) => {
      flow.resume(mark);
      flow.tx = tx;
      return flow.next();
    });
  },
};
