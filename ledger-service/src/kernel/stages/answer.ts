/**
 * Stage 10, answer: the handler runs, and its result becomes the answer — list headers
 * (X-Total-Count, Link), a conditional GET's 304, the body, the contract's success status and
 * a 201's Location. It runs inside the transaction (and a keyed write's savepoint, so the
 * answer is kept with the write).
 */
import type { Context } from 'koa';
import type { Contract } from '@ledger/shared';
import type { ListPage } from '../../db/listOrder.ts';
import { conditional } from '../caching.ts';
import type { Flow, Stage } from './flow.ts';

export const answerStage: Stage = {
  name: 'answer',
  appliesTo: () => true,
  async run(flow: Flow): Promise<void> {
    const { ctx, served } = flow;
    const result = await flow.handle(flow.tx);
    answer(ctx, served.contract, result, flow.query);
  },
};

/** Sets a handler's result as the answer: list headers, conditional GET, body and success status. */
function answer(ctx: Context, contract: Contract, result: unknown, query: unknown): void {
  if (contract.list) {
    const page = result as ListPage<unknown>;
    listHeaders(ctx, page, query as Record<string, unknown>);
    result = page.rows;
  }
  if (contract.cacheable) result = conditional(ctx, result);
  if (result !== undefined) {
    ctx.body = result;
    if (contract.status) ctx.status = contract.status;
    if (contract.location && ctx.status === 201) ctx.set('Location', createdUrl(ctx, contract.location, result));
  } else if (ctx.body === undefined) ctx.status = 204;
}

/**
 * The absolute URL of what a 201 created: the contract's `location` with `:name` taken from
 * the request's path parameters and `{field}` from the answer, under the request's public
 * origin and dataset (behind the gateway its X-Forwarded-Host/-Proto, as for list links).
 */
export function createdUrl(ctx: Context, template: string, result: unknown): string {
  const params = ctx.params as Record<string, string>;
  const answer = (result ?? {}) as Record<string, unknown>;
  const path = template
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(required(params[name], `path parameter :${name}`)))
    .replace(/\{(\w+)\}/g, (_, field: string) =>
      encodeURIComponent(String(required(answer[field], `answer field ${field}`))),
    );
  return `${ctx.protocol}://${ctx.host}/client/${encodeURIComponent(params.dataset ?? '')}${path}`;
}

function required<T>(value: T | undefined | null, what: string): T {
  // a handler whose answer lacks the new id is a bug, not something to hide behind a missing header
  if (value === undefined || value === null) throw new Error(`Location: no ${what}`);
  return value;
}

/**
 * X-Total-Count and Link for one page of a list (RFC 8288). The URLs are absolute, built
 * from the request's public protocol and host (the app trusts X-Forwarded-Host/-Proto from the
 * gateway) and its own query string with only `offset` changed, so filters, `limit` and
 * `sort` carry over. next: while rows remain after this page; prev: unless this is the first.
 */
export function listHeaders(ctx: Context, page: ListPage<unknown>, query: Record<string, unknown>): void {
  ctx.set('X-Total-Count', String(page.total));
  const limit = typeof query.limit === 'number' ? query.limit : undefined;
  const offset = typeof query.offset === 'number' ? query.offset : 0;
  if (limit === undefined) return;
  const at = (o: number) => {
    const params = new URLSearchParams(ctx.querystring);
    params.set('offset', String(o));
    // ctx.protocol/ctx.host, not ctx.origin: in Koa 3 that is the request's Origin header
    return `<${ctx.protocol}://${ctx.host}${ctx.path}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (offset + limit < page.total) links.push(`${at(offset + limit)}; rel="next"`);
  if (offset > 0) links.push(`${at(Math.max(0, Math.min(offset - limit, page.total - limit)))}; rel="prev"`);
  if (links.length > 0) ctx.set('Link', links.join(', '));
}
