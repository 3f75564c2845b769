/**
 * Property-based tests (fast-check) of the pure posting math: balanced, exact, rounded to
 * the minor unit, idempotent, symmetric.
 */
import t from 'tap';
import fc from 'fast-check';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits, roundTo } from '@ledger/shared';
import { computePosting, reverseEntries, type PostingInput } from './posting.ts';
import { calculatedTax } from './tax.ts';

const CURRENCIES = ['CHF', 'EUR', 'JPY', 'KWD', 'USD'];
const RATES = ['0.081', '0.026', '0.077', '0.025', '0.2', '0.19', '0.055', '0.0001'];

const money = (currency: string, max = 10_000_000) =>
  fc.integer({ min: -max, max }).map((minor) => new Money(minor).dividedBy(new Money(10).pow(minorUnits(currency))));

// 0.000001 … 2000
const exchangerate = fc.integer({ min: 1, max: 2_000_000_000 }).map((n) => new Money(n).dividedBy(1_000_000));

const postingInput: fc.Arbitrary<PostingInput> = fc
  .record({
    vc: fc.constantFrom('vendor' as const, 'customer' as const),
    currency: fc.constantFrom(...CURRENCIES),
    baseCurrency: fc.constantFrom('CHF', 'JPY', 'KWD'),
    taxincluded: fc.boolean(),
    rate: exchangerate,
  })
  .chain((h) => {
    const line = fc.record({
      accountId: fc.integer({ min: 1, max: 5 }),
      amount: money(h.currency),
      taxAccountId: fc.option(fc.integer({ min: 10, max: 12 }), { nil: null }),
      rate: fc.constantFrom(...RATES).map((r) => new Money(r)),
      override: fc.option(money(h.currency, 100_000), { nil: null, freq: 4 }),
    });
    return fc.array(line, { minLength: 1, maxLength: 8 }).map((lines) => ({
      vc: h.vc,
      currency: h.currency,
      baseCurrency: h.baseCurrency,
      exchangerate: h.currency === h.baseCurrency ? new Money(1) : h.rate,
      taxincluded: h.taxincluded,
      controlAccountId: 100,
      roundingAccountId: 200,
      lines: lines.map((l) => ({
        accountId: l.accountId,
        amount: l.amount,
        taxAccountId: l.taxAccountId,
        // one rate per tax account, as on a real invDate
        rate: l.taxAccountId === null ? null : new Money(RATES[l.taxAccountId - 10]!),
        taxOverride: l.taxAccountId === null ? null : l.override,
      })),
    }));
  });

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Money(0));
const fitsMinorUnit = (v: Decimal, currency: string) => v.decimalPlaces() <= minorUnits(currency);
const RUNS = { numRuns: 1000 };

t.test('posted lines always sum to exactly zero in the base currency', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => sum(computePosting(input).entries.map((e) => e.amount)).isZero()),
    RUNS,
  );
  t.pass();
});

t.test('the document balances in its own currency (control line = −gross)', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const p = computePosting(input);
      const fx = p.entries.filter((e) => e.kind !== 'rounding').map((e) => e.fxAmount);
      const control = p.entries.filter((e) => e.kind === 'control');
      const sign = input.vc === 'vendor' ? 1 : -1;
      return (
        sum(fx).isZero() &&
        (p.gross.isZero() ? control.length === 0 : control[0]!.fxAmount.equals(p.gross.times(-sign)))
      );
    }),
    RUNS,
  );
  t.pass();
});

t.test('net + tax = gross per line and in total; exact and rounded to the minor unit', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const p = computePosting(input);
      for (const [i, l] of p.lines.entries()) {
        if (!l.net.plus(l.tax).equals(l.gross)) return false;
        if (!(input.taxincluded ? l.gross : l.net).equals(input.lines[i]!.amount)) return false;
        if (![l.net, l.tax, l.gross].every((v) => fitsMinorUnit(v, input.currency))) return false;
      }
      if (!p.entries.every((e) => fitsMinorUnit(e.amount, input.baseCurrency))) return false;
      return p.net.plus(p.tax).equals(p.gross) && p.tax.equals(sum(p.taxes.map((x) => x.amount)));
    }),
    RUNS,
  );
  t.pass();
});

t.test('calculated tax is the correctly rounded exact tax (half away from zero) and odd-symmetric', async (t) => {
  fc.assert(
    fc.property(
      fc.constantFrom(...CURRENCIES),
      fc.constantFrom(...RATES),
      fc.boolean(),
      fc.integer({ min: -10_000_000, max: 10_000_000 }),
      (cur, r, incl, minor) => {
        const amount = new Money(minor).dividedBy(new Money(10).pow(minorUnits(cur)));
        const rate = new Money(r);
        const tax = calculatedTax(amount, rate, incl, cur);
        const exact = incl ? amount.times(rate).dividedBy(rate.plus(1)) : amount.times(rate);
        const halfUnit = new Money(10).pow(-minorUnits(cur)).dividedBy(2);
        const error = tax.minus(exact).abs();
        const boundOk = error.lessThan(halfUnit) || (error.equals(halfUnit) && tax.abs().greaterThan(exact.abs()));
        return boundOk && calculatedTax(amount.negated(), rate, incl, cur).equals(tax.negated());
      },
    ),
    RUNS,
  );
  t.pass();
});

t.test('rounding is idempotent: re-posting the computed taxes as overrides gives the same posting', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const first = computePosting(input);
      const again = computePosting({
        ...input,
        lines: input.lines.map((l, i) => ({ ...l, taxOverride: l.taxAccountId === null ? null : first.lines[i]!.tax })),
      });
      const same = (a: Decimal[], b: Decimal[]) => a.length === b.length && a.every((x, i) => x.equals(b[i]!));
      return (
        same(
          first.entries.map((e) => e.amount),
          again.entries.map((e) => e.amount),
        ) &&
        same([first.net, first.tax, first.gross], [again.net, again.tax, again.gross]) &&
        first.entries.every((e) => roundTo(e.amount, input.baseCurrency).equals(e.amount))
      );
    }),
    RUNS,
  );
  t.pass();
});

t.test('the rounding line stays within half a base unit per converted line; none without conversion', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const p = computePosting(input);
      const rounding = p.entries.filter((e) => e.kind === 'rounding');
      if (input.exchangerate.equals(1) && minorUnits(input.currency) <= minorUnits(input.baseCurrency))
        return rounding.length === 0;
      if (rounding.length === 0) return true;
      const converted = p.entries.length - 1;
      const bound = new Money(10).pow(-minorUnits(input.baseCurrency)).dividedBy(2).times(converted);
      return rounding[0]!.amount.abs().lessThanOrEqualTo(bound);
    }),
    RUNS,
  );
  t.pass();
});

t.test('a reversal cancels every account exactly', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const p = computePosting(input);
      const both = [...p.entries, ...reverseEntries(p.entries)];
      const perAccount = new Map<number, Decimal>();
      for (const e of both) perAccount.set(e.accountId, (perAccount.get(e.accountId) ?? new Money(0)).plus(e.amount));
      return [...perAccount.values()].every((v) => v.isZero());
    }),
    RUNS,
  );
  t.pass();
});

t.test('sides mirror each other', async (t) => {
  fc.assert(
    fc.property(postingInput, (input) => {
      const vendor = computePosting({ ...input, vc: 'vendor' });
      const customer = computePosting({ ...input, vc: 'customer' });
      return vendor.entries.every((e, i) => e.amount.equals(customer.entries[i]!.amount.negated()));
    }),
    RUNS,
  );
  t.pass();
});

t.test('worked examples', async (t) => {
  const base: PostingInput = {
    vc: 'vendor',
    currency: 'CHF',
    baseCurrency: 'CHF',
    exchangerate: new Money(1),
    taxincluded: false,
    controlAccountId: 100,
    roundingAccountId: 200,
    lines: [
      { accountId: 1, amount: new Money('19.75'), taxAccountId: 10, rate: new Money('0.081'), taxOverride: null },
    ],
  };
  t.equal(computePosting(base).tax.toFixed(2), '1.60', '19.75 × 8.1 % = 1.59975 → 1.60');
  t.equal(
    computePosting({ ...base, taxincluded: true }).tax.toFixed(2),
    '1.48',
    '19.75 × 0.081 / 1.081 = 1.4799… → 1.48',
  );
  const minus = computePosting({
    ...base,
    lines: [{ ...base.lines[0]!, amount: new Money('-0.5'), rate: new Money('0.01') }],
  });
  t.equal(minus.tax.toFixed(2), '-0.01', '−0.005 → −0.01 (half away from zero)');
});
