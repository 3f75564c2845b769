import { contracts, roleHas, SIDES, type Permission } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { today } from '../../domain/period.ts';
import { collectFiles, transactionBody, documentContext, documentId, optionalBody } from '../arap/index.ts';
import { invoicePdf } from './pdfDocument.ts';
import { listInvoices } from './reads.ts';
import { journalVisible, listWorkstation } from './workstation.ts';
import {
  approveInvoice,
  createCreditNote,
  createInvoice,
  deleteInvoice,
  invoiceById,
  invoiceFile,
  previewInvoice,
  reverseInvoice,
  updateInvoice,
  type InvoiceContext,
} from './service.ts';

/** Invoices with items: `/arap/invoice/{vc}` (rules in docs/invoices.md). */

const invoiceContext = (req: Parameters<typeof documentContext>[0]): InvoiceContext => documentContext(req, 'invoice');
const invoiceId = (req: Parameters<typeof documentId>[0]) => documentId(req, 'invoice');

export const invoiceRoutes = [
  route(
    contracts.createInvoice,
    async (req) => createInvoice(invoiceContext(req), req.body, collectFiles(req, req.body)),
    { prepareBody: transactionBody({ complete: false, listField: 'items' }) },
  ),
  route(
    contracts.updateInvoice,
    async (req) => updateInvoice(invoiceContext(req), invoiceId(req), req.body, collectFiles(req, req.body)),
    { prepareBody: transactionBody({ complete: true, listField: 'items' }) },
  ),
  route(
    contracts.approveInvoice,
    async (req) => approveInvoice(invoiceContext(req), invoiceId(req), req.body, collectFiles(req, req.body)),
    { prepareBody: transactionBody({ complete: true, approve: true, listField: 'items' }) },
  ),
  route(
    contracts.reverseInvoice,
    async (req) => {
      const { id } = await reverseInvoice(invoiceContext(req), invoiceId(req), {
        date: req.body.date ?? today(),
        description: req.body.description,
      });
      return { id };
    },
    { prepareBody: optionalBody },
  ),
  route(contracts.createCreditNote, async (req) => createCreditNote(invoiceContext(req), invoiceId(req), req.body)),
  route(contracts.deleteInvoice, async (req) => {
    await deleteInvoice(invoiceContext(req), invoiceId(req));
    return undefined;
  }),
  route(contracts.previewInvoice, async (req) => {
    // the rolled-back draft's id and number were never the invoice's: a preview has neither
    const { id: _id, invNumber: _number, ...preview } = await previewInvoice(invoiceContext(req), req.body);
    return preview;
  }),
  route(contracts.getInvoice, async (req) => invoiceById(invoiceContext(req), invoiceId(req))),
  route(contracts.downloadInvoiceFile, async (req) => {
    const file = await invoiceFile(
      req.tx,
      req.company.id,
      req.params.vc,
      invoiceId(req),
      idParam(req.params.fileId, 'file'),
    );
    req.ctx.attachment(file.name, { type: 'attachment' });
    req.ctx.type = file.media_type;
    return file.data;
  }),
  route(contracts.getInvoicePdf, async (req) => {
    const { fileName, pdf } = await invoicePdf(invoiceContext(req), invoiceId(req), req.query.language);
    req.ctx.attachment(fileName, { type: 'inline' });
    req.ctx.type = 'application/pdf';
    return pdf;
  }),
  route(contracts.listInvoices, async (req) => listInvoices(req.tx, req.company.id, req.params.vc, req.query, today())),
  route(contracts.listWorkstation, async (req) => {
    // each side only for members who may read its documents
    const readable = SIDES.filter((vc) => roleHas(req.actor.role, `${vc}s.reports.transactions` as Permission));
    const sides = req.query.vc === undefined ? readable : readable.filter((vc) => vc === req.query.vc);
    // journal entries have no side: a side asked for leaves them out
    const journal = req.query.vc === undefined && journalVisible(req.actor);
    const { kind, limit, offset } = req.query;
    return listWorkstation(req.tx, { sides, journal, kind, limit, offset });
  }),
];
