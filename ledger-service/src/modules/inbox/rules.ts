import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { compactReference, isCreditorReference, isQrIban, isQrReference } from '@ledger/shared/references';
import type { Proposal } from '@ledger/shared/schemas/files';
import { DomainError } from '../../domain/errors.ts';

/**
 * The pure rules of the inbox: what a file is (by its bytes), what a Swiss QR-bill payload
 * says (Swiss Implementation Guidelines QR-bill 2.3, `SPC` version 0200; Swico S1 billing
 * information) and the bill it proposes.
 */

export type InboxMediaType = 'application/pdf' | 'image/png' | 'image/jpeg';

/**
 * The media type the bytes are, whatever the upload declared: a PDF starts with `%PDF-`
 * (within its first 1024 bytes, as readers accept), PNG and JPEG with their signatures.
 * Anything else is 415.
 */
export function sniffMediaType(data: Buffer, declared: string | undefined): InboxMediaType {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  throw new DomainError(
    'unsupported_media_type',
    `The inbox takes PDF, PNG or JPEG files; these bytes${declared ? ` (declared ${declared})` : ''} are none of them.`,
  );
}

// --- the QR-bill payload ------------------------------------------------------------------

export interface QrAddress {
  name: string;
  street?: string;
  house_number?: string;
  zip?: string;
  city?: string;
  country?: string;
}

export interface Billing {
  document_number?: string;
  document_date?: string;
  customer_reference?: string;
  vat_number?: string;
  payment_days?: number;
}

export interface QrBill {
  iban: string;
  creditor: QrAddress;
  /** two decimals, as in the payload ("1234.50"); absent when the bill leaves it open */
  amount?: string;
  currency: 'CHF' | 'EUR';
  debtor?: QrAddress;
  reference_type: 'QRR' | 'SCOR' | 'NON';
  reference?: string;
  message?: string;
  billing_information?: string;
  billing?: Billing;
}

/** A QR code that is a Swiss QR-bill but breaks its rules: why, for the entry's `reason`. */
export class QrBillInvalid extends Error {}

export const isSwissQrPayload = (text: string) => /^\uFEFF?SPC\r?\n/.test(text);

/** Addresses: type S (structured: street, house number, zip, city) or K (combined: two lines). */
function address(f: string[], at: number, what: string): QrAddress | undefined {
  const [type, name, l1, l2, zip, city, country] = f.slice(at, at + 7).map((s) => (s ?? '').trim());
  if (!type && !name) return undefined;
  if (type !== 'S' && type !== 'K') throw new QrBillInvalid(`${what} address type must be S or K, got "${type}"`);
  if (!name) throw new QrBillInvalid(`${what} name is missing`);
  if (!/^[A-Z]{2}$/.test(country ?? ''))
    throw new QrBillInvalid(`${what} country must be a two-letter code, got "${country}"`);
  if (type === 'K' && (zip || city))
    throw new QrBillInvalid(`${what} combined address (K) must leave postal code and town empty`);
  if (type === 'S' && (!zip || !city))
    throw new QrBillInvalid(`${what} structured address (S) needs postal code and town`);
  const out: QrAddress = { name };
  if (l1) out.street = l1;
  if (l2) out.house_number = l2;
  if (zip) out.zip = zip;
  if (city) out.city = city;
  out.country = country;
  return out;
}

/**
 * Parses and validates a QR-bill payload: header SPC/0200/1, a valid CH/LI IBAN, the
 * creditor, amount (0.01–999999999.99 with two decimals, or empty), currency CHF/EUR, the
 * reference by type (QRR: 27 digits with the mod-10 check digit, only with a QR-IBAN;
 * SCOR: RF + mod-97, not with a QR-IBAN; NON: none), the EPD trailer.
 */
export function parseQrBill(text: string): QrBill {
  const f = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (f[0] !== 'SPC') throw new QrBillInvalid('not a Swiss QR-bill (no SPC header)');
  if (!/^02\d\d$/.test(f[1] ?? '')) throw new QrBillInvalid(`QR-bill version ${f[1]} is not supported (0200)`);
  if (f[2] !== '1') throw new QrBillInvalid(`QR-bill coding type must be 1, got "${f[2]}"`);
  const iban = electronicFormatIBAN(f[3] ?? '') ?? '';
  if (!/^(CH|LI)/.test(iban) || !isValidIBAN(iban))
    throw new QrBillInvalid(`the IBAN "${f[3]}" is not a valid Swiss or Liechtenstein IBAN`);
  const creditor = address(f, 4, 'creditor');
  if (!creditor) throw new QrBillInvalid('the creditor is missing');
  const rawAmount = (f[18] ?? '').trim();
  if (rawAmount && (!/^\d{1,9}\.\d{2}$/.test(rawAmount) || /^0+\.00$/.test(rawAmount))) {
    throw new QrBillInvalid(`the amount "${rawAmount}" must be 0.01–999999999.99 with two decimals`);
  }
  const currency = f[19];
  if (currency !== 'CHF' && currency !== 'EUR')
    throw new QrBillInvalid(`the currency must be CHF or EUR, got "${currency}"`);
  const debtor = address(f, 20, 'debtor');
  const refType = f[27];
  const reference = compactReference(f[28] ?? '');
  const qrIban = isQrIban(iban);
  if (refType === 'QRR') {
    if (!qrIban) throw new QrBillInvalid('a QR reference (QRR) needs a QR-IBAN');
    if (!isQrReference(reference))
      throw new QrBillInvalid(`the QR reference "${f[28]}" is not 27 digits with a valid check digit`);
  } else if (refType === 'SCOR') {
    if (qrIban) throw new QrBillInvalid('a QR-IBAN needs a QR reference (QRR)');
    if (!isCreditorReference(reference))
      throw new QrBillInvalid(`the creditor reference "${f[28]}" has a wrong check digit or form`);
  } else if (refType === 'NON') {
    if (qrIban) throw new QrBillInvalid('a QR-IBAN needs a QR reference (QRR)');
    if (reference) throw new QrBillInvalid('reference type NON must carry no reference');
  } else {
    throw new QrBillInvalid(`the reference type must be QRR, SCOR or NON, got "${refType}"`);
  }
  if (f[30] !== 'EPD') throw new QrBillInvalid('the QR-bill trailer EPD is missing');
  const message = (f[29] ?? '').trim();
  const billingInformation = (f[31] ?? '').trim();
  const bill: QrBill = { iban, creditor, currency, reference_type: refType };
  if (rawAmount) bill.amount = rawAmount;
  if (debtor) bill.debtor = debtor;
  if (reference) bill.reference = reference;
  if (message) bill.message = message;
  if (billingInformation) {
    bill.billing_information = billingInformation;
    const billing = parseBillingInformation(billingInformation);
    if (billing) bill.billing = billing;
  }
  return bill;
}

/** A YYMMDD date of the billing information as yyyy-mm-dd (20YY), or undefined when it is no date. */
function swicoDate(s: string | undefined): string | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})/.exec(s ?? '');
  if (!m) return undefined;
  const iso = `20${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/**
 * Swico S1 billing information (`//S1/10/10201409/11/190512/30/106017086/40/2:10;0:30`):
 * /10/ invoice number, /11/ invoice date (YYMMDD; the first of a period), /20/ customer
 * reference, /30/ the creditor's UID, /40/ conditions (discount %:days; the 0 % one is
 * the net payment term). Other syntaxes and tags are kept as text only.
 */
export function parseBillingInformation(s: string): Billing | undefined {
  if (!s.startsWith('//S1/')) return undefined;
  const tags = new Map<string, string>();
  // values escape a slash as \/
  const parts = s
    .slice('//S1/'.length)
    .split(/(?<!\\)\//)
    .map((p) => p.replace(/\\\//g, '/'));
  for (let i = 0; i + 1 < parts.length; i += 2) tags.set(parts[i]!, parts[i + 1]!);
  const out: Billing = {};
  if (tags.get('10')) out.document_number = tags.get('10')!;
  const date = swicoDate(tags.get('11'));
  if (date) out.document_date = date;
  if (tags.get('20')) out.customer_reference = tags.get('20')!;
  if (tags.get('30')) out.vat_number = `CHE-${tags.get('30')!.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1.$2.$3')}`;
  const net = (tags.get('40') ?? '')
    .split(';')
    .map((c) => c.split(':'))
    .find(([pct]) => Number(pct) === 0);
  if (net && /^\d{1,4}$/.test(net[1] ?? '')) out.payment_days = Number(net[1]);
  return Object.keys(out).length > 0 ? out : undefined;
}

// --- what the document prints ------------------------------------------------------------

/** A VAT rate the document states: "VAT 8.1% on 882.00 71.44" (rate in percent, net base, tax). */
export interface StatedVat {
  /** percent as printed, "8.1" */
  rate: string;
  /** two decimals, "882.00" */
  base: string;
  tax: string;
}

/** An amount as bills print it: 1'234.50, 1’234.50, 1 234.50, 1234,50. */
const AMOUNT = String.raw`\d{1,3}(?:['’\u00a0\u202f ]?\d{3})*[.,]\d{2}`;
const plainAmount = (printed: string) => printed.replace(/['’\u00a0\u202f ]/g, '').replace(',', '.');

/**
 * The VAT the document states, one entry per rate: a line "VAT|MWST|MwSt|TVA|IVA <rate>% on|auf|sur|su
 * <base> <tax>" (as the ledger's own invoices print it, and most Swiss bills). Rates stated
 * twice (a summary repeated) count once.
 */
export function statedVat(text: string): StatedVat[] {
  const pattern = new RegExp(
    String.raw`\b(?:VAT|MWST|MwSt\.?|TVA|IVA|USt\.?)\s+(\d{1,2}(?:[.,]\d{1,2})?)\s*%\s+(?:on|auf|sur|su)\s+` +
      `(${AMOUNT})\\s+(?:CHF\\s+|EUR\\s+)?(${AMOUNT})`,
    'gi',
  );
  const found = new Map<string, StatedVat>();
  for (const m of text.matchAll(pattern)) {
    const rate = m[1]!.replace(',', '.');
    if (!found.has(rate)) found.set(rate, { rate, base: plainAmount(m[2]!), tax: plainAmount(m[3]!) });
  }
  return [...found.values()];
}

/**
 * The invoice number the document prints: "Invoice RE-2024/117", "Invoice no. 117",
 * "Rechnung Nr. 2024/117", "Rechnungsnummer: 17", "Facture n° 17", "Fattura n. 17" — the first
 * such line; a number must hold a digit (so "Invoice date: …" is none).
 */
export function printedDocumentNumber(text: string): string | undefined {
  const pattern = new RegExp(
    String.raw`\b(?:invoice(?:\s*(?:no\.?|nr\.?|number|#))?|rechnung(?:s-?nummer|\s*(?:nr\.?|nummer))?|` +
      String.raw`facture(?:\s*(?:n°|no\.?|numéro))?|fattura(?:\s*(?:n\.?|nr\.?|numero))?)` +
      String.raw`\s*[:.]?\s+([A-Za-z0-9][\w./\\-]*)`,
    'gi',
  );
  for (const m of text.matchAll(pattern)) {
    const value = m[1]!.replace(/[.]+$/, '');
    if (/\d/.test(value)) return value;
  }
  return undefined;
}

/** An input tax account the company books VAT on, with its rate (a fraction, "0.081") on the bill's date. */
export interface InputTax {
  accno: string;
  rate: string;
}

/** The company itself, to know a QR-bill it issued (its own invoice) from a vendor's bill. */
export interface OwnCompany {
  name: string;
  /** whether the QR-bill's IBAN is one of the company's own bank accounts (IBAN or QR-IBAN) */
  ownsIban: boolean;
}

/** Whether the QR-bill's creditor is the company itself: its own bank account, or its own name. */
export function creditorIsCompany(qr: QrBill, company: OwnCompany): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  return company.ownsIban || norm(qr.creditor.name) === norm(company.name);
}

/**
 * The lines of the gross amount: one per VAT rate the document states (gross = base + tax,
 * on the input tax account of that rate), and the rest of the amount, if any, untaxed. Undefined
 * when the document states none, a rate has no input tax account, or the stated amounts do not
 * fit in the QR-bill's amount: then the amount stays one line.
 */
function statedVatLines(
  amount: string,
  vat: readonly StatedVat[],
  account: string,
  taxes: readonly InputTax[],
): Proposal['bill']['lines'] | undefined {
  if (vat.length === 0) return undefined;
  const cents = (s: string) => Math.round(Number(s) * 100);
  const lines: NonNullable<Proposal['bill']['lines']> = [];
  let rest = cents(amount);
  for (const v of vat) {
    const tax = taxes.find((t) => Math.round(Number(t.rate) * 1e6) === Math.round(Number(v.rate) * 1e4));
    if (!tax) return undefined;
    const gross = cents(v.base) + cents(v.tax);
    rest -= gross;
    lines.push({ account, amount: gross / 100, taxAccount: tax.accno });
  }
  if (rest < 0) return undefined;
  if (rest > 0) lines.push({ account, amount: rest / 100 });
  return lines;
}

// --- the proposal -------------------------------------------------------------------------

export interface VendorMatch {
  id: number;
  vendornumber: string;
  name: string;
  matched_by: 'iban' | 'name';
  /** the vendor's bank account with the QR-bill's IBAN, when it has one */
  bank_account_id?: number;
}

export interface UsualAccounts {
  account: string;
  taxAccount?: string;
  source: 'last_bill' | 'default';
}

/**
 * A document number as the ledger takes it: no control characters (a QR-bill's billing
 * information may carry a line break), each becomes "-"; slashes stay ("2024/0815" is the
 * bill's own number), so the proposal books as written.
 */
export function proposedDocumentNumber(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
  return raw.replace(/[\u0000-\u001F\u007F-\u009F]/g, '-').slice(0, 100);
}

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** What the proposal reads besides the QR-bill: the document's text and the company's books. */
export interface ProposalContext {
  /** the PDF's text (empty for images) */
  text: string;
  /** the input tax accounts with their rates */
  inputTaxes: readonly InputTax[];
  company: OwnCompany;
}

/**
 * The draft bill a QR-bill proposes: dated the billing information's invoice date (else
 * today), due after its net payment term; the amount as gross on the vendor's usual expense
 * account — split by the VAT rates the document states, each on its input tax account, else
 * one line on the usual tax account; the document number from the billing information, else
 * the invoice number the document prints (never the payment reference, which is the
 * payment's and goes to `paymentReference`); the vendor's bank account and the reference for
 * the payment file. A QR-bill that matches no vendor and whose creditor is the company itself
 * (its own invoice) proposes no new vendor and no bank account (`creditor_is_company`).
 */
export function proposeBill(
  qr: QrBill,
  vendor: VendorMatch | null,
  accounts: UsualAccounts | null,
  today: string,
  context: ProposalContext = { text: '', inputTaxes: [], company: { name: '', ownsIban: false } },
): Proposal {
  const invDate = qr.billing?.document_date ?? today;
  const documentNumber = qr.billing?.document_number ?? printedDocumentNumber(context.text);
  const description = [qr.creditor.name, qr.message].filter(Boolean).join(': ');
  const bill: Proposal['bill'] = { invDate, curr: qr.currency, taxincluded: true };
  if (vendor) bill.vendor_id = vendor.id;
  if (qr.billing?.payment_days !== undefined) bill.dueDate = addDays(invDate, qr.billing.payment_days);
  if (documentNumber) bill.documentNumber = proposedDocumentNumber(documentNumber);
  if (description) bill.description = description.slice(0, 2000);
  if (qr.amount && accounts) {
    bill.lines = statedVatLines(qr.amount, statedVat(context.text), accounts.account, context.inputTaxes) ?? [
      {
        account: accounts.account,
        amount: Number(qr.amount),
        ...(accounts.taxAccount ? { taxAccount: accounts.taxAccount } : {}),
      },
    ];
  }
  if (vendor?.bank_account_id) bill.vc_bank_id = vendor.bank_account_id;
  if (qr.reference) bill.paymentReference = qr.reference;
  const proposal: Proposal = { bill, account_source: accounts?.source ?? 'none' };
  // a vendor the books hold for this IBAN or name is the user's word; without one, the company itself is none
  if (!vendor && creditorIsCompany(qr, context.company)) {
    proposal.creditor_is_company = true;
    return proposal;
  }
  if (!vendor) {
    const c = qr.creditor;
    // a combined (K) address: line 1 is street and number, line 2 "postal code town"
    const town = c.zip ? undefined : /^([0-9]{4,5})\s+(.+)$/.exec(c.house_number ?? '');
    const zip = c.zip ?? town?.[1];
    const city = c.city ?? town?.[2];
    proposal.new_vendor = {
      name: c.name.slice(0, 200),
      ...(c.street ? { address1: c.street.slice(0, 200) } : {}),
      ...(c.house_number && !town ? { street: c.house_number.slice(0, 50) } : {}),
      ...(zip ? { zipcode: zip.slice(0, 20) } : {}),
      ...(city ? { city: city.slice(0, 100) } : {}),
      ...(c.country ? { country: c.country } : {}),
      ...(qr.billing?.vat_number ? { taxnumber: qr.billing.vat_number } : {}),
    };
  }
  if (!vendor?.bank_account_id) proposal.new_bank_account = { iban: qr.iban };
  return proposal;
}
