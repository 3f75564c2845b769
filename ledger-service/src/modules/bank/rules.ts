import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { ruleInvalid } from '../../domain/errors.ts';

/**
 * The rules of a company bank account, pure: IBAN by mod-97 and the country's length
 * (ibantools), QR-IBAN by its bank id range, BIC by format, the chart account by its link.
 */

/** A bank account with every field resolved, as stored (IBANs in electronic format, BIC upper case). */
export interface BankAccountDocument {
  name: string;
  iban: string;
  qr_iban: string | null;
  bic: string | null;
  currency: string;
  /** accno of the chart account */
  account: string;
}

/** A chart account as the rules see it. */
export interface LinkedAccount {
  id: number;
  accno: string;
  links: readonly string[];
}

/** What is written: the document with the chart account's id. */
export interface ResolvedBankAccount extends BankAccountDocument {
  accountId: number;
}

/** QR-IBANs are Swiss or Liechtenstein IBANs whose bank id (IID, positions 5–9) lies in 30000–31999. */
export function isQrIban(iban: string): boolean {
  if (!/^(CH|LI)[0-9]{2}[0-9]{5}/.test(iban)) return false;
  const iid = Number(iban.slice(4, 9));
  return iid >= 30000 && iid <= 31999;
}

/** The IBAN in electronic format (no spaces, upper case) when its country, length and check digits are right. */
function validIban(raw: string, field: string): string {
  const iban = electronicFormatIBAN(raw) ?? '';
  if (!isValidIBAN(iban)) throw ruleInvalid(`"${raw}" is not a valid IBAN (country, length or check digits).`, field);
  return iban;
}

const QR_CURRENCIES = ['CHF', 'EUR'];

export function resolveBankAccount(
  doc: BankAccountDocument,
  chartAccount: LinkedAccount | undefined,
): ResolvedBankAccount {
  const iban = validIban(doc.iban, '/iban');
  if (isQrIban(iban))
    throw ruleInvalid(
      `${iban} is a QR-IBAN (bank id 30000–31999); send it as qr_iban and the account's IBAN as iban.`,
      '/iban',
    );
  let qrIban: string | null = null;
  if (doc.qr_iban !== null) {
    qrIban = validIban(doc.qr_iban, '/qr_iban');
    if (!isQrIban(qrIban))
      throw ruleInvalid(`${qrIban} is not a QR-IBAN (a CH or LI IBAN with bank id 30000–31999).`, '/qr_iban');
    if (!QR_CURRENCIES.includes(doc.currency)) {
      throw ruleInvalid(
        `A QR-IBAN is only used for QR-bills in CHF or EUR; the account is in ${doc.currency}.`,
        '/qr_iban',
      );
    }
  }
  const bic = doc.bic === null ? null : doc.bic.replace(/\s+/g, '').toUpperCase();
  if (bic !== null && !isValidBIC(bic)) throw ruleInvalid(`"${doc.bic}" is not a valid BIC.`, '/bic');
  if (!chartAccount) throw ruleInvalid(`Account ${doc.account} does not exist in the chart of accounts.`, '/account');
  if (!chartAccount.links.includes('AR_paid') && !chartAccount.links.includes('AP_paid')) {
    throw ruleInvalid(`Account ${doc.account} is not a payment account (link AR_paid or AP_paid).`, '/account');
  }
  return {
    name: doc.name,
    iban,
    qr_iban: qrIban,
    bic,
    currency: doc.currency,
    account: chartAccount.accno,
    accountId: chartAccount.id,
  };
}
