import type { Decimal } from 'decimal.js';
import { Money, roundTo } from '@ledger/shared';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The pure part of a revaluation (docs/year-end.md "Revaluation"): per open foreign-currency
 * item its value at the closing rate and the difference to its value as booked, and the two
 * ledger lines that book the difference. Values are positive for what the company holds or
 * owes (a receivable, a payable, a bank balance); the difference is new − old.
 */

export type ItemKind = 'customer' | 'vendor' | 'bank';

export interface OpenItem {
  kind: ItemKind;
  id: number;
  currency: string;
  accountId: number;
  /** ledger signs (a payable negative) */
  fx: Decimal;
  base: Decimal;
  /** differences of earlier revaluations still standing (their sign: new − old) */
  standing: Decimal;
}

export interface Revalued {
  item: OpenItem;
  open: Decimal;
  oldValue: Decimal;
  newValue: Decimal;
  difference: Decimal;
}

/** A payable is negative in the ledger: its value is the negated sum. */
const sideSign = (kind: ItemKind) => (kind === 'vendor' ? -1 : 1);

/** Every item valued at the rates; a currency in use without a rate is a 400 naming it. */
export function revalue(items: readonly OpenItem[], rates: Readonly<Record<string, number>>, base: string): Revalued[] {
  const out: Revalued[] = [];
  for (const item of items) {
    const sign = sideSign(item.kind);
    const open = item.fx.times(sign);
    if (open.isZero() && item.base.isZero()) continue;
    const rate = rates[item.currency];
    if (rate === undefined)
      throw ruleInvalid(`${item.currency} is in use: rates needs its closing rate.`, `/rates/${item.currency}`);
    const oldValue = item.base.times(sign).plus(item.standing);
    const newValue = roundTo(open.times(new Money(rate)), base);
    out.push({ item, open, oldValue, newValue, difference: newValue.minus(oldValue) });
  }
  return out;
}

/**
 * The lines of one difference, ledger signs: the item's account moves by the difference (a
 * payable by its negation), the FX account takes the other side (a loss is a debit).
 */
export function differenceLines(r: Revalued, fxAccountId: number): { accountId: number; amount: Decimal }[] {
  const onItem = r.difference.times(sideSign(r.item.kind));
  return [
    { accountId: r.item.accountId, amount: onItem },
    { accountId: fxAccountId, amount: onItem.negated() },
  ];
}
