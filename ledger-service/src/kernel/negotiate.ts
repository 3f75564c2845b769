import type { Context } from 'koa';
import type { Contract } from '@ledger/shared';
import { DomainError } from '../domain/errors.ts';

/**
 * Content negotiation for endpoints that answer JSON and, on request, the same data as a
 * file (`response` and `download` in the contract, e.g. the reports): the media type the
 * request's Accept prefers, JSON when it names none or accepts anything (the first of the
 * candidates wins ties, as in Koa's `ctx.accepts`). An Accept that allows none of them is
 * refused with 406 not_acceptable before any work is done, rather than answered with a
 * representation the client said it cannot take (RFC 9110 §12.5.1 allows either).
 */
export function negotiate(ctx: Context, contract: Pick<Contract, 'name' | 'download' | 'response'>): string {
  const candidates = [...(contract.response ? ['application/json'] : []), ...(contract.download ?? [])];
  const chosen = ctx.accepts(candidates);
  if (typeof chosen === 'string') return chosen;
  throw new DomainError(
    'not_acceptable',
    `This endpoint answers ${candidates.join(', ')}; the Accept header (${ctx.get('Accept')}) allows none of them.`,
  );
}
