import { addDays, addMonths, differenceInCalendarMonths, formatISO, lastDayOfMonth, parseISO } from 'date-fns';
import { ruleInvalid } from './errors.ts';

/**
 * A company's fiscal years (docs/year-end.md "Fiscal years"): every year starts on the first of
 * the month `fiscal_year_start` names (`MM-01`, default `01-01`: calendar years) and lasts 12
 * months, except the first, which ends on `first_fiscal_year_end` when that is set (a founding
 * year shorter or longer than 12 months, at most 23) and begins with the books (the first of the
 * month of the first posted line). A year is numbered by the calendar year it ends in: the year
 * July 2026 – June 2027 is 2027. Pure: the settings and the first line's date come from the
 * caller. VAT periods do not follow it (they are calendar periods, docs/vat.md).
 */
export interface FiscalCalendar {
  /** 1–12: the month every fiscal year after the first starts in */
  startMonth: number;
  /** the last day of the first fiscal year, or null (the first year is a regular one) */
  firstEnd: string | null;
}

export interface FiscalYearSpan {
  year: number;
  start: string;
  end: string;
}

export const MAX_FIRST_YEAR_MONTHS = 23;
export const FISCAL_YEAR_START_PATTERN = /^(0[1-9]|1[0-2])-01$/;

const iso = (d: Date) => formatISO(d, { representation: 'date' });
const yearOf = (date: string) => Number(date.slice(0, 4));
const monthOf = (date: string) => Number(date.slice(5, 7));

/**
 * The calendar kept in the company's settings (`fiscal_year_start`, `first_fiscal_year_end`); calendar years when
 * unset.
 */
export function fiscalCalendarOf(settings: Record<string, unknown>): FiscalCalendar {
  const start = settings.fiscal_year_start;
  const firstEnd = settings.first_fiscal_year_end;
  return {
    startMonth: typeof start === 'string' && FISCAL_YEAR_START_PATTERN.test(start) ? Number(start.slice(0, 2)) : 1,
    firstEnd: typeof firstEnd === 'string' ? firstEnd : null,
  };
}

/** `MM-01` of a calendar. */
export const fiscalYearStartText = (cal: FiscalCalendar) => `${String(cal.startMonth).padStart(2, '0')}-01`;

/** The regular (12-month) fiscal year numbered `year`: it ends in calendar year `year`. */
export function regularYear(cal: FiscalCalendar, year: number): FiscalYearSpan {
  const y = String(year).padStart(4, '0');
  const end =
    cal.startMonth === 1
      ? `${y}-12-31`
      : iso(lastDayOfMonth(parseISO(`${y}-${String(cal.startMonth - 1).padStart(2, '0')}-01`)));
  const start = iso(addMonths(parseISO(iso(addDays(parseISO(end), 1))), -12));
  return { year, start, end };
}

/** The number of the fiscal year a date falls in. */
export function fiscalYearNumberOf(cal: FiscalCalendar, date: string): number {
  if (cal.firstEnd !== null && date <= cal.firstEnd) return yearOf(cal.firstEnd);
  if (cal.startMonth === 1) return yearOf(date);
  return monthOf(date) >= cal.startMonth ? yearOf(date) + 1 : yearOf(date);
}

/** Where the first year begins: with the first posted line's month, else (no lines yet) 12 months before its end. */
function firstYearStart(firstEnd: string, firstLine: string | null): string {
  if (firstLine !== null && firstLine <= firstEnd) return `${firstLine.slice(0, 7)}-01`;
  return iso(addMonths(parseISO(iso(addDays(parseISO(firstEnd), 1))), -12));
}

/** The fiscal year numbered `year`, or null when there is none (before the first year). */
export function fiscalYearNumbered(cal: FiscalCalendar, year: number, firstLine: string | null): FiscalYearSpan | null {
  if (cal.firstEnd === null) return regularYear(cal, year);
  const firstYear = yearOf(cal.firstEnd);
  if (year < firstYear) return null;
  if (year === firstYear) return { year, start: firstYearStart(cal.firstEnd, firstLine), end: cal.firstEnd };
  return regularYear(cal, year);
}

/** The fiscal year a date falls in. */
export function fiscalYearOf(cal: FiscalCalendar, date: string, firstLine: string | null): FiscalYearSpan {
  // a date always falls in a year: before the first year's end it is the first year
  return fiscalYearNumbered(cal, fiscalYearNumberOf(cal, date), firstLine)!;
}

/** Whole months of a span (the first year's length; a regular year is 12). */
export const monthsOf = (span: { start: string; end: string }) =>
  differenceInCalendarMonths(addDays(parseISO(span.end), 1), parseISO(span.start));

/**
 * The settings' rules: `first_fiscal_year_end` is the last day of the month before the start
 * month (so the next year starts on `fiscal_year_start`), and the first year, from the books'
 * first line (or 12 months before its end), lasts at most 23 months. 400 naming the field.
 */
export function checkFiscalCalendar(cal: FiscalCalendar, firstLine: string | null): void {
  if (cal.firstEnd === null) return;
  const end = parseISO(cal.firstEnd);
  const next = addDays(end, 1);
  if (next.getDate() !== 1 || next.getMonth() + 1 !== cal.startMonth) {
    throw ruleInvalid(
      `first_fiscal_year_end (${cal.firstEnd}) must be the last day of the month before the fiscal year's start ` +
        `(${fiscalYearStartText(cal)}), so the next year starts on that day.`,
      '/first_fiscal_year_end',
    );
  }
  const first = fiscalYearNumbered(cal, yearOf(cal.firstEnd), firstLine)!;
  const months = monthsOf(first);
  if (months > MAX_FIRST_YEAR_MONTHS) {
    throw ruleInvalid(
      `The first fiscal year would run from ${first.start} (the first posted line) to ${first.end}: ${months} ` +
        `months, more than ${MAX_FIRST_YEAR_MONTHS}.`,
      '/first_fiscal_year_end',
    );
  }
}
