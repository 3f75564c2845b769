/**
 * Stage 7, transaction: the rest of the way runs in one tenant transaction of the request's
 * company (db/tenantTransaction.ts: the company and a role that row-level security applies to,
 * set by its first statement; a remembered key is checked in the same message,
 * kernel/requestTenant.ts). The answer is set inside it: an answer that cannot be made rolls
 * the write back.
 */
import type { Tx } from '../../db/knex.ts';
import type { Flow, Stage } from './flow.ts';

export const transaction: Stage = {
  name: 'transaction',
  appliesTo: () => true,
  run(flow: Flow): Promise<void> {
    return flow.tenant.transaction((tx: Tx) => {
      flow.tx = tx;
      return flow.next();
    });
  },
};
