import type { Decimal } from 'decimal.js';
import { decimalPlaces, minorUnits, Money, roundTo } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The depreciation of a fixed asset (docs/year-end.md "Fixed assets"), pure and exact.
 *
 * Depreciation is booked per period of the asset's frequency (calendar months, or the quarters
 * and years of the company's fiscal year: a year starting in July has quarters ending in September,
 * December, March and June); the first period starts with the month of acquisition and counts its months from
 * there. A period is due once a run's date reaches its last day.
 *
 * - linear: after M months, round((cost − residual) × M / life_months), at most cost − residual;
 *   a period books the growth of that figure, so rounding never accumulates;
 * - declining: a period books round(book value at its start × rate × its months / 12), never
 *   below the residual value (10,000.00 at 40 % a year: 4,000.00, 2,400.00, 1,440.00).
 *
 * The amount due to a date is what these periods add up to, less what posted runs booked.
 */

export type Method = 'linear' | 'declining';
export type Frequency = 'month' | 'quarter' | 'year';

export interface AssetTerms {
  acquired: string;
  cost: Decimal;
  residual: Decimal;
  method: Method;
  lifeMonths: number | null;
  rate: Decimal | null;
  frequency: Frequency;
  /** 1–12: the month the company's fiscal years start in (quarters and years are counted from it) */
  yearStartMonth: number;
}

/** Months counted from year 0: 2026-03 → 2026 × 12 + 2. */
const monthOf = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

function lastDayOf(month: number): string {
  const year = Math.floor(month / 12);
  const m = month % 12;
  const last = new Date(Date.UTC(year, m + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

/** The last month of the period `month` lies in; quarters and years are the fiscal year's, from `yearStartMonth`. */
function periodEnd(month: number, frequency: Frequency, yearStartMonth: number): number {
  if (frequency === 'month') return month;
  const size = frequency === 'quarter' ? 3 : 12;
  const into = (((month - (yearStartMonth - 1)) % size) + size) % size;
  return month + (size - 1 - into);
}

/** Each due period ending on or before `to`: its last day and its depreciation. */
export function depreciationPeriods(a: AssetTerms, to: string, currency: string): { end: string; amount: Decimal }[] {
  const depreciable = a.cost.minus(a.residual);
  const out: { end: string; amount: Decimal }[] = [];
  const first = monthOf(a.acquired);
  let start = first;
  let booked = new Money(0);
  // a life longer than 100 years is refused on input: the loop ends
  for (let guard = 0; guard < 1300 && booked.lessThan(depreciable); guard++) {
    const end = periodEnd(start, a.frequency, a.yearStartMonth);
    const endDate = lastDayOf(end);
    if (endDate > to) break;
    let amount: Decimal;
    if (a.method === 'linear') {
      const months = end - first + 1;
      const cumulative = Money.min(depreciable, roundTo(depreciable.times(months).dividedBy(a.lifeMonths!), currency));
      amount = cumulative.minus(booked);
    } else {
      const bookValue = a.cost.minus(booked);
      const months = end - start + 1;
      amount = Money.min(
        roundTo(bookValue.times(a.rate!).times(months).dividedBy(12), currency),
        bookValue.minus(a.residual),
      );
    }
    if (amount.greaterThan(0)) {
      out.push({ end: endDate, amount });
      booked = booked.plus(amount);
    }
    start = end + 1;
  }
  return out;
}

/** All depreciation of the periods ending on or before `to`. */
export function depreciationUpTo(a: AssetTerms, to: string, currency: string): Decimal {
  return depreciationPeriods(a, to, currency).reduce((s, p) => s.plus(p.amount), new Money(0));
}

/** The rules of a register entry a schema cannot state; throws 400 naming the field. */
export function checkTerms(a: AssetTerms, currency: string): void {
  const scale = minorUnits(currency);
  if (decimalPlaces(a.cost.toNumber()) > scale) throw ruleInvalid(`cost has more than ${scale} decimals.`, '/cost');
  if (decimalPlaces(a.residual.toNumber()) > scale)
    throw ruleInvalid(`residual has more than ${scale} decimals.`, '/residual');
  if (a.residual.greaterThanOrEqualTo(a.cost)) throw ruleInvalid('residual must be below cost.', '/residual');
  if (a.method === 'linear' && a.lifeMonths === null)
    throw ruleInvalid('The linear method needs life_months.', '/life_months');
  if (a.method === 'declining' && a.rate === null) throw ruleInvalid('The declining method needs rate.', '/rate');
}
