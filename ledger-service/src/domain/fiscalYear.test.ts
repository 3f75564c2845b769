import t from 'tap';
import {
  checkFiscalCalendar,
  fiscalCalendarOf,
  fiscalYearNumberOf,
  fiscalYearNumbered,
  fiscalYearOf,
  monthsOf,
  regularYear,
} from './fiscalYear.ts';

/** The company's fiscal years, pure (docs/year-end.md "Fiscal years"). */

const july = fiscalCalendarOf({ fiscal_year_start: '07-01' });
const calendar = fiscalCalendarOf({});

t.test('regular years: numbered by the calendar year they end in', async (t) => {
  t.same(regularYear(calendar, 2026), { year: 2026, start: '2026-01-01', end: '2026-12-31' });
  t.same(regularYear(july, 2026), { year: 2026, start: '2025-07-01', end: '2026-06-30' });
  t.same(regularYear(fiscalCalendarOf({ fiscal_year_start: '03-01' }), 2024), {
    year: 2024,
    start: '2023-03-01',
    end: '2024-02-29',
  });
  t.equal(fiscalYearNumberOf(july, '2025-06-30'), 2025);
  t.equal(fiscalYearNumberOf(july, '2025-07-01'), 2026);
  t.equal(fiscalYearNumberOf(calendar, '2025-07-01'), 2025);
  t.same(fiscalYearOf(july, '2026-01-15', null), { year: 2026, start: '2025-07-01', end: '2026-06-30' });
});

t.test('a first year of its own: short or long, from the first posted line', async (t) => {
  const short = fiscalCalendarOf({ fiscal_year_start: '07-01', first_fiscal_year_end: '2025-06-30' });
  t.same(fiscalYearOf(short, '2025-03-10', '2025-02-14'), { year: 2025, start: '2025-02-01', end: '2025-06-30' });
  t.same(fiscalYearOf(short, '2025-07-01', '2025-02-14'), { year: 2026, start: '2025-07-01', end: '2026-06-30' });
  t.equal(fiscalYearNumbered(short, 2024, '2025-02-14'), null, 'no year before the first');
  const long = fiscalCalendarOf({ first_fiscal_year_end: '2026-12-31' });
  const first = fiscalYearOf(long, '2025-05-01', '2025-02-10');
  t.same(first, { year: 2026, start: '2025-02-01', end: '2026-12-31' });
  t.equal(monthsOf(first), 23);
  t.doesNotThrow(() => checkFiscalCalendar(long, '2025-02-10'));
  t.throws(
    () => checkFiscalCalendar(long, '2025-01-31'),
    { code: 'invalid_request', field: '/first_fiscal_year_end' },
    '24 months',
  );
  t.throws(
    () =>
      checkFiscalCalendar(fiscalCalendarOf({ fiscal_year_start: '07-01', first_fiscal_year_end: '2025-12-31' }), null),
    { code: 'invalid_request', field: '/first_fiscal_year_end' },
    'not the day before a fiscal year start',
  );
  t.same(fiscalYearOf(long, '2025-05-01', null), { year: 2026, start: '2026-01-01', end: '2026-12-31' }, 'no lines');
});
