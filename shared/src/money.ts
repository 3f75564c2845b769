import { Decimal } from 'decimal.js';

/**
 * Exact money arithmetic. One Decimal configuration for the whole product:
 * 40 significant digits is far beyond any ledger amount, and rounding of
 * amounts is always explicit (half away from zero, docs/posting.md "Posting math").
 */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 codes as known to the runtime's ICU data. */
export function isKnownCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && knownCurrencies.has(code);
}

const minorUnitCache = new Map<string, number>();
/** Decimal places of a currency's minor unit (CHF 2, JPY 0, KWD 3). */
export function minorUnits(currency: string): number {
  let digits = minorUnitCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorUnitCache.set(currency, digits);
  }
  return digits;
}

export function money(v: Decimal.Value): Decimal {
  return new Money(v);
}

/** Round to the currency's minor unit, half away from zero. */
export function roundTo(v: Decimal.Value, currency: string): Decimal {
  return new Money(v).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/** Number of decimals a JSON number literal carries ("12.50" → 1 after JSON parse of 12.5). */
export function decimalPlaces(n: number): number {
  return new Money(n).decimalPlaces();
}

/**
 * An amount for JSON output (read shapes, audit details, CLI --json): a JSON number rounded
 * to the currency's minor unit, so 13.51 never travels as "13.51" nor as 13.510000.
 */
export function amountJson(v: Decimal.Value, currency: string): number {
  return roundTo(v, currency).toNumber();
}

/** An amount in a sentence (error messages, CLI text): to the minor unit with its code, "100.00 CHF". */
export function formatAmount(v: Decimal.Value, currency: string): string {
  return `${roundTo(v, currency).toFixed(minorUnits(currency))} ${currency}`;
}

/** Amount for JSON output: a number with at most the currency's decimals. */
export function toJsonNumber(v: Decimal.Value): number {
  return new Money(v).toNumber();
}
