import type { Decimal } from 'decimal.js';
import { formatAmount, minorUnits, Money, roundTo, type Vc } from '@ledger/shared';
import { conflict, DomainError, ruleInvalid } from '../../domain/errors.ts';
import { assertOpenPeriod } from '../../domain/period.ts';

/**
 * The pure rules of payments (docs/payments.md): what may be paid, the
 * payment's ledger lines (bank/cash against the control account, the exchange difference to
 * the FX gain/loss account), and the aging buckets. Exact decimals throughout.
 */

const MAX_RATE_DECIMALS = 10;

/** The paid document as the rules see it. */
export interface PaidDocument {
  id: number;
  status: 'draft' | 'posted' | 'reversed';
  reversalOf: number | null;
  invDate: string;
  currency: string;
  /** document currency, signed as stored (credit notes and reversals negative) */
  gross: Decimal;
  paid: Decimal;
  controlAccountId: number;
}

export interface PaymentRequest {
  date: string;
  amount: string;
  exchangerate: string | undefined;
}

export interface PaymentAccount {
  id: number;
  accno: string;
  links: string[];
}

/** open = gross − paid, in the document currency. */
export function openAmount(gross: Decimal.Value, paid: Decimal.Value): Decimal {
  return new Money(gross).minus(paid);
}

/** The document may take a payment at all: posted, not a reversal. */
export function assertPayable(doc: PaidDocument): void {
  if (doc.status !== 'posted')
    throw conflict(`Document ${doc.id} is ${doc.status}; only posted documents can be paid.`, '/document_id');
  if (doc.reversalOf !== null)
    throw conflict(`Document ${doc.id} reverses another document and cannot be paid.`, '/document_id');
}

/**
 * The payment's amount in the document currency: > 0, the currency's decimals, ≤ the open amount. A credit note
 * (negative gross) is refunded: the amount sent is what leaves the bank, and comes back negated (signed like the
 * credit note), at most what it has open.
 */
export function paymentAmount(doc: PaidDocument, amount: string): Decimal {
  let value: Decimal;
  try {
    value = new Money(amount);
  } catch {
    throw ruleInvalid(`amount "${amount}" is not a number.`, '/amount');
  }
  if (!value.isFinite() || value.lessThanOrEqualTo(0)) throw ruleInvalid('amount must be greater than 0.', '/amount');
  if (value.decimalPlaces() > minorUnits(doc.currency)) {
    throw ruleInvalid(
      `Amount ${value.toString()} has more decimals than ${doc.currency} allows (${minorUnits(doc.currency)}).`,
      '/amount',
    );
  }
  const sign = doc.gross.isNegative() ? -1 : 1;
  const open = openAmount(doc.gross, doc.paid).times(sign);
  if (value.greaterThan(open)) {
    throw new DomainError(
      'overpayment',
      `The ${sign < 0 ? 'refund' : 'payment'} of ${formatAmount(value, doc.currency)} exceeds the open amount of ` +
        `${formatAmount(open.isNegative() ? 0 : open, doc.currency)} of document ${doc.id}.`,
      '/amount',
    );
  }
  return value.times(sign);
}

/**
 * The payment rate: required for foreign-currency documents (never silently the document's
 * own rate: the rate of the payment day is what the bank booked); 1 for the base currency.
 */
export function paymentRate(doc: PaidDocument, rate: string | undefined, baseCurrency: string): Decimal {
  if (doc.currency === baseCurrency) {
    if (rate !== undefined && !new Money(rate).equals(1)) {
      throw ruleInvalid(
        `exchangerate must be 1 (or absent) for documents in the base currency ${baseCurrency}.`,
        '/exchangerate',
      );
    }
    return new Money(1);
  }
  if (rate === undefined) {
    throw ruleInvalid(
      `Document ${doc.id} is in ${doc.currency}: send the payment's exchangerate to ${baseCurrency}.`,
      '/exchangerate',
    );
  }
  const value = new Money(rate);
  if (!value.isFinite() || value.lessThanOrEqualTo(0))
    throw ruleInvalid('exchangerate must be greater than 0.', '/exchangerate');
  if (value.decimalPlaces() > MAX_RATE_DECIMALS)
    throw ruleInvalid(`exchangerate has more than ${MAX_RATE_DECIMALS} decimals.`, '/exchangerate');
  return value;
}

/** The bank/cash account: a chart account with the side's payment link, not the control account itself. */
export function assertPaymentAccount(
  vc: Vc,
  accno: string,
  account: PaymentAccount | undefined,
  doc: PaidDocument,
): PaymentAccount {
  const link = vc === 'vendor' ? 'AP_paid' : 'AR_paid';
  if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, '/account');
  if (!account.links.includes(link))
    throw ruleInvalid(`Account ${accno} is not a ${vc} payment account (link ${link}).`, '/account');
  if (account.id === doc.controlAccountId)
    throw ruleInvalid(`Account ${accno} is the document's control account.`, '/account');
  return account;
}

export function assertPaymentDate(doc: PaidDocument, date: string, closedUntil: string | null): void {
  if (date < doc.invDate)
    throw ruleInvalid(`The payment date must not lie before the document date ${doc.invDate}.`, '/date');
  assertOpenPeriod(date, closedUntil, '/date');
}

export type PaymentEntryKind = 'payment' | 'fx';

export interface PaymentLine {
  accountId: number;
  /** base currency, debit positive */
  amount: Decimal;
  /** document currency (0 for the exchange difference) */
  fxAmount: Decimal;
  kind: PaymentEntryKind;
}

export interface PaymentPostingInput {
  vc: Vc;
  amount: Decimal;
  rate: Decimal;
  baseCurrency: string;
  gross: Decimal;
  open: Decimal;
  /** the document's control line in the base currency, as posted (positive) */
  controlBase: Decimal;
  /** what earlier, not reversed payments cleared on the control account (base, positive) */
  clearedSoFar: Decimal;
  bankAccountId: number;
  controlAccountId: number;
  fxAccountId: number | null;
}

export interface PaymentPosting {
  /** what the bank/cash account moves, base currency, positive */
  bankBase: Decimal;
  /** what is cleared on the control account, base currency, positive */
  clearedBase: Decimal;
  /** exchange gain (positive) or loss (negative), base currency */
  fxGainLoss: Decimal;
  entries: PaymentLine[];
}

/**
 * The ledger lines of a payment. The bank line is the amount at the payment rate; the control
 * line clears the document's proportional share of its posted base amount (controlBase ×
 * amount / gross, rounded), and the payment that brings the open amount to 0 clears exactly
 * what is left, so a fully paid document leaves nothing on the control account. The
 * difference goes to the FX gain/loss account, so the lines always sum to 0.
 * Customer: bank debit, receivable credit; vendor: payable debit, bank credit.
 */
export function computePaymentPosting(p: PaymentPostingInput): PaymentPosting {
  const bankBase = roundTo(p.amount.times(p.rate), p.baseCurrency);
  const final = p.amount.equals(p.open);
  const clearedBase = final
    ? p.controlBase.minus(p.clearedSoFar)
    : roundTo(p.controlBase.times(p.amount).dividedBy(p.gross), p.baseCurrency);
  const s = p.vc === 'customer' ? 1 : -1;
  const entries: PaymentLine[] = [
    { accountId: p.bankAccountId, amount: bankBase.times(s), fxAmount: p.amount.times(s), kind: 'payment' },
    { accountId: p.controlAccountId, amount: clearedBase.times(-s), fxAmount: p.amount.times(-s), kind: 'payment' },
  ];
  const difference = bankBase.minus(clearedBase);
  if (!difference.isZero()) {
    if (p.fxAccountId === null) {
      throw ruleInvalid(
        'The company has no FX gain/loss account for the exchange difference; set fx_gain_loss_account in the ' +
          'company settings.',
      );
    }
    entries.push({ accountId: p.fxAccountId, amount: difference.times(-s), fxAmount: new Money(0), kind: 'fx' });
  }
  return { bankBase, clearedBase, fxGainLoss: difference.times(s), entries };
}

/**
 * What a share of `amount` (signed like the document's gross) clears on the document's control account in the base
 * currency: the proportional share of the posted control line (signed like the gross), and exactly what is left when it
 * settles the rest.
 */
export function clearedShare(p: {
  amount: Decimal;
  gross: Decimal;
  open: Decimal;
  controlBase: Decimal;
  clearedSoFar: Decimal;
  baseCurrency: string;
}): Decimal {
  if (p.amount.equals(p.open)) return p.controlBase.minus(p.clearedSoFar);
  return roundTo(p.controlBase.times(p.amount).dividedBy(p.gross), p.baseCurrency);
}

/** A credit note's allocation as the rules see it: the credit note, the document it is set against, the amount. */
export interface AllocationRequest {
  credit: PaidDocument & { partyId: number };
  target: PaidDocument & { partyId: number };
  /** > 0, document currency */
  amount: string;
  date: string;
}

/**
 * The checks of an allocation (docs/invoices.md "Credit notes"): a posted credit note with something open, a posted
 * document of the same side, party and currency with something open, the amount > 0 and at most either open amount,
 * the date not before either document and in an open period.
 */
export function checkAllocation(r: AllocationRequest, closedUntil: string | null): Decimal {
  const { credit, target } = r;
  assertPayable(credit);
  if (!credit.gross.isNegative()) throw conflict(`Document ${credit.id} is not a credit note.`);
  if (target.id === credit.id) throw ruleInvalid('A credit note cannot be allocated to itself.', '/document_id');
  if (target.status !== 'posted' || target.reversalOf !== null)
    throw conflict(`Document ${target.id} is ${target.status}; only posted documents take a credit.`, '/document_id');
  if (!target.gross.isPositive()) throw conflict(`Document ${target.id} is itself a credit.`, '/document_id');
  if (target.partyId !== credit.partyId)
    throw ruleInvalid(`Document ${target.id} belongs to another party than the credit note.`, '/document_id');
  if (target.currency !== credit.currency) {
    throw ruleInvalid(
      `Document ${target.id} is in ${target.currency}, the credit note in ${credit.currency}.`,
      '/document_id',
    );
  }
  if (target.controlAccountId !== credit.controlAccountId)
    throw ruleInvalid(`Document ${target.id} is booked on another control account.`, '/document_id');
  let value: Decimal;
  try {
    value = new Money(r.amount);
  } catch {
    throw ruleInvalid(`amount "${r.amount}" is not a number.`, '/amount');
  }
  if (!value.isFinite() || value.lte(0)) throw ruleInvalid('amount must be greater than 0.', '/amount');
  if (value.decimalPlaces() > minorUnits(credit.currency))
    throw ruleInvalid(`Amount ${value.toString()} has more decimals than ${credit.currency} allows.`, '/amount');
  const creditOpen = openAmount(credit.gross, credit.paid).negated();
  const targetOpen = openAmount(target.gross, target.paid);
  const limit = Money.min(creditOpen, targetOpen);
  if (value.gt(limit)) {
    throw new DomainError(
      'overpayment',
      `The allocation of ${formatAmount(value, credit.currency)} exceeds the open amount ` +
        `(credit note ${formatAmount(creditOpen, credit.currency)}, ` +
        `document ${formatAmount(targetOpen, credit.currency)}).`,
      '/amount',
    );
  }
  const later = [credit.invDate, target.invDate].sort()[1]!;
  if (r.date < later) throw ruleInvalid(`The allocation date must not lie before ${later}.`, '/date');
  assertOpenPeriod(r.date, closedUntil, '/date');
  return value;
}

/** The lines of a payment's reversal: every line negated. */
export function reversePaymentLines(lines: readonly PaymentLine[]): PaymentLine[] {
  return lines.map((l) => ({ ...l, amount: l.amount.negated(), fxAmount: l.fxAmount.negated() }));
}

/** The approval limit applies to what leaves or enters the bank, in the base currency. */
export function assertWithinApprovalLimit(bankBase: Decimal, limit: string | null, baseCurrency: string): void {
  if (limit !== null && bankBase.greaterThan(new Money(limit))) {
    throw new DomainError(
      'amount_exceeded',
      `The payment of ${formatAmount(bankBase, baseCurrency)} exceeds your approval limit of ` +
        `${formatAmount(limit, baseCurrency)}.`,
      '/amount',
    );
  }
}

// --- aging ------------------------------------------------------------------------------

export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** Whole days from `due` to `asOf` (yyyy-mm-dd, UTC calendar days). */
export function daysPastDue(due: string, asOf: string): number {
  return Math.round((Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);
}

export function agingBucket(days: number): AgingBucket {
  if (days <= 0) return 'current';
  if (days <= 30) return '1-30';
  if (days <= 60) return '31-60';
  if (days <= 90) return '61-90';
  return 'over_90';
}

export interface OpenDocument {
  partyId: number;
  partyNumber: string;
  partyName: string;
  /** due date, or the document date when it has none */
  due: string;
  /** open amount in the base currency as of the report date */
  openBase: Decimal;
}

export type AgingAmounts = Record<AgingBucket | 'total', number>;
export interface AgingRow extends AgingAmounts {
  id: number;
  number: string;
  name: string;
}

/** Rows per party (by party number) and totals; documents with nothing open are left out. */
export function agingRows(docs: readonly OpenDocument[], asOf: string): { rows: AgingRow[]; totals: AgingAmounts } {
  const zero = () =>
    Object.fromEntries([...AGING_BUCKETS, 'total'].map((b) => [b, new Money(0)])) as Record<
      AgingBucket | 'total',
      Decimal
    >;
  const parties = new Map<number, { number: string; name: string; sums: Record<AgingBucket | 'total', Decimal> }>();
  const totals = zero();
  for (const d of docs) {
    if (d.openBase.isZero()) continue;
    const bucket = agingBucket(daysPastDue(d.due, asOf));
    const party = parties.get(d.partyId) ?? { number: d.partyNumber, name: d.partyName, sums: zero() };
    parties.set(d.partyId, party);
    for (const sums of [party.sums, totals]) {
      sums[bucket] = sums[bucket].plus(d.openBase);
      sums.total = sums.total.plus(d.openBase);
    }
  }
  const numbers = (sums: Record<AgingBucket | 'total', Decimal>) =>
    Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v.toNumber()])) as AgingAmounts;
  const rows = [...parties.entries()]
    .sort(([, a], [, b]) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))
    .map(([id, p]) => ({ id, number: p.number, name: p.name, ...numbers(p.sums) }));
  return { rows, totals: numbers(totals) };
}
