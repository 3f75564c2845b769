import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { customerInvoiceContext, mailSettings } from '../mail/index.ts';
import {
  createQuote,
  deleteQuote,
  emailQuote,
  invoiceQuote,
  listQuotes,
  quoteById,
  quotePdf,
  setQuoteStatus,
  updateQuote,
} from './service.ts';

/** Quotes to customers: `/arap/quote/customer`, `/arap/quotes/customer` (docs/invoices.md "Quotes"). */

const quoteId = (req: { params: { id: string } }) => idParam(req.params.id, 'quote');

export const quoteRoutes = [
  route(contracts.createQuote, async (req) => createQuote(customerInvoiceContext(req), req.body)),
  route(contracts.getQuote, async (req) => quoteById(customerInvoiceContext(req), quoteId(req))),
  route(contracts.updateQuote, async (req) => updateQuote(customerInvoiceContext(req), quoteId(req), req.body)),
  route(contracts.deleteQuote, async (req) => {
    await deleteQuote(customerInvoiceContext(req), quoteId(req));
    return undefined;
  }),
  route(contracts.listQuotes, async (req) =>
    listQuotes(customerInvoiceContext(req), {
      ...req.query,
      limit: req.query.limit ?? 100,
      offset: req.query.offset ?? 0,
    }),
  ),
  route(contracts.getQuotePdf, async (req) => {
    const { fileName, pdf } = await quotePdf(customerInvoiceContext(req), quoteId(req), req.query.language);
    req.ctx.attachment(fileName, { type: 'inline' });
    req.ctx.type = 'application/pdf';
    return pdf;
  }),
  route(contracts.emailQuote, async (req) => {
    const queued = await emailQuote(customerInvoiceContext(req), mailSettings(req), quoteId(req), req.body);
    return { id: queued.id, message_id: queued.messageId, status: 'queued' as const };
  }),
  route(contracts.setQuoteStatus, async (req) =>
    setQuoteStatus(customerInvoiceContext(req), quoteId(req), req.body.status),
  ),
  route(contracts.invoiceQuote, async (req) =>
    invoiceQuote(customerInvoiceContext(req), quoteId(req), req.body.invDate),
  ),
];
