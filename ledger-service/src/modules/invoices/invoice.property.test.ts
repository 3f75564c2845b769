/**
 * Property-based tests (fast-check) of invoices: for random items (quantities and prices
 * up to 6 decimals, discounts, tax rates, currencies, exchange rates) the items' lines post
 * balanced in the base currency, and the totals equal the sums over the items.
 */
import t from 'tap';
import fc from 'fast-check';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits, roundTo } from '@ledger/shared';
import { computePosting } from '../arap/posting.ts';
import { fillItem, itemAmount, itemLine } from './rules.ts';

const CURRENCIES = ['CHF', 'EUR', 'JPY', 'KWD'];
const RATES = ['0.081', '0.026', '0.038', '0.2'];
const RUNS = { numRuns: 500 };

/** A decimal with up to 6 places, as JSON carries it. */
const sixDecimals = (maxUnits: number) =>
  fc
    .tuple(fc.integer({ min: -maxUnits, max: maxUnits }), fc.integer({ min: 0, max: 999_999 }))
    .map(([units, micro]) =>
      Number(new Money(units).plus(new Money(micro).dividedBy(1_000_000).times(units < 0 ? -1 : 1)).toString()),
    );

const item = fc.record({
  quantity: sixDecimals(1000).filter((q) => q !== 0),
  price: sixDecimals(100_000),
  discount: fc.option(
    fc.integer({ min: 0, max: 10_000 }).map((d) => d / 100),
    { nil: undefined },
  ),
  taxAccount: fc.option(fc.integer({ min: 0, max: RATES.length - 1 }), { nil: undefined }),
});

const invoice = fc.record({
  vc: fc.constantFrom('vendor' as const, 'customer' as const),
  currency: fc.constantFrom(...CURRENCIES),
  baseCurrency: fc.constantFrom('CHF', 'JPY'),
  rate: fc.integer({ min: 1, max: 2_000_000_000 }).map((n) => new Money(n).dividedBy(1_000_000)),
  items: fc.array(item, { minLength: 1, maxLength: 10 }),
});

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Money(0));

type RandomInvoice = typeof invoice extends fc.Arbitrary<infer I> ? I : never;

function post(inv: RandomInvoice) {
  const filled = inv.items.map((it, i) =>
    fillItem(
      inv.vc,
      {
        description: `item ${i}`,
        quantity: it.quantity,
        price: it.price,
        account: '1000',
        ...(it.discount === undefined ? {} : { discount: it.discount }),
        ...(it.taxAccount === undefined ? {} : { taxAccount: String(it.taxAccount) }),
      },
      undefined,
      inv.currency,
      `/items/${i}`,
    ),
  );
  const lines = filled.map((f, i) => itemLine(f, inv.currency, `/items/${i}`));
  const exchangerate = inv.currency === inv.baseCurrency ? new Money(1) : inv.rate;
  const posting = computePosting({
    vc: inv.vc,
    currency: inv.currency,
    baseCurrency: inv.baseCurrency,
    exchangerate,
    taxincluded: false,
    controlAccountId: 100,
    roundingAccountId: 200,
    lines: lines.map((l) => ({
      accountId: 1,
      amount: new Money(l.amount),
      taxAccountId: l.taxAccount === undefined ? null : 10 + Number(l.taxAccount),
      rate: l.taxAccount === undefined ? null : new Money(RATES[Number(l.taxAccount)]!),
      taxOverride: null,
    })),
  });
  return { filled, posting };
}

t.test('posted lines of a random invoice sum to exactly zero in the base currency', async (t) => {
  fc.assert(
    fc.property(invoice, (inv) => sum(post(inv).posting.entries.map((e) => e.amount)).isZero()),
    RUNS,
  );
  t.pass();
});

t.test('the totals equal the sums over the items', async (t) => {
  fc.assert(
    fc.property(invoice, (inv) => {
      const { filled, posting } = post(inv);
      const amounts = filled.map((f) => itemAmount(f, inv.currency));
      const net = sum(amounts);
      const tax = sum(posting.lines.map((l) => l.tax));
      return (
        posting.net.equals(net) &&
        posting.tax.equals(tax) &&
        posting.gross.equals(net.plus(tax)) &&
        posting.lines.every((l, i) => l.net.equals(amounts[i]!))
      );
    }),
    RUNS,
  );
  t.pass();
});

t.test('an item amount is quantity × price × (1 − discount/100), rounded once to the minor unit', async (t) => {
  fc.assert(
    fc.property(item, fc.constantFrom(...CURRENCIES), (it, currency) => {
      const exact = new Money(it.quantity)
        .times(it.price)
        .times(new Money(1).minus(new Money(it.discount ?? 0).dividedBy(100)));
      const amount = itemAmount(
        { quantity: new Money(it.quantity), price: new Money(it.price), discount: new Money(it.discount ?? 0) },
        currency,
      );
      return (
        amount.equals(roundTo(exact, currency)) &&
        amount.decimalPlaces() <= minorUnits(currency) &&
        amount
          .minus(exact)
          .abs()
          .lessThanOrEqualTo(new Money(10).pow(-minorUnits(currency)).dividedBy(2))
      );
    }),
    RUNS,
  );
  t.pass();
});
