import type { Decimal } from 'decimal.js';
import { Money, roundTo } from '@ledger/shared';
import { lineTax, taxTotals, type LineTax, type TaxTotal as TaxTotalOf } from './tax.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Dimensions } from '../dimensions/index.ts';

/**
 * The posting math of an AR/AP transaction (docs/posting.md), pure and exact:
 *
 * - each line's tax is computed and rounded per line (tax.ts);
 * - the service adds the control line (payable / receivable) for the gross total, so
 *   the document balances in its own currency;
 * - every ledger line is converted to the base currency (× exchangerate) and rounded;
 *   what the rounding leaves over goes to the rounding account, so the base-currency
 *   lines always sum to exactly zero.
 *
 * Signs: debit positive, credit negative. Vendor (AP): expense and input tax debit, the
 * payable credit. Customer (AR): revenue and output tax credit, the receivable debit.
 */
export type Vc = 'vendor' | 'customer';

export interface PostingLineInput {
  accountId: number;
  amount: Decimal;
  taxAccountId: number | null;
  rate: Decimal | null;
  taxOverride: Decimal | null;
  /** the line's dimensions (cost centre, project), carried to its ledger line; absent or null: none */
  dimensions?: Dimensions | null;
}

export interface PostingInput {
  vc: Vc;
  currency: string;
  baseCurrency: string;
  exchangerate: Decimal;
  taxincluded: boolean;
  lines: PostingLineInput[];
  controlAccountId: number;
  roundingAccountId: number | null;
}

export type ComputedLine = PostingLineInput & LineTax;

/** Tax per tax account (by account id): the base is the net amount the tax was computed on. */
export type TaxTotal = TaxTotalOf<number>;

export type EntryKind = 'amount' | 'tax' | 'control' | 'rounding';

export interface LedgerLine {
  accountId: number;
  /** base currency, debit positive */
  amount: Decimal;
  /** document currency, debit positive (0 for the rounding line) */
  fxAmount: Decimal;
  kind: EntryKind;
  /** an amount line's dimensions; tax, control and rounding lines have none */
  dimensions?: Dimensions | null;
}

export interface Posting {
  lines: ComputedLine[];
  taxes: TaxTotal[];
  net: Decimal;
  tax: Decimal;
  gross: Decimal;
  /** |gross| in the base currency, rounded: what approval limits compare against */
  baseGross: Decimal;
  entries: LedgerLine[];
}

/** The company's setup cannot post this document (e.g. no rounding account): 400. */
export class PostingSetupError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), new Money(0));

export function computePosting(input: PostingInput): Posting {
  // each object written out member by member rather than spread together: a bill's lines and
  // entries are built on every posting, and V8 builds a spread of two objects member by member
  // in its runtime (a slow path), which was a noticeable share of a posting's CPU
  const lines: ComputedLine[] = input.lines.map((l) => {
    const { net, tax, gross } = lineTax({
      amount: l.amount,
      rate: l.rate,
      taxincluded: input.taxincluded,
      override: l.taxOverride,
      currency: input.currency,
    });
    return {
      accountId: l.accountId,
      amount: l.amount,
      taxAccountId: l.taxAccountId,
      rate: l.rate,
      taxOverride: l.taxOverride,
      dimensions: l.dimensions,
      net,
      tax,
      gross,
    };
  });

  const taxes = taxTotals(lines.map((l) => ({ taxAccount: l.taxAccountId, rate: l.rate, net: l.net, tax: l.tax })));

  const net = sum(lines.map((l) => l.net));
  const tax = sum(lines.map((l) => l.tax));
  const gross = net.plus(tax);
  const sign = input.vc === 'vendor' ? 1 : -1;
  const toBase = (fx: Decimal) => roundTo(fx.times(input.exchangerate), input.baseCurrency);

  const entries: LedgerLine[] = [];
  const add = (accountId: number, fx: Decimal, kind: EntryKind, dimensions: Dimensions | null = null) => {
    if (fx.isZero()) return;
    const entry: LedgerLine = { accountId, fxAmount: fx, amount: toBase(fx), kind };
    if (dimensions) entry.dimensions = dimensions;
    entries.push(entry);
  };
  for (const l of lines) add(l.accountId, l.net.times(sign), 'amount', l.dimensions ?? null);
  for (const t of taxes) add(t.taxAccount, t.amount.times(sign), 'tax');
  add(input.controlAccountId, gross.times(-sign), 'control');

  const difference = sum(entries.map((e) => e.amount)).negated();
  if (!difference.isZero()) {
    if (input.roundingAccountId === null)
      throw new PostingSetupError('The company has no rounding account for exchange-rate rounding.');
    entries.push({ accountId: input.roundingAccountId, amount: difference, fxAmount: new Money(0), kind: 'rounding' });
  }

  return { lines, taxes, net, tax, gross, baseGross: toBase(gross).abs(), entries };
}

/** The entries of a reversing document: every line negated, so original + reversal sum to zero per account. */
export function reverseEntries(entries: readonly LedgerLine[]): LedgerLine[] {
  return entries.map((e) => ({ ...e, amount: e.amount.negated(), fxAmount: e.fxAmount.negated() }));
}

/** Approval limit in the base currency; null = unlimited. */
export function exceedsApprovalLimit(baseGross: Decimal, limit: string | null): boolean {
  return limit !== null && baseGross.greaterThan(new Money(limit));
}
