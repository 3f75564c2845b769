/**
 * Stage 1, admission: what every request of a route establishes before anything is read or
 * opened. The route label of the metrics, the file-answer headers of a download (set first, so
 * refusals carry them too), the side written out as `:vc`, a malformed Idempotency-Key refused
 * on every POST alike, the company and actor authorized for the contract (401/403; a
 * remembered key is read again before a refusal is final, requestTenant.ts), and the body's
 * media type (415).
 */
import { assertBodyType } from '../body.ts';
import { idempotencyKeyOf } from '../idempotency.ts';
import { RequestTenant } from '../requestTenant.ts';
import type { Flow, Stage } from './flow.ts';

/**
 * Files sent back (documents, attachments, invoice PDFs, reports, payment files) are bytes a
 * client uploaded or the ledger made: a browser must take them for what their media type
 * says (never sniff HTML in a text file) and never run them as a page of this origin (an
 * SVG or HTML attachment with a script): `sandbox` gives them an opaque origin, without
 * scripts, forms or plugins, whatever their type. Set before the handler, so refusals
 * carry them too.
 */
export const FILE_ANSWER_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
} as const;

export const admission: Stage = {
  name: 'admission',
  appliesTo: () => true,
  async run(flow: Flow): Promise<void> {
    const { ctx, served } = flow;
    const { contract, side } = served;
    if (contract.download) ctx.set(FILE_ANSWER_HEADERS);
    // the route label of the request metrics: the contract, not the path with its ids
    ctx.state.route = contract.name;
    // the side is written out in the mounted path; handlers and prepareBody read it as :vc
    if (side) ctx.params = { ...ctx.params, vc: side };
    const { dataset: _dataset, ...params } = ctx.params as Record<string, string>;
    flow.params = params;
    // a malformed Idempotency-Key is refused first, on every POST alike
    if (contract.method === 'POST') idempotencyKeyOf(ctx);
    flow.tenant = new RequestTenant(ctx, served.db, served.permission, contract.scope);
    await flow.tenant.authorize();
    assertBodyType(ctx, contract);
    return flow.next();
  },
};
