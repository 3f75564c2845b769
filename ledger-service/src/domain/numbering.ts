/**
 * Document and party numbers: a format with one `{0…0}` placeholder, filled with the
 * sequence value zero-padded to the placeholder's width ("AP-{000000}" → "AP-000042").
 */
export const DEFAULT_NUMBER_FORMATS: Record<string, string> = {
  vendor: 'V-{00000}',
  customer: 'C-{00000}',
  ap_transaction: 'AP-{000000}',
  ar_transaction: 'AR-{000000}',
  gl_transaction: 'GL-{000000}',
  ar_credit_note: 'CN-{000000}',
  ap_credit_note: 'APCN-{000000}',
  quote: 'QT-{000000}',
};

/**
 * The format a company numbers `kind` with: its own (`settings.number_formats`), else the
 * default. The one place a format is chosen (sequences and the check of numbers given by hand).
 */
export function numberFormatOf(settings: { number_formats?: unknown }, kind: string): string {
  const own = (settings.number_formats ?? {}) as Record<string, string>;
  return own[kind] ?? DEFAULT_NUMBER_FORMATS[kind] ?? '{000000}';
}

export function formatNumber(format: string, value: number): string {
  const m = /\{(0+)\}/.exec(format);
  if (!m) return `${format}${value}`;
  return format.replace(m[0], String(value).padStart(m[1]!.length, '0'));
}

export function isValidNumberFormat(format: string): boolean {
  return /^[^{}]*\{0+\}[^{}]*$/.test(format) && format.length <= 40;
}
