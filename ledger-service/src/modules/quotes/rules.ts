import { conflict, ruleInvalid } from '../../domain/errors.ts';
import type { QuotesRow } from '../../db/tables.ts';

/**
 * The pure rules of quotes (docs/invoices.md "Quotes"): the status a quote shows (expired once
 * its last day passed while it was still open), and what each status allows.
 */

export type StoredStatus = QuotesRow['status'];
export type QuoteStatus = StoredStatus | 'expired';

/** draft and sent quotes whose `valid_until` lies before `today` read as expired. */
export function effectiveStatus(row: Pick<QuotesRow, 'status' | 'valid_until'>, today: string): QuoteStatus {
  if ((row.status === 'draft' || row.status === 'sent') && row.valid_until < today) return 'expired';
  return row.status;
}

export function assertValidUntil(invDate: string, validUntil: string): void {
  if (validUntil < invDate)
    throw ruleInvalid(`valid_until must not lie before the quote's date ${invDate}.`, '/valid_until');
}

/** Changing the quote itself: only while it is a draft or sent (also when expired: it may be renewed). */
export function assertChangeable(id: number, status: QuoteStatus): void {
  if (status === 'accepted' || status === 'declined' || status === 'invoiced')
    throw conflict(`Quote ${id} is ${status}; only draft or sent quotes can be changed.`);
}

/** What the customer did: sent (from draft), accepted (not when expired), declined (also when expired). */
export function assertTransition(id: number, from: QuoteStatus, to: 'sent' | 'accepted' | 'declined'): void {
  if (from === 'invoiced') throw conflict(`Quote ${id} is invoiced; its status no longer changes.`);
  if (to === 'sent' && from !== 'draft' && from !== 'sent')
    throw conflict(`Quote ${id} is ${from}; it cannot be sent.`);
  if (to === 'accepted' && from === 'expired') throw conflict(`Quote ${id} expired; renew valid_until first.`);
  if (to === 'accepted' && from === 'declined') throw conflict(`Quote ${id} was declined.`);
}

/** A quote becomes an invoice once, and never when declined or expired. */
export function assertInvoiceable(id: number, status: QuoteStatus): void {
  if (status === 'declined' || status === 'expired' || status === 'invoiced')
    throw conflict(`Quote ${id} is ${status}; only draft, sent or accepted quotes become invoices.`);
}
