import { createApiKey, deleteApiKey } from '../../db/apiKeys.ts';
import { recordAudit } from '../../db/audit.ts';
import { closedUntil } from '../../db/companies.ts';
import { authorize } from '../../domain/access.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { reopenFiscalYearsAfter } from '../fiscalYears/service.ts';
import type { ServiceContext } from '../serviceContext.ts';

/** API keys of the company: created for the acting member, audited. */
export async function addApiKey(c: ServiceContext, label: string): ReturnType<typeof createApiKey> {
  const created = await createApiKey(c.tx, c.company.id, c.actor.userId, label);
  await recordAudit(c.tx, c.company.id, c.actor, 'api_key', created.id, 'create', { label: created.label });
  return created;
}

export async function removeApiKey(c: ServiceContext, id: number): Promise<void> {
  if (!(await deleteApiKey(c.tx, c.company.id, id))) throw notFound(`No API key with id ${id}.`);
  await recordAudit(c.tx, c.company.id, c.actor, 'api_key', id, 'delete');
}

/**
 * Books closed up to and including `date`; any write dated on or before it is refused with
 * 422 closed_period. Moving the date forward (or sending the same date) needs
 * `system.close_books` (owner, admin; checked by the contract). Moving it back reopens the
 * days after the new date, which changes periods that may already have been reported: it
 * is refused (409) unless `reopen` is true, which needs `system.reopen_books` (owners
 * only), and it is audited as `reopen_books`.
 */
export async function closeBooks(c: ServiceContext, date: string, reopen: boolean): Promise<{ date: string }> {
  // lock the company row: concurrent closings must see each other's date
  await c.tx('companies').where({ id: c.company.id }).forUpdate().first('id');
  const previous = await closedUntil(c.tx, c.company.id);
  const movesBack = previous !== null && date < previous;
  if (movesBack && !reopen) {
    throw conflict(
      `The books are closed up to ${previous}; closing up to ${date} would reopen the days after it. Send reopen: true to do that (owners only).`,
      '/date',
    );
  }
  if (movesBack) authorize(c.actor, 'system.reopen_books', null);
  await c.tx('companies').where({ id: c.company.id }).update({ closed_until: date });
  // reopening the days after `date` reopens the closed fiscal years among them (their closing entries are reversed)
  const reopenedYears = movesBack ? await reopenFiscalYearsAfter(c, date) : [];
  await recordAudit(c.tx, c.company.id, c.actor, 'company', c.company.id, movesBack ? 'reopen_books' : 'close_books', {
    closed_until: date, previous, ...(reopenedYears.length > 0 ? { reopened_fiscal_years: reopenedYears } : {}),
  });
  return { date };
}
