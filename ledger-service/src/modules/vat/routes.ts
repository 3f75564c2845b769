import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { negotiate } from '../../kernel/negotiate.ts';
import { route } from '../../kernel/route.ts';
import {
  figureLines,
  prepareReturn,
  removeReturn,
  settleReturn,
  vatReturn,
  vatReturnForm,
  vatReturnPage,
  vatReturnXml,
} from './service.ts';

/** `/reports/vat/returns` (docs/vat.md): the VAT return as a document. */
export const vatRoutes = [
  route(contracts.prepareVatReturn, async (req) => prepareReturn(req, req.body)),
  route(contracts.listVatReturns, async (req) => vatReturnPage(req, req.query)),
  route(contracts.getVatReturn, async (req) => {
    const id = idParam(req.params.id, 'VAT return');
    // JSON, or the form as PDF, or the eCH-0217 file (Accept; 406 when it allows none)
    const type = negotiate(req.ctx, contracts.getVatReturn);
    if (type === 'application/pdf') {
      const pdf = await vatReturnForm(req, id);
      req.ctx.attachment(`vat-return-${id}.pdf`, { type: 'inline' });
      req.ctx.type = 'application/pdf';
      return pdf;
    }
    if (type === 'application/xml') {
      const xml = await vatReturnXml(req, id);
      req.ctx.attachment(`vat-return-${id}-eCH-0217.xml`, { type: 'attachment' });
      req.ctx.type = 'application/xml; charset=utf-8';
      return xml;
    }
    const read = await vatReturn(req, id);
    return req.query.figure ? { ...read, figure_lines: await figureLines(req, id, req.query.figure) } : read;
  }),
  route(contracts.getVatReturnFigure, async (req) =>
    figureLines(req, idParam(req.params.id, 'VAT return'), String(req.params.figure ?? '').slice(0, 10)),
  ),
  route(contracts.settleVatReturn, async (req) => settleReturn(req, idParam(req.params.id, 'VAT return'), req.body)),
  route(contracts.deleteVatReturn, async (req) => removeReturn(req, idParam(req.params.id, 'VAT return'))),
];
