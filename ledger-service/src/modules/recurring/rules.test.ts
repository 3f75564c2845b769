/**
 * The schedule rules of recurring invoices (rules.ts): dates counted from the start's month,
 * "last" on every month's last day, quarters and years, start and end bounds, the period an
 * item text names in each language.
 */
import t from 'tap';
import type { RecurringSchedule } from '@ledger/shared';
import { assertSchedule, dateAfter, firstDateFrom, namePeriod, periodValues, upcomingDates } from './rules.ts';

const monthlyLast: RecurringSchedule = { every: 1, unit: 'month', day: 'last', start: '2026-01-15' };

t.test('"last" is the last day of every month, leap years included, never drifting to the 28th', async (t) => {
  const first = firstDateFrom(monthlyLast, monthlyLast.start);
  t.equal(first, '2026-01-31');
  t.same(upcomingDates(monthlyLast, first, 4), ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
  const leap = { ...monthlyLast, start: '2028-02-01' };
  t.same(upcomingDates(leap, firstDateFrom(leap, leap.start), 2), ['2028-02-29', '2028-03-31']);
});

t.test('a day before the start day begins in the next period; quarters, half-years and years', async (t) => {
  const quarterly: RecurringSchedule = { every: 1, unit: 'quarter', day: 10, start: '2026-01-20' };
  t.same(upcomingDates(quarterly, firstDateFrom(quarterly, quarterly.start), 3), [
    '2026-04-10',
    '2026-07-10',
    '2026-10-10',
  ]);
  const twoMonths: RecurringSchedule = { every: 2, unit: 'month', day: 1, start: '2026-01-01' };
  t.same(upcomingDates(twoMonths, '2026-01-01', 3), ['2026-01-01', '2026-03-01', '2026-05-01']);
  const half: RecurringSchedule = { every: 1, unit: 'half_year', day: 'last', start: '2026-06-01' };
  t.same(upcomingDates(half, firstDateFrom(half, half.start), 3), ['2026-06-30', '2026-12-31', '2027-06-30']);
  const yearly: RecurringSchedule = { every: 1, unit: 'year', day: 28, start: '2026-02-28' };
  t.same(upcomingDates(yearly, '2026-02-28', 2), ['2026-02-28', '2027-02-28']);
});

t.test('the next date after a given one, and from a later day (a resume), keep to the pattern', async (t) => {
  const monthly: RecurringSchedule = { every: 1, unit: 'month', day: 5, start: '2026-01-01' };
  t.equal(dateAfter(monthly, '2026-01-05'), '2026-02-05');
  t.equal(firstDateFrom(monthly, '2026-06-06'), '2026-07-05');
  t.equal(firstDateFrom(monthly, '2026-06-05'), '2026-06-05');
  t.equal(firstDateFrom(monthlyLast, '2031-08-01'), '2031-08-31', 'years later, still the last day');
});

t.test('the end bounds the dates; a schedule without any date is refused', async (t) => {
  const bounded: RecurringSchedule = { every: 1, unit: 'month', day: 1, start: '2026-01-01', end: '2026-03-01' };
  t.same(upcomingDates(bounded, '2026-01-01', 12), ['2026-01-01', '2026-02-01', '2026-03-01']);
  t.equal(dateAfter(bounded, '2026-03-01'), null);
  t.throws(() => assertSchedule({ ...bounded, end: '2025-12-31' }), {
    code: 'invalid_request',
    field: '/schedule/end',
  });
  t.throws(() => assertSchedule({ every: 1, unit: 'month', day: 20, start: '2026-01-21', end: '2026-02-10' }), {
    code: 'invalid_request',
  });
  t.equal(assertSchedule(bounded), '2026-01-01');
});

t.test('item texts name the period in the customer language', async (t) => {
  const text = 'Miete {month} {year}, {quarter}; {other} bleibt';
  t.equal(namePeriod(text, periodValues('2026-03-01', 'de')), 'Miete März 2026, 1. Quartal; {other} bleibt');
  t.equal(namePeriod('Loyer {month} {year}', periodValues('2026-08-01', 'fr')), 'Loyer août 2026');
  t.equal(namePeriod('Affitto {month}', periodValues('2026-12-01', 'it')), 'Affitto dicembre');
  t.equal(namePeriod('Rent {quarter} {year}', periodValues('2026-11-30', 'en')), 'Rent Q4 2026');
});
