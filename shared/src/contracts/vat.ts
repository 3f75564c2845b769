/**
 * The Swiss VAT return as a document (docs/vat.md): prepared for one of the company's VAT
 * periods with its figures frozen, read with the ledger lines behind each figure, settled by
 * one journal entry, after which the period is locked for VAT-relevant postings.
 */
import { pageQuerySchema } from '../schemas/index.ts';
import {
  vatFigureLinesSchema,
  vatReturnCreateSchema,
  vatReturnQuerySchema,
  vatReturnSchema,
  vatSettledSchema,
  vatSettleSchema,
} from '../schemas/vat.ts';
import { contract } from './contract.ts';
import { examples } from './examples.ts';

export const prepareVatReturn = contract({
  name: 'prepareVatReturn',
  method: 'POST',
  path: '/reports/vat/returns',
  summary: 'Prepare a VAT return for one period',
  description:
    "Compute and freeze the VAT return of one of the company's VAT periods (vat_period; other bounds → 400 " +
    'naming the expected ones) by its vat_method. type correction: the differences against the original of the ' +
    'period. A second original of a period → 409',
  example: examples.prepareVatReturn,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'none',
  body: vatReturnCreateSchema,
  status: 201,
  location: '/reports/vat/returns/{id}',
  response: vatReturnSchema,
  errors: ['conflict'],
});

export const listVatReturns = contract({
  name: 'listVatReturns',
  method: 'GET',
  path: '/reports/vat/returns',
  summary: 'List VAT returns',
  description: 'The VAT returns, newest period first',
  example: examples.listVatReturns,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: pageQuerySchema,
  response: { type: 'array', items: vatReturnSchema },
  list: true,
  errors: [],
});

export const getVatReturn = contract({
  name: 'getVatReturn',
  method: 'GET',
  path: '/reports/vat/returns/:id',
  summary: 'Read a VAT return',
  description:
    'One VAT return with its frozen figures, the amount payable and its settlement; with ?figure= also the lines ' +
    'behind that figure (figure_lines). Accept: application/pdf for the return laid out like the ESTV form (wording ' +
    "in the company's language), application/xml for the eCH-0217 v2.0.0 VATDeclaration file the ESTV portal " +
    "takes (needs the company's UID as vat_number, else 409)",
  example: examples.getVatReturn,
  permission: 'reports.reports',
  scope: 'accounting:read',
  query: vatReturnQuerySchema,
  response: vatReturnSchema,
  download: ['application/pdf', 'application/xml'],
  errors: ['conflict', 'not_acceptable'],
});

export const getVatReturnFigure = contract({
  name: 'getVatReturnFigure',
  method: 'GET',
  path: '/reports/vat/returns/:id/figures/:figure',
  summary: 'The ledger lines behind one figure of a VAT return',
  description:
    'Every document or journal entry behind one figure of the return (kind, id, number, date, base, tax); the lines ' +
    'sum to the figure exactly. A figure the return does not have → 404',
  example: examples.getVatReturnFigure,
  permission: 'reports.reports',
  scope: 'accounting:read',
  response: vatFigureLinesSchema,
  errors: [],
});

export const settleVatReturn = contract({
  name: 'settleVatReturn',
  method: 'POST',
  path: '/reports/vat/returns/:id/settle',
  summary: 'Settle a VAT return',
  description:
    "Post one journal entry that clears the period's output and input tax to the company's vat_payable_account (net " +
    'tax method: the owed tax to it, the difference to net_tax_difference_account); the return becomes settled and ' +
    'its period is locked for VAT postings (422 vat_period_filed). Settling twice → 409',
  example: examples.settleVatReturn,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'posts',
  body: vatSettleSchema,
  response: vatSettledSchema,
  errors: ['conflict', 'closed_period'],
});

export const deleteVatReturn = contract({
  name: 'deleteVatReturn',
  method: 'DELETE',
  path: '/reports/vat/returns/:id',
  summary: 'Delete a draft VAT return',
  description: 'Delete a VAT return that is not settled (a settled one → 409)',
  example: examples.deleteVatReturn,
  permission: 'gl.add_journal_entry',
  scope: 'accounting:write',
  effect: 'deletes',
  status: 204,
  errors: ['conflict'],
});
