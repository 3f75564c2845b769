/**
 * Structured payment references of the Swiss QR-bill (Swiss Implementation Guidelines
 * QR-bill §4.3.2): the QR reference (QRR, 27 digits, mod-10 recursive check digit) used
 * with a QR-IBAN, and the ISO 11649 creditor reference (SCOR, `RF` + mod-97 check digits)
 * used with an ordinary IBAN. Invoices are given one when posted; bank matching reads them
 * back from incoming payments. The check-digit arithmetic is `swissqrbill`'s; this module
 * adds the construction from a per-company number and strict validators.
 */
import {
  calculateQRReferenceChecksum,
  calculateSCORReferenceChecksum,
  isIBANValid,
  isQRIBAN,
  isQRReferenceValid,
  isSCORReferenceValid,
} from 'swissqrbill/utils';

/** Digits of a QR reference, check digit included. */
export const QR_REFERENCE_LENGTH = 27;
/** Longest reference part of a creditor reference (after `RF` and the two check digits). */
export const CREDITOR_REFERENCE_MAX_BODY = 21;

export type ReferenceType = 'QRR' | 'SCOR';

export interface PaymentReference {
  type: ReferenceType;
  /** Compact form (no spaces), as stored and as carried in the QR code. */
  reference: string;
}

/** A reference as typed or printed ("RF18 5390 0754 7034") in its compact form ("RF18539007547034"). */
export function compactReference(reference: string): string {
  return reference.replace(/\s+/g, '').toUpperCase();
}

function digitsOf(number: bigint | number | string): string {
  const digits = typeof number === 'string' ? number : BigInt(number).toString();
  if (!/^\d+$/.test(digits))
    throw new RangeError(`reference number must be a non-negative integer, got ${String(number)}`);
  return digits.replace(/^0+(?=\d)/, '');
}

/**
 * The QR reference of a per-company number: the number right-aligned in 26 digits, then
 * the mod-10 recursive check digit (`123` → `000000000000000000000001236`).
 */
export function qrReference(number: bigint | number | string): string {
  const digits = digitsOf(number);
  if (digits.length > QR_REFERENCE_LENGTH - 1)
    throw new RangeError(`reference number has more than ${QR_REFERENCE_LENGTH - 1} digits`);
  const body = digits.padStart(QR_REFERENCE_LENGTH - 1, '0');
  return body + calculateQRReferenceChecksum(body);
}

/**
 * The ISO 11649 creditor reference of a per-company number or alphanumeric reference:
 * `RF`, two mod-97 check digits, the reference (`123` → `RF78123`).
 */
export function creditorReference(reference: bigint | number | string): string {
  const body = typeof reference === 'string' ? compactReference(reference) : digitsOf(reference);
  if (!/^[0-9A-Z]+$/.test(body) || body.length > CREDITOR_REFERENCE_MAX_BODY) {
    throw new RangeError(`creditor reference must be 1–${CREDITOR_REFERENCE_MAX_BODY} letters or digits`);
  }
  return `RF${calculateSCORReferenceChecksum(body)}${body}`;
}

/** A QR reference: exactly 27 digits (spaces allowed) whose last digit is the mod-10 recursive check digit. */
export function isQrReference(reference: string): boolean {
  const compact = compactReference(reference);
  return /^\d{27}$/.test(compact) && isQRReferenceValid(compact);
}

/** An ISO 11649 creditor reference: `RF`, two check digits, 1–21 letters or digits, mod 97 = 1. */
export function isCreditorReference(reference: string): boolean {
  const compact = compactReference(reference);
  return /^RF\d{2}[0-9A-Z]{1,21}$/.test(compact) && isSCORReferenceValid(compact);
}

/**
 * A QR-IBAN: a valid Swiss or Liechtenstein IBAN whose institution id (positions 5–9) is
 * in 30000–31999. Only a QR-IBAN may carry a QR reference, and it must.
 */
export function isQrIban(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return /^(CH|LI)\d{2}[0-9A-Z]{17}$/.test(compact) && isIBANValid(compact) && isQRIBAN(compact);
}

/** The reference a payment to this account carries: QRR for a QR-IBAN, else SCOR. */
export function paymentReference(number: bigint | number | string, account: { qrIban: boolean }): PaymentReference {
  return account.qrIban
    ? { type: 'QRR', reference: qrReference(number) }
    : { type: 'SCOR', reference: creditorReference(number) };
}

/** The type of a stored reference, or null when it is neither a valid QRR nor a valid SCOR. */
export function referenceTypeOf(reference: string): ReferenceType | null {
  if (isQrReference(reference)) return 'QRR';
  if (isCreditorReference(reference)) return 'SCOR';
  return null;
}
