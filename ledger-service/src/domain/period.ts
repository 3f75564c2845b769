/**
 * Dates and the closed period, shared by every module that books: what "today" is for the
 * books (the UTC calendar day, the same on every server) and the check that a date lies after
 * the closing date (docs/posting.md, docs/journal.md). Pure: the closing date itself is read and
 * moved by `db/companies.ts` (`closedUntil`, `lockClosingDate`).
 */
import { DomainError } from './errors.ts';

/** Today as yyyy-mm-dd (UTC). */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Refuses (422 `closed_period`) a date on or before the closing date; `field` points at the date in the body. */
export function assertOpenPeriod(date: string, closedUntil: string | null, field = '/invDate'): void {
  if (closedUntil !== null && date <= closedUntil) {
    throw new DomainError(
      'closed_period',
      `The books are closed up to ${closedUntil}; ${date} lies in a closed period.`,
      field,
    );
  }
}

/**
 * The day of a clock set for development and tests (`LEDGER_CLOCK`, an ISO date-time: the
 * recurring-invoice job's and its resume's "now"), else today (UTC).
 */
export function clockToday(clock: string | undefined): string {
  return clock === undefined ? today() : new Date(clock).toISOString().slice(0, 10);
}
