import type { Decimal } from 'decimal.js';
import { Money, roundTo } from '@ledger/shared';

/**
 * Tax of one document line (docs/posting.md "Posting math"): rounded per line to the currency's minor
 * unit, half away from zero. With `taxincluded` the amount is gross and the tax is taken
 * out of it: tax = round(amount × rate / (1 + rate)). An explicit `taxAmount` replaces the
 * calculated tax (the party's document may have rounded differently).
 */
export interface LineTaxInput {
  amount: Decimal;
  /** rate as a fraction (0.081 for 8.1 %); null when the line has no tax */
  rate: Decimal | null;
  taxincluded: boolean;
  /** taxAmount sent by the caller */
  override: Decimal | null;
  currency: string;
}

export interface LineTax {
  net: Decimal;
  tax: Decimal;
  gross: Decimal;
}

export function calculatedTax(amount: Decimal, rate: Decimal, taxincluded: boolean, currency: string): Decimal {
  const raw = taxincluded ? amount.times(rate).dividedBy(rate.plus(1)) : amount.times(rate);
  return roundTo(raw, currency);
}

export function lineTax(input: LineTaxInput): LineTax {
  const amount = new Money(input.amount);
  let tax: Decimal;
  if (input.override !== null) tax = new Money(input.override);
  else if (input.rate !== null) tax = calculatedTax(amount, input.rate, input.taxincluded, input.currency);
  else tax = new Money(0);
  return input.taxincluded
    ? { net: amount.minus(tax), tax, gross: amount }
    : { net: amount, tax, gross: amount.plus(tax) };
}

/** Net (the base) and tax of one tax account over a document's lines. */
export interface TaxTotal<Account> {
  taxAccount: Account;
  /** the rate of the account's first line (all lines of one document share the rate valid on invDate) */
  rate: Decimal | null;
  base: Decimal;
  amount: Decimal;
}

/**
 * The one per-tax-account sum: posting uses it for the tax ledger lines (keyed by account
 * id), the read shape for `taxes` (keyed by account number), so both always agree.
 */
export function taxTotals<Account>(
  lines: Iterable<{ taxAccount: Account | null; rate: Decimal | null; net: Decimal | string; tax: Decimal | string }>,
): TaxTotal<Account>[] {
  const byAccount = new Map<Account, TaxTotal<Account>>();
  for (const l of lines) {
    if (l.taxAccount === null) continue;
    const t = byAccount.get(l.taxAccount) ?? {
      taxAccount: l.taxAccount,
      rate: l.rate,
      base: new Money(0),
      amount: new Money(0),
    };
    t.base = t.base.plus(l.net);
    t.amount = t.amount.plus(l.tax);
    byAccount.set(l.taxAccount, t);
  }
  return [...byAccount.values()];
}
