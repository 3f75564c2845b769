/**
 * The pure journal rules: base-currency conversion (property-based, fast-check) and the
 * line rules against a snapshot, without a database.
 */
import t from 'tap';
import fc from 'fast-check';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits, roundTo } from '@ledger/shared';
import { DomainError } from '../../domain/errors.ts';
import { baseAmounts, resolveJournal, type JournalRuleContext } from './rules.ts';

const minor = (currency: string, max: number) =>
  fc.integer({ min: 1, max }).map((n) => new Money(n).dividedBy(new Money(10).pow(minorUnits(currency))));

/** A balanced entry: debits, and credits that split the same total. */
const balanced = fc
  .record({
    currency: fc.constantFrom('EUR', 'USD', 'JPY', 'KWD'),
    base: fc.constantFrom('CHF', 'JPY', 'KWD'),
    rate: fc.integer({ min: 1, max: 2_000_000_000 }).map((n) => new Money(n).dividedBy(1_000_000)),
  })
  .chain((h) =>
    fc.record({
      h: fc.constant(h),
      debits: fc.array(minor(h.currency, 10_000_000), { minLength: 1, maxLength: 12 }),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
    }),
  )
  .map(({ h, debits, cuts }) => {
    const total = debits.reduce((a, b) => a.plus(b), new Money(0));
    const step = new Money(10).pow(-minorUnits(h.currency));
    // credits: the total cut at a few points (in minor units), each part above 0
    const points = [...new Set(cuts.map((c) => total.times(c).dividedBy(step).floor().times(step).toString()))]
      .map((p) => new Money(p))
      .filter((p) => p.greaterThan(0) && p.lessThan(total))
      .sort((a, b) => a.comparedTo(b));
    const credits: Decimal[] = [];
    let previous = new Money(0);
    for (const p of [...points, total]) {
      credits.push(p.minus(previous));
      previous = p;
    }
    return { ...h, fx: [...debits, ...credits.map((c) => c.negated())] };
  });

t.test(
  'base amounts: sum to exactly zero, rounded to the base minor unit, only the largest line differs from round(fx ' +
    '× rate)',
  async () => {
    fc.assert(
      fc.property(balanced, ({ base, rate, fx }) => {
        let amounts: Decimal[];
        try {
          amounts = baseAmounts(fx, rate, base);
        } catch (e) {
          // the documented refusal for a line that would change sides; anything else is a bug
          return e instanceof DomainError && e.field === '/exchangerate';
        }
        if (!amounts.reduce((a, b) => a.plus(b), new Money(0)).isZero()) return false;
        if (!amounts.every((a) => a.decimalPlaces() <= minorUnits(base))) return false;
        const largest = fx.reduce((best, a, i) => (a.abs().greaterThan(fx[best]!.abs()) ? i : best), 0);
        return amounts.every((a, i) => i === largest || a.equals(roundTo(fx[i]!.times(rate), base)));
      }),
      { numRuns: 2000 },
    );
  },
);

t.test('base amounts: the worked example of docs/journal.md', async (t) => {
  const fx = ['10.01', '10.01', '10.01', '-30.03'].map((v) => new Money(v));
  t.same(baseAmounts(fx, new Money('0.93337'), 'CHF').map(String), ['9.34', '9.34', '9.34', '-28.02']);
  t.same(
    baseAmounts([new Money(100), new Money(-100)], new Money(1), 'CHF').map(String),
    ['100', '-100'],
    'rate 1: unchanged',
  );
});

const ctx: JournalRuleContext = {
  baseCurrency: 'CHF',
  closedUntil: '2024-01-31',
  dimensions: new Map(),
  accounts: new Map([
    ['6000', { id: 1, accno: '6000', links: ['AP_amount'] }],
    ['1020', { id: 2, accno: '1020', links: ['AR_paid', 'AP_paid'] }],
    ['1100', { id: 3, accno: '1100', links: ['AR'] }],
  ]),
};

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, field: e.field, message: e.message };
    throw e;
  }
  return undefined;
};

t.test('resolveJournal: rules in order, and a resolved entry', async (t) => {
  const ok = resolveJournal(
    {
      transdate: '2024-02-01',
      lines: [
        { account: '6000', debit: 12.5, description: 'x' },
        { account: '1020', credit: 12.5 },
      ],
    },
    ctx,
  );
  t.same(
    ok.lines.map((l) => [
      l.accountId,
      l.debit.toString(),
      l.credit.toString(),
      l.fxAmount.toString(),
      l.baseAmount.toString(),
      l.description,
    ]),
    [
      [1, '12.5', '0', '12.5', '12.5', 'x'],
      [2, '0', '12.5', '-12.5', '-12.5', null],
    ],
  );
  t.equal(ok.currency, 'CHF');
  t.match(
    refusal(() =>
      resolveJournal(
        {
          transdate: '2024-01-31',
          lines: [
            { account: '6000', debit: 1 },
            { account: '1020', credit: 1 },
          ],
        },
        ctx,
      ),
    ),
    { code: 'closed_period', field: '/transdate' },
  );
  t.match(
    refusal(() =>
      resolveJournal(
        {
          transdate: '2024-01-31',
          lines: [
            { account: '6000', debit: 1 },
            { account: '1020', credit: 2 },
          ],
        },
        ctx,
      ),
    ),
    { code: 'unbalanced', field: '/lines', message: /differ by 1\.00 CHF/ },
    'the balance is checked before the period',
  );
  t.match(
    refusal(() =>
      resolveJournal(
        {
          transdate: '2024-02-01',
          lines: [
            { account: '1100', debit: 1 },
            { account: '1020', credit: 1 },
          ],
        },
        ctx,
      ),
    ),
    { code: 'invalid_request', field: '/lines/0/account', message: /AR control account/ },
  );
  t.match(
    refusal(() =>
      resolveJournal(
        {
          transdate: '2024-02-01',
          curr: 'JPY',
          exchangerate: 0.0061234567891,
          lines: [
            { account: '6000', debit: 1 },
            { account: '1020', credit: 1 },
          ],
        },
        ctx,
      ),
    ),
    { field: '/exchangerate', message: /more than 10 decimals/ },
  );
});
