/**
 * Stage 5, validation: the body and the query against the contract's schemas for the side
 * (400 with field pointers, kernel/validate.ts), and the media type of a file sent as the body.
 * Nothing waits for a turn or opens a transaction before this.
 */
import { textBodyType } from '../body.ts';
import { validateBody, validateQuery } from '../validate.ts';
import type { Flow, Stage } from './flow.ts';

export const validation: Stage = {
  name: 'validation',
  appliesTo: () => true,
  run(flow: Flow): Promise<void> {
    const { ctx, served } = flow;
    const raw = served.route.prepareBody ? flow.raw : ctx.request.body;
    flow.body = served.bodySchema ? validateBody(served.bodySchema, raw) : raw;
    flow.bodyType = textBodyType(ctx);
    flow.query = served.querySchema
      ? validateQuery(served.querySchema, ctx.query as Record<string, unknown>)
      : ctx.query;
    return flow.next();
  },
};
