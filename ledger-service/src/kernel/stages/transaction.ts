/**
 * Stage 7, transaction: the rest of the way runs in one tenant transaction of the request's
 * company (db/tenantTransaction.ts: the company and a role that row-level security applies to,
 * set by the message that opens it; a remembered key is checked in the same message,
 * kernel/requestTenant.ts, and when it changed the rest runs again from here). The answer is
 * set inside it: an answer that cannot be made rolls the write back.
 *
 * The transaction is opened closable: nothing follows the stages inside it, and they may run
 * again from here, so a handler's last statement may carry the COMMIT (db/knex.ts
 * `closingQuery`: the new AR/AP document of `POST /arap/transaction/{vc}`, one message less per
 * document) unless a stage inside keeps it open (the idempotent write and the confirmation act
 * after the handler). Such a handler answers from what its closing statement returned (the new
 * id), so nothing that could fail comes after the COMMIT.
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
    }, true);
  },
};
