import { Money } from '@ledger/shared';
import { conflict, ruleInvalid } from '../../domain/errors.ts';

/**
 * Pure rules of tax codes (docs/vat.md "Tax codes"): a rate history is a list of periods that
 * do not overlap, and a change never alters the rate of a day that posted lines already used.
 */

export interface RatePeriod {
  rate: string;
  valid_from: string;
  valid_to: string | null;
  description: string;
}

/** The periods in date order; 400 naming the first pair that overlaps or a period that ends before it begins. */
export function checkRateHistory(periods: readonly RatePeriod[]): RatePeriod[] {
  const sorted = [...periods].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
  sorted.forEach((p, i) => {
    if (p.valid_to !== null && p.valid_to < p.valid_from)
      throw ruleInvalid(`The rate period from ${p.valid_from} ends before it begins (${p.valid_to}).`, '/rates');
    const next = sorted[i + 1];
    if (next && (p.valid_to === null || p.valid_to >= next.valid_from)) {
      throw ruleInvalid(
        `The rate periods overlap: the one from ${p.valid_from} runs ` +
          `${p.valid_to === null ? 'open-ended' : `to ${p.valid_to}`}, ` +
          `the next begins ${next.valid_from}. End the earlier period the day before the next begins.`,
        '/rates',
      );
    }
  });
  return sorted;
}

/** The rate valid on a date, or null when no period covers it. */
export function rateOn(periods: readonly RatePeriod[], date: string): string | null {
  const p = periods.find((x) => x.valid_from <= date && (x.valid_to === null || x.valid_to >= date));
  return p ? p.rate : null;
}

/** What posted lines used: a date and the rate they were taxed at. */
export interface UsedRate {
  date: string;
  rate: string;
}

/** A new history gives every used day the rate its lines were posted with (409 naming the first that changes). */
export function checkUsedRatesKept(code: string, periods: readonly RatePeriod[], used: readonly UsedRate[]): void {
  for (const u of used) {
    const now = rateOn(periods, u.date);
    if (now === null || !new Money(now).equals(u.rate)) {
      const percent = (rate: string) => `${new Money(rate).times(100).toString()} %`;
      throw conflict(
        `Tax code ${code}: lines dated ${u.date} were posted at ${percent(u.rate)}; the new history would ` +
          `${now === null ? 'leave that day without a rate' : `give it ${percent(now)}`}. ` +
          'Add a new rate as a new period from a later date instead.',
        '/rates',
      );
    }
  }
}

/** The period read as current: the latest that has begun on `today`, else the first. */
export function currentPeriod<P extends { valid_from: string }>(periods: readonly P[], today: string): P {
  const begun = periods.filter((p) => p.valid_from <= today);
  return begun.at(-1) ?? periods[0]!;
}

/** The account a code books to must carry the tax link of its kind. */
export function taxLinkOf(kind: string): 'AR_tax' | 'AP_tax' {
  return kind === 'input' ? 'AP_tax' : 'AR_tax';
}
