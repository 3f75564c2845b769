import type { Context } from 'koa';
import { MAX_BATCH_DOCUMENTS, type BatchProblem } from '@ledger/shared';
import { BatchRefused } from '../domain/errors.ts';
import { ApiError } from './errors.ts';
import { validateBody } from './validate.ts';

/**
 * The body of a batch endpoint (docs/batches.md), read before the kernel validates it against
 * the contract: each document is checked on its own against the single document's schema, so a
 * refusal names every bad document (its index, and the field inside it) instead of stopping at
 * the first, as one schema over the whole body would. A body that is not `{ transactions: [1 to
 * 1,000 items] }` is left to the contract's own validation (one error, as for any endpoint).
 */
export function batchBody(itemSchema: object, field = 'transactions') {
  return (ctx: Context): unknown => {
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const docs = body && typeof body === 'object' && !Array.isArray(body) ? body[field] : undefined;
    if (!Array.isArray(docs) || docs.length === 0 || docs.length > MAX_BATCH_DOCUMENTS) return body;
    const problems: BatchProblem[] = [];
    docs.forEach((doc, index) => {
      try {
        validateBody(itemSchema, doc);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const message =
          err.message === 'The request body must be a JSON object.'
            ? 'Each document must be a JSON object.'
            : err.message;
        problems.push({ index, field: err.field ?? '', code: err.code, message });
      }
    });
    if (problems.length > 0) throw new BatchRefused(problems);
    return body;
  };
}
