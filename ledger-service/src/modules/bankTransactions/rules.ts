import { createHash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { Money, formatAmount } from '@ledger/shared/money';

/**
 * The rules of bank statement import and matching, pure (docs/bank.md):
 * what identifies an entry, whether a statement's balances agree with its entries, and
 * which open document a bank transaction pays.
 */

/** One bank transaction as read from a file: one entry, or one transaction detail of a batch entry. */
export interface StatementEntry {
  date: string;
  valueDate: string | null;
  /** signed, in the account's currency: credits positive, debits negative */
  amount: Decimal;
  currency: string;
  counterparty: string | null;
  iban: string | null;
  /** QR or creditor reference, compact */
  reference: string | null;
  endToEndId: string | null;
  text: string | null;
  /** the bank's reference of the entry (AcctSvcrRef), or of the detail when it has its own */
  bankReference: string | null;
  reversal: boolean;
  /** 1-based position of the detail in a batch entry; null for an entry with one transaction */
  detail: number | null;
}

export interface StatementBalance {
  amount: Decimal;
  currency: string;
  date: string | null;
}

/** One statement (camt.053 Stmt), notification (camt.054 Ntfctn) or CSV file. */
export interface ParsedStatement {
  source: 'camt.053' | 'camt.054' | 'csv';
  version: '04' | '08' | null;
  id: string | null;
  /** the account's IBAN as the file names it (electronic format), if it does */
  iban: string | null;
  /** how the file names the account, for messages */
  accountLabel: string | null;
  /** the account currency the file states (Acct/Ccy), if any */
  currency: string | null;
  opening: StatementBalance | null;
  closing: StatementBalance | null;
  entries: StatementEntry[];
  /** entries not booked yet (status PDNG or INFO): not imported */
  skipped: number;
}

/** yyyy-mm-dd naming a day of the calendar (2024-02-30 does not). */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/**
 * The key that identifies each entry across imports: the bank's reference (per detail of a
 * batch), else a hash of what the entry says. Identical entries without a reference in the
 * same file (two equal payments on one day) are told apart by their order among themselves,
 * so importing the file again gives the same keys.
 */
export function entryKeys(entries: readonly StatementEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    if (e.bankReference !== null) return `ref:${e.bankReference}${e.detail === null ? '' : `#${e.detail}`}`;
    const hash = createHash('sha256')
      .update(
        JSON.stringify([
          e.date,
          e.valueDate,
          e.amount.toFixed(),
          e.currency,
          e.counterparty,
          e.iban,
          e.reference,
          e.endToEndId,
          e.text,
          e.reversal,
          e.detail,
        ]),
      )
      .digest('hex');
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return `hash:${hash}:${n}`;
  });
}

export type BalanceCheck = {
  statement: string | null;
  opening: number | null;
  closing: number | null;
  entries_total: number;
  /** null when the file states no opening and closing balance (camt.054, CSV) */
  balanced: boolean | null;
  message: string | null;
};

/**
 * Opening balance + the booked entries = closing balance. A mismatch does not stop the
 * import (the entries are what the bank booked) but is reported, so nobody relies on a
 * statement that is incomplete.
 */
export function checkBalances(s: ParsedStatement): BalanceCheck {
  const total = s.entries.reduce((sum, e) => sum.plus(e.amount), new Money(0));
  const base = { statement: s.id, entries_total: total.toNumber() };
  if (!s.opening || !s.closing) {
    return {
      ...base,
      opening: s.opening?.amount.toNumber() ?? null,
      closing: s.closing?.amount.toNumber() ?? null,
      balanced: null,
      message: null,
    };
  }
  const expected = s.opening.amount.plus(total);
  const balanced = expected.equals(s.closing.amount);
  const currency = s.closing.currency;
  return {
    ...base,
    opening: s.opening.amount.toNumber(),
    closing: s.closing.amount.toNumber(),
    balanced,
    message: balanced
      ? null
      : `Opening balance ${formatAmount(s.opening.amount, currency)} plus the entries ` +
        `${formatAmount(total, currency)} is ${formatAmount(expected, currency)}, ` +
        `but the closing balance is ${formatAmount(s.closing.amount, currency)}: the statement is incomplete or wrong.`,
  };
}

// --- matching ---------------------------------------------------------------------------

/** An open posted document a bank transaction may pay. */
export interface OpenDocument {
  id: number;
  vc: 'vendor' | 'customer';
  invNumber: string;
  qrReference: string | null;
  currency: string;
  /** gross − paid, document currency */
  open: Decimal;
}

export interface MatchCandidates {
  /** open customer documents by their qr_reference */
  byReference: ReadonlyMap<string, OpenDocument>;
  /** open customer documents by invoice number */
  byNumber: ReadonlyMap<string, OpenDocument>;
  /** vendor documents by the end-to-end id of their payment-file payment */
  byEndToEnd: ReadonlyMap<string, OpenDocument & { fileAmount: Decimal }>;
}

export interface MatchInput {
  amount: Decimal;
  currency: string;
  reference: string | null;
  endToEndId: string | null;
  text: string | null;
  reversal: boolean;
}

/** Words of a text that could be document numbers (as written): letters, digits and the - / _ . joining them. */
export function numberTokens(text: string): string[] {
  return text.match(/[A-Za-z0-9][A-Za-z0-9\-/_.]*[A-Za-z0-9]|[A-Za-z0-9]/g) ?? [];
}

/**
 * The document a bank transaction pays, if exactly one fits (docs/bank.md):
 * - a credit whose QR/creditor reference is an open customer document's qr_reference, or
 *   whose text names exactly one open customer document's number, for exactly its open
 *   amount in its currency;
 * - a debit whose end-to-end id is a payment-file payment's, for that payment's amount and
 *   not more than the bill's open amount.
 * Reversals are never matched: they undo an earlier booking, which is a person's decision.
 */
export function matchDocument(t: MatchInput, c: MatchCandidates): OpenDocument | null {
  if (t.reversal || t.amount.isZero()) return null;
  if (t.amount.isPositive()) {
    const fits = (d: OpenDocument | undefined): d is OpenDocument =>
      d !== undefined && d.currency === t.currency && d.open.equals(t.amount);
    const byRef = t.reference === null ? undefined : c.byReference.get(t.reference);
    if (byRef) return fits(byRef) ? byRef : null;
    if (t.text === null) return null;
    const named = new Map<number, OpenDocument>();
    for (const token of numberTokens(t.text)) {
      const d = c.byNumber.get(token);
      if (d) named.set(d.id, d);
    }
    if (named.size !== 1) return null;
    const [d] = named.values();
    return fits(d) ? d : null;
  }
  if (t.endToEndId === null) return null;
  const d = c.byEndToEnd.get(t.endToEndId);
  const paid = t.amount.negated();
  if (!d || d.currency !== t.currency || !paid.equals(d.fileAmount) || paid.greaterThan(d.open)) return null;
  return d;
}
