/**
 * Stage 6, company turn (writes only): the write waits for one of its company's turns
 * (kernel/companyTurns.ts) before it takes a connection; a read never waits. One call, so what
 * the turns learn (deadlines, a client gone, byte bounds) stays in companyTurns.ts.
 */
import { turnWaitOf } from '../companyTurns.ts';
import type { Flow, Stage } from './flow.ts';

export const companyTurn: Stage = {
  name: 'company turn',
  appliesTo: (route) => route.contract.method !== 'GET',
  run(flow: Flow): Promise<void> {
    // the wait is bounded: a deadline, the client going away, the bytes the company holds waiting
    return flow.served.shared.turns.take(flow.tenant.company.id, () => flow.next(), turnWaitOf(flow.ctx));
  },
};
