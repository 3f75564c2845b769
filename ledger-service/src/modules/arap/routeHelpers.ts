/** What the routes of AR/AP documents (transactions and invoices) take from a request alike. */
import type { Side } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import type { RouteRequest } from '../../kernel/route.ts';
import type { WriteContext } from './service.ts';

type SideRequest = Pick<RouteRequest, 'ctx' | 'tx' | 'company' | 'actor'> & { params: { vc: Side } };

/**
 * The workflow context of one request; `resource` is the path segment files are served
 * under (`transaction` or `invoice`), so read shapes carry absolute file URLs.
 */
export function documentContext(req: SideRequest, resource: 'transaction' | 'invoice'): Omit<WriteContext, 'kind'> {
  const { vc } = req.params;
  return {
    tx: req.tx,
    company: req.company,
    actor: req.actor,
    vc,
    read: {
      fileUrlBase: `${req.ctx.protocol}://${req.ctx.host}/client/${req.company.dataset}/arap/${resource}/${vc}`,
      baseCurrency: req.company.base_currency,
    },
  };
}

/** The document id of the path; the noun names it in the 404 (`vendor invoice 7`). */
export function documentId(req: { params: { vc: Side; id: string } }, noun: 'transaction' | 'invoice'): number {
  return idParam(req.params.id, `${req.params.vc} ${noun}`);
}

/** reverse takes an optional body: none at all means {} */
export const optionalBody = (ctx: RouteRequest['ctx']) =>
  ctx.request.body === undefined || ctx.request.body === null || ctx.request.body === '' ? {} : ctx.request.body;
