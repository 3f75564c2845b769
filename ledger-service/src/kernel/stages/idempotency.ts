/**
 * Stage 2, idempotency (POST only): the request's Idempotency-Key and fingerprint, taken
 * before prepareBody, which may consume the uploaded files. A file body (multipart, or a file
 * sent as the body) that repeats a kept request is answered from the kept answer before it
 * is read again: reading may be costly (a statement file, uploads); a JSON body is cheap to
 * read, and the idempotent write decides in the write's own transaction. After the rest of
 * the way, once the transaction has ended, a replay or a kept refusal the idempotent write
 * found is answered here (kernel/idempotency.ts).
 */
import { textBodyType } from '../body.ts';
import { IdempotencyKeys, keyedRequest } from '../idempotency.ts';
import { isMultipart } from '../multipart.ts';
import type { Flow, Stage } from './flow.ts';

export const idempotency: Stage = {
  name: 'idempotency',
  appliesTo: (route) => route.contract.method === 'POST',
  async run(flow: Flow): Promise<void> {
    const { ctx, served } = flow;
    const keyed = await keyedRequest(ctx, flow.tenant.actor);
    if (!keyed) return flow.next();
    flow.keyed = keyed;
    if (served.route.prepareBody && (isMultipart(ctx) || textBodyType(ctx) !== undefined)) {
      const { keys } = served.shared;
      const kept = await flow.tenant.transaction((tx) => keys.peek(tx, flow.tenant.company.id, keyed));
      if (kept) return IdempotencyKeys.replay(ctx, kept);
    }
    await flow.next();
    const outcome = flow.outcome;
    if (outcome === undefined) return;
    if ('replay' in outcome) IdempotencyKeys.replay(ctx, outcome.replay);
    else if ('refusal' in outcome) throw outcome.refusal;
  },
};
