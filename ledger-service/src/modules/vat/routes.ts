import { contracts } from '@ledger/shared';
import { idParam } from '../../kernel/params.ts';
import { route } from '../../kernel/route.ts';
import { figureLines, prepareReturn, removeReturn, settleReturn, vatReturn, vatReturnPage } from './service.ts';

/** `/reports/vat/returns` (docs/vat.md): the VAT return as a document. */
export const vatRoutes = [
  route(contracts.prepareVatReturn, async (req) => prepareReturn(req, req.body)),
  route(contracts.listVatReturns, async (req) => vatReturnPage(req, req.query)),
  route(contracts.getVatReturn, async (req) => vatReturn(req, idParam(req.params.id, 'VAT return'))),
  route(contracts.getVatReturnFigure, async (req) =>
    figureLines(req, idParam(req.params.id, 'VAT return'), String(req.params.figure ?? '').slice(0, 10)),
  ),
  route(contracts.settleVatReturn, async (req) => settleReturn(req, idParam(req.params.id, 'VAT return'), req.body)),
  route(contracts.deleteVatReturn, async (req) => removeReturn(req, idParam(req.params.id, 'VAT return'))),
];
