import type { Decimal } from 'decimal.js';
import { decimalPlaces, formatAmount, minorUnits, Money, roundTo, type JournalEntryInput } from '@ledger/shared';
import { DomainError, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';
import { checkDimensions, type DimensionCatalogue, type Dimensions } from '../dimensions/index.ts';

/**
 * The rules of a journal entry (docs/journal.md), pure: checked against a
 * snapshot of the accounts the entry names. Booked exactly as sent: no account is added,
 * each line is a debit or a credit, and the debits must equal the credits.
 */
export interface JournalAccount {
  id: number;
  accno: string;
  links: string[];
}

export interface JournalRuleContext {
  baseCurrency: string;
  closedUntil: string | null;
  /** the accounts the entry names, by accno */
  accounts: Map<string, JournalAccount>;
  /** the company's dimensions (empty when no line names one: then it is not read) */
  dimensions: DimensionCatalogue;
}

export interface ResolvedJournalLine {
  accountId: number;
  accno: string;
  description: string | null;
  /** entry currency, exactly one of them above 0 */
  debit: Decimal;
  credit: Decimal;
  /** debit − credit in the entry currency */
  fxAmount: Decimal;
  /** base currency, debit positive; the lines sum to exactly zero */
  baseAmount: Decimal;
  dimensions: Dimensions | null;
}

export interface ResolvedJournal {
  transdate: string;
  description: string | null;
  currency: string;
  exchangerate: Decimal;
  lines: ResolvedJournalLine[];
}

/** Control accounts belong to AR/AP documents: a journal line on them would bypass the open items. */
const CONTROL_LINKS = ['AR', 'AP'];
const MAX_RATE_DECIMALS = 10;

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Money(0));

function lineAmount(value: number | undefined, currency: string, field: string): Decimal {
  if (value === undefined) return new Money(0);
  if (decimalPlaces(value) > minorUnits(currency)) {
    throw ruleInvalid(`Amount ${value} has more decimals than ${currency} allows (${minorUnits(currency)}).`, field);
  }
  return new Money(value);
}

/**
 * Base-currency amounts of signed entry-currency amounts: each round(fx × rate) to the base
 * currency's minor unit (half away from zero). Rounding each line can leave the base lines
 * a few minor units apart although the entry balances in its own currency; the line with
 * the largest amount (the first of equals) takes that difference, so the entry stays on the
 * accounts it was sent with and balances exactly in the base currency.
 */
export function baseAmounts(fx: readonly Decimal[], rate: Decimal, baseCurrency: string): Decimal[] {
  const base = fx.map((a) => roundTo(a.times(rate), baseCurrency));
  const difference = sum(base);
  if (difference.isZero() || base.length === 0) return base;
  let largest = 0;
  fx.forEach((a, i) => {
    if (a.abs().greaterThan(fx[largest]!.abs())) largest = i;
  });
  const adjusted = base[largest]!.minus(difference);
  // only a pathological entry (hundreds of tiny lines against one) could turn the line around
  if (!adjusted.isZero() && adjusted.isNegative() !== fx[largest]!.isNegative()) {
    throw ruleInvalid(
      `The lines cannot be converted at exchangerate ${rate.toString()} so that they balance in ${baseCurrency}.`,
      '/exchangerate',
    );
  }
  base[largest] = adjusted;
  return base;
}

export function resolveJournal(input: JournalEntryInput, ctx: JournalRuleContext): ResolvedJournal {
  const currency = input.curr ?? ctx.baseCurrency;
  if (currency !== ctx.baseCurrency && input.exchangerate === undefined) {
    throw ruleInvalid(
      `An entry in ${currency} needs exchangerate, the rate against the base currency ${ctx.baseCurrency}.`,
      '/exchangerate',
    );
  }
  const exchangerate = new Money(input.exchangerate ?? 1);
  if (input.exchangerate !== undefined && decimalPlaces(input.exchangerate) > MAX_RATE_DECIMALS) {
    throw ruleInvalid(`exchangerate has more than ${MAX_RATE_DECIMALS} decimals.`, '/exchangerate');
  }
  if (currency === ctx.baseCurrency && !exchangerate.equals(1)) {
    throw ruleInvalid(`exchangerate must be 1 for entries in the base currency ${ctx.baseCurrency}.`, '/exchangerate');
  }

  const lines = input.lines.map((line, i) => {
    const at = `/lines/${i}`;
    const account = ctx.accounts.get(line.account);
    if (!account)
      throw ruleInvalid(`Account ${line.account} does not exist in the chart of accounts.`, `${at}/account`);
    const control = CONTROL_LINKS.find((l) => account.links.includes(l));
    if (control) {
      throw ruleInvalid(
        `Account ${line.account} is an ${control} control account; book receivables and payables with AR/AP ` +
          `documents and payments.`,
        `${at}/account`,
      );
    }
    const debit = lineAmount(line.debit, currency, `${at}/debit`);
    const credit = lineAmount(line.credit, currency, `${at}/credit`);
    if (debit.greaterThan(0) && credit.greaterThan(0)) {
      throw ruleInvalid('A line has either a debit or a credit, not both; split it into two lines.', `${at}/credit`);
    }
    if (debit.isZero() && credit.isZero())
      throw ruleInvalid('A line needs a debit or a credit above 0.', `${at}/debit`);
    return {
      accountId: account.id,
      accno: account.accno,
      description: line.description ?? null,
      debit,
      credit,
      fxAmount: debit.minus(credit),
      dimensions: checkDimensions(line.dimensions, ctx.dimensions, `${at}/dimensions`),
    };
  });

  const debits = sum(lines.map((l) => l.debit));
  const credits = sum(lines.map((l) => l.credit));
  if (!debits.equals(credits)) {
    const difference = debits.minus(credits);
    throw new DomainError(
      'unbalanced',
      `The debits (${formatAmount(debits, currency)}) and credits (${formatAmount(credits, currency)}) differ by ` +
        `${formatAmount(difference.abs(), currency)} (${difference.isPositive() ? 'more debit' : 'more credit'}).`,
      '/lines',
    );
  }

  assertOpenPeriod(input.transdate, ctx.closedUntil, '/transdate');

  const base = baseAmounts(
    lines.map((l) => l.fxAmount),
    exchangerate,
    ctx.baseCurrency,
  );
  return {
    transdate: input.transdate,
    description: input.description ?? null,
    currency,
    exchangerate,
    lines: lines.map((l, i) => ({ ...l, baseAmount: base[i]! })),
  };
}

/** Account numbers an entry names, for loading the snapshot. */
export function referencedAccounts(input: Pick<JournalEntryInput, 'lines'>): string[] {
  return [...new Set(input.lines.map((l) => l.account))];
}
