import { contracts } from '@ledger/shared';
import type { LedgerConfig } from '../../config.ts';
import { route } from '../../kernel/route.ts';
import { idParam } from '../../kernel/params.ts';
import { clockToday } from '../../domain/period.ts';
import { customerInvoiceContext } from '../mail/index.ts';
import {
  createRecurring,
  deleteRecurring,
  listRecurring,
  pauseRecurring,
  previewRecurring,
  recurringById,
  resumeRecurring,
  updateRecurring,
} from './service.ts';

/** Recurring invoices: `/arap/recurring/customer` (docs/invoices.md "Recurring invoices"). */

const recurringId = (req: { params: { id: string } }) => idParam(req.params.id, 'recurring invoice');

export const recurringRoutes = [
  route(contracts.createRecurring, async (req) => createRecurring(customerInvoiceContext(req), req.body)),
  route(contracts.getRecurring, async (req) => recurringById(customerInvoiceContext(req), recurringId(req))),
  route(contracts.updateRecurring, async (req) =>
    updateRecurring(customerInvoiceContext(req), recurringId(req), req.body),
  ),
  route(contracts.deleteRecurring, async (req) => {
    await deleteRecurring(customerInvoiceContext(req), recurringId(req));
    return undefined;
  }),
  route(contracts.listRecurring, async (req) =>
    listRecurring(customerInvoiceContext(req), {
      ...req.query,
      limit: req.query.limit ?? 100,
      offset: req.query.offset ?? 0,
    }),
  ),
  route(contracts.pauseRecurring, async (req) => pauseRecurring(customerInvoiceContext(req), recurringId(req))),
  route(contracts.resumeRecurring, async (req) =>
    resumeRecurring(customerInvoiceContext(req), recurringId(req), clockToday((req.ctx.config as LedgerConfig).clock)),
  ),
  route(contracts.previewRecurring, async (req) =>
    previewRecurring(customerInvoiceContext(req), recurringId(req), req.query.count ?? 12),
  ),
];
