import { ruleInvalid } from '../../domain/errors.ts';

/**
 * Pure rules of the company settings: the Swiss VAT number (UID) and the accounts the
 * books use.
 */

/**
 * The Swiss UID as a VAT number: `CHE-123.456.789 MWST` (suffix MWST, TVA or IVA; also
 * accepted without dots, dashes or spaces, any case). The ninth digit is the check digit of
 * eCH-0097 (modulo 11 over the first eight digits weighted 5 4 3 2 7 6 5 4; 11 - remainder,
 * 11 → 0, 10 never issued). Answers the canonical form, or undefined when it is not one.
 */
export function canonicalSwissVatNumber(raw: string): string | undefined {
  const m = /^CHE([0-9]{9})(MWST|TVA|IVA)$/.exec(raw.toUpperCase().replace(/[\s.-]/g, ''));
  if (!m) return undefined;
  const digits = m[1]!;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4];
  const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0);
  const check = (11 - (sum % 11)) % 11;
  if (check === 10 || check !== Number(digits[8])) return undefined;
  return `CHE-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)} ${m[2]}`;
}

/** The VAT number as stored: checked and in canonical form for a company in CH, as sent elsewhere. */
export function resolveVatNumber(vatNumber: string | null, country: string | null): string | null {
  if (vatNumber === null) return null;
  if (country !== 'CH') return vatNumber.trim();
  const canonical = canonicalSwissVatNumber(vatNumber);
  if (!canonical) {
    throw ruleInvalid(
      `"${vatNumber}" is not a Swiss VAT number: CHE-123.456.789 MWST (or TVA, IVA) with a valid check digit, ` +
        `as a company in CH needs.`,
      '/vat_number',
    );
  }
  return canonical;
}

/** A chart account as the account rules see it. */
export interface BookAccount {
  accno: string;
  category: string;
  links: readonly string[];
}

export const BOOK_ACCOUNT_FIELDS = [
  'rounding_account',
  'fx_gain_loss_account',
  'retained_earnings_account',
  'reminder_fee_account',
  'vat_payable_account',
  'net_tax_difference_account',
] as const;
export type BookAccountField = (typeof BOOK_ACCOUNT_FIELDS)[number];

/** What each account of the books must be, besides existing in the chart (also checked when the chart changes). */
export const BOOK_ACCOUNT_RULES: Record<BookAccountField, { what: string; fits: (a: BookAccount) => boolean }> = {
  rounding_account: { what: 'an account of the chart', fits: () => true },
  fx_gain_loss_account: { what: 'an income or expense account', fits: (a) => a.category === 'I' || a.category === 'E' },
  retained_earnings_account: { what: 'an equity account', fits: (a) => a.category === 'Q' },
  vat_payable_account: {
    what: 'a balance-sheet account without tax or control links',
    fits: (a) =>
      (a.category === 'A' || a.category === 'L') && !a.links.some((l) => ['AR', 'AP', 'AR_tax', 'AP_tax'].includes(l)),
  },
  net_tax_difference_account: {
    what: 'an income or expense account',
    fits: (a) => a.category === 'I' || a.category === 'E',
  },
  reminder_fee_account: {
    what: 'a revenue account usable on customer lines (link AR_amount)',
    fits: (a) => a.links.includes('AR_amount'),
  },
};

/** Each account named (null: not set) must exist in the chart and fit its use. */
export function checkBookAccounts(
  named: Partial<Record<BookAccountField, string | null>>,
  chart: ReadonlyMap<string, BookAccount>,
): void {
  for (const field of BOOK_ACCOUNT_FIELDS) {
    const accno = named[field];
    if (accno === undefined || accno === null) continue;
    const account = chart.get(accno);
    if (!account) throw ruleInvalid(`Account ${accno} does not exist in the chart of accounts.`, `/${field}`);
    const rule = BOOK_ACCOUNT_RULES[field];
    if (!rule.fits(account))
      throw ruleInvalid(
        `Account ${accno} cannot be the ${field.replace(/_/g, ' ')}: it must be ${rule.what}.`,
        `/${field}`,
      );
  }
}
