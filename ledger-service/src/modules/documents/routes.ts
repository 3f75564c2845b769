import { contracts } from '@ledger/shared';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { today } from '../../domain/period.ts';
import { documentContext } from '../arap/index.ts';
import { listAnyDocuments, readAnyDocument } from './reads.ts';

/**
 * Documents of both kinds: `/arap/documents/{vc}`, `/arap/document/{vc}/{id}` (docs/invoices.md "Documents of both
 * kinds"), read-only over the transactions' and invoices' read functions; what the MCP tools list_invoices/get_invoice
 * and list_bills/get_bill call.
 */
export const documentRoutes = [
  route(contracts.getDocument, async (req) =>
    readAnyDocument(req.tx, req.company.id, req.params.vc, idParam(req.params.id, `${req.params.vc} document`), {
      transaction: documentContext(req, 'transaction').read,
      invoice: documentContext(req, 'invoice').read,
    }),
  ),
  route(contracts.listDocuments, async (req) =>
    listAnyDocuments(req.tx, req.company.id, req.params.vc, req.query, today()),
  ),
];
