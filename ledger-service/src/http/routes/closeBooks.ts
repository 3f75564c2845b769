import { closeBooksSchema } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/transactionContext.ts';
import type { RouteDef, RouteRequest } from '../route.ts';

/**
 * `POST /system/close_books {date}`: books closed up to and including `date`; any write
 * dated on or before it is refused with 422 closed_period. A date earlier than the
 * current one reopens the period after it. Owner and admin only; audited.
 */
export const closeBooksRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/system/close_books',
    summary: 'Close the books up to and including a date (writes dated on or before it → 422 closed_period)',
    body: closeBooksSchema,
    response: { type: 'object', properties: { closed_until: { type: 'string', format: 'date' } } },
    handler: async (req: RouteRequest<{ date: string }>) => {
      const previous = await closedUntil(req.tx, req.company.id);
      await req.tx('companies').where({ id: req.company.id }).update({ closed_until: req.body.date });
      await recordAudit(req.tx, req.company.id, req.actor, 'company', req.company.id, 'close_books', { closed_until: req.body.date, previous });
      return { closed_until: req.body.date };
    },
  },
];
