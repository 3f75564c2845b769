import { contracts } from '@ledger/shared';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../transactions/ruleContext.ts';
import { ApiError } from '../../kernel/errors.ts';
import { authorize, route } from '../../kernel/route.ts';

/**
 * `GET/POST /system/close_books`: books closed up to and including `date`; any write dated
 * on or before it is refused with 422 closed_period. Moving the date forward (or sending
 * the same date) needs `system.close_books` (owner, admin). Moving it back reopens the days
 * after the new date, which changes periods that may already have been reported: it is
 * refused (409) unless the body says `reopen: true`, which needs `system.reopen_books`
 * (owners only), and it is audited as `reopen_books`.
 */
export const closeBooksRoutes = [
  route(contracts.getClosingDate, async (req) => ({ date: await closedUntil(req.tx, req.company.id) })),
  route(contracts.closeBooks, async (req) => {
    const { date, reopen = false } = req.body;
    // lock the company row: concurrent closings must see each other's date
    await req.tx('companies').where({ id: req.company.id }).forUpdate().first('id');
    const previous = await closedUntil(req.tx, req.company.id);
    const movesBack = previous !== null && date < previous;
    if (movesBack && !reopen) {
      throw new ApiError(
        'conflict',
        `The books are closed up to ${previous}; closing up to ${date} would reopen the days after it. Send reopen: true to do that (owners only).`,
        '/date',
      );
    }
    if (movesBack) authorize(req.actor, 'system.reopen_books', null);
    await req.tx('companies').where({ id: req.company.id }).update({ closed_until: date });
    await recordAudit(req.tx, req.company.id, req.actor, 'company', req.company.id, movesBack ? 'reopen_books' : 'close_books', {
      closed_until: date, previous,
    });
    return { date };
  }),
];
