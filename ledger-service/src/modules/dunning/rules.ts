/**
 * The pure rules of dunning runs (docs/invoices.md "Dunning runs"): the level an overdue
 * invoice reaches on a day, one step at a time, and the reminder's new due date.
 */
import { addDays, differenceInCalendarDays, formatISO, parseISO } from 'date-fns';

export interface DunningLevel {
  days: number;
  fee: number;
}

/** Whole days from the due date to `date`. */
export function daysOverdue(dueDate: string, date: string): number {
  return differenceInCalendarDays(parseISO(date), parseISO(dueDate));
}

/**
 * The next level (current + 1) when it is configured and its days after the due date have passed; null otherwise. One
 * level per run: an invoice found late gets its first reminder first, not the last.
 */
export function nextLevel(days: number, current: number, levels: readonly DunningLevel[]): number | null {
  const next = current + 1;
  const level = levels[next - 1];
  return level && days >= level.days ? next : null;
}

/** The new due date a reminder names: ten days after the run. */
export const REMINDER_TERM_DAYS = 10;
export function reminderDueDate(date: string): string {
  return formatISO(addDays(parseISO(date), REMINDER_TERM_DAYS), { representation: 'date' });
}
