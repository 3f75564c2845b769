import {
  addDays,
  addMonths,
  differenceInCalendarMonths,
  endOfMonth,
  formatISO,
  getQuarter,
  parseISO,
  setDate,
  startOfMonth,
} from 'date-fns';
import { translatorFor, type Language, type RecurringSchedule } from '@ledger/shared';
import { conflict, ruleInvalid } from '../../domain/errors.ts';
import type { RecurringInvoicesRow } from '../../db/tables.ts';

/**
 * The pure rules of recurring invoices (docs/invoices.md "Recurring invoices"): the dates of a
 * schedule, which of them are due, the status a recurring invoice shows, and the period an item
 * text may name. Dates are calendar days (yyyy-mm-dd); the arithmetic is date-fns'.
 *
 * A schedule's dates are counted from the month of its start: the k-th date lies `k × every`
 * units after it, on `day` (or the month's last day), and only dates from `start` to `end`
 * count. Counting each date from the start month, rather than from the date before, keeps
 * "last" on the last day of every month (31 January, 28 February, 31 March, …).
 */

export const UNIT_MONTHS = { month: 1, quarter: 3, half_year: 6, year: 12 } as const;

/** How far the search for the next date looks: the dates of 100 years of monthly invoices. */
const MAX_STEPS = 1200;

const iso = (d: Date) => formatISO(d, { representation: 'date' });

function stepMonths(s: RecurringSchedule): number {
  return s.every * UNIT_MONTHS[s.unit];
}

/** The k-th date of the schedule's pattern (k = 0: in the start's month), before the start/end bounds. */
export function patternDate(s: RecurringSchedule, k: number): string {
  const month = addMonths(startOfMonth(parseISO(s.start)), k * stepMonths(s));
  return iso(s.day === 'last' ? endOfMonth(month) : setDate(month, s.day));
}

/** The first date of the schedule on or after `from` (and on or after its start), or null after its end. */
export function firstDateFrom(s: RecurringSchedule, from: string): string | null {
  const after = from < s.start ? s.start : from;
  const step = stepMonths(s);
  // the pattern date in `after`'s month is at most one step before the one sought
  const k0 = Math.max(0, Math.floor(differenceInCalendarMonths(parseISO(after), parseISO(s.start)) / step) - 1);
  for (let k = k0; k < k0 + MAX_STEPS; k++) {
    const date = patternDate(s, k);
    if (date < after) continue;
    return s.end !== undefined && date > s.end ? null : date;
  }
  return null;
}

/** The date after `date` in the schedule, or null when the schedule ends. */
export function dateAfter(s: RecurringSchedule, date: string): string | null {
  return firstDateFrom(s, iso(addDays(parseISO(date), 1)));
}

/** The next `count` dates from `next` on (fewer when the schedule ends). */
export function upcomingDates(s: RecurringSchedule, next: string | null, count: number): string[] {
  const dates: string[] = [];
  for (let d = next; d !== null && dates.length < count; d = dateAfter(s, d)) dates.push(d);
  return dates;
}

/** A schedule must have a date: an end before its first one is refused. */
export function assertSchedule(s: RecurringSchedule): string {
  if (s.end !== undefined && s.end < s.start)
    throw ruleInvalid(`The schedule's end ${s.end} lies before its start ${s.start}.`, '/schedule/end');
  const first = firstDateFrom(s, s.start);
  if (first === null)
    throw ruleInvalid(`The schedule has no date between ${s.start} and ${s.end ?? '…'}.`, '/schedule/end');
  return first;
}

export type RecurringStatus = 'active' | 'paused' | 'ended';

export function statusOf(row: Pick<RecurringInvoicesRow, 'status' | 'next_date'>): RecurringStatus {
  if (row.next_date === null) return 'ended';
  return row.status;
}

export function assertPausable(id: number, status: RecurringStatus): void {
  if (status === 'ended') throw conflict(`Recurring invoice ${id} has ended; there is nothing to pause.`);
}

export function assertResumable(id: number, status: RecurringStatus): void {
  if (status !== 'paused') throw conflict(`Recurring invoice ${id} is ${status}; only a paused one is resumed.`);
}

/** Whether the date `date` is due on `today`. */
export const isDue = (date: string | null, today: string): date is string => date !== null && date <= today;

/**
 * The period an invoice dated `date` names in its item texts, in the customer's language:
 * `{month}` the month's name ("März", "mars"), `{quarter}` the quarter ("1. Quartal", "Q1"),
 * `{year}` the year.
 */
export function periodValues(date: string, language: Language): Record<'month' | 'quarter' | 'year', string> {
  const day = parseISO(date);
  const month = new Intl.DateTimeFormat(`${language}-CH`, { month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
  const t = translatorFor(language);
  return {
    month,
    quarter: t('document.period.quarterName', { quarter: String(getQuarter(day)) }),
    year: String(day.getFullYear()),
  };
}

/** `{month}`, `{quarter}` and `{year}` in a text replaced by the period's names; other braces stay. */
export function namePeriod(text: string, values: Record<'month' | 'quarter' | 'year', string>): string {
  return text.replace(/\{(month|quarter|year)\}/g, (_, key: 'month' | 'quarter' | 'year') => values[key]);
}
