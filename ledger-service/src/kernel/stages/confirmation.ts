/**
 * Stage 9, confirmation (an assistant's writes that post, pay, send or delete): the write
 * stands only with the person's confirmation (kernel/confirmation.ts). It wraps the handler:
 * the write runs with the posting's own rules inside the transaction and after its key is
 * claimed, then the confirmation it carries is checked and used up in that same transaction —
 * single use with the write it allows. Without a valid one the transaction rolls back and the
 * answer is 428 with the ledger's preview and a new confirmation. Routes without a declared
 * effect never pass this stage (decided at mount time).
 */
import { keepOpen } from '../../db/knex.ts';
import type { Flow, Stage } from './flow.ts';

export const confirmation: Stage = {
  name: 'confirmation',
  appliesTo: (route) =>
    route.contract.method !== 'GET' && route.contract.effect !== undefined && route.contract.effect !== 'none',
  run(flow: Flow): Promise<void> {
    const { ctx, served } = flow;
    const checked = served.shared.confirmations.guard(ctx, served.contract, flow.tenant.now(), flow.handle);
    // the confirmation is checked and used up after the handler: its statements may not commit the transaction
    if (checked !== flow.handle) keepOpen(flow.tx);
    flow.handle = checked;
    return flow.next();
  },
};
