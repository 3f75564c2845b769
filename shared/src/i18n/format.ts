/**
 * Swiss formats for what people read: amounts as 1'234.50 (`Intl.NumberFormat('de-CH')`,
 * the same in every language of the interface, as Swiss businesses print them), dates as
 * 28.11.2026, times in Europe/Zurich, IBANs in groups of four. Amounts are formatted from
 * their decimal string, never through a binary float.
 */
const AMOUNT = new Intl.NumberFormat('de-CH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const DATE = new Intl.DateTimeFormat('de-CH', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});
const DATE_TIME = new Intl.DateTimeFormat('de-CH', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Zurich',
});

/** `1234.5` or `"1234.50"` → `1'234.50`; a currency code, when given, goes in front. */
export function displayAmount(amount: string | number, currency?: string): string {
  // Intl formats a decimal string exactly (no float on the way); the cast is the typings'
  // gap: format() takes strings since ECMA-402's NumberFormat v3.
  const text = AMOUNT.format(String(amount) as unknown as number);
  return currency ? `${currency} ${text}` : text;
}

/** `2026-11-28` → `28.11.2026`; anything that is not a date comes back unchanged. */
export function formatDate(isoDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(isoDate)) return isoDate;
  return DATE.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** An instant (ISO string or Date) as Zurich's wall clock: `28.11.2026, 14:05`. */
export function formatDateTime(instant: string | Date): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  return Number.isNaN(date.getTime()) ? String(instant) : DATE_TIME.format(date);
}

/** `CH9300762011623852957` → `CH93 0076 2011 6238 5295 7`. */
export function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ');
}
