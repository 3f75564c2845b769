import type { Data as QrBillData, Debtor as QrBillParty } from 'swissqrbill/types';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits, roundTo, translatorFor, type Language, type MessageKey } from '@ledger/shared';
import { formatReference } from 'swissqrbill/utils';
import { isQrIban, referenceTypeOf } from '@ledger/shared/references';
import { conflict } from '../../domain/errors.ts';
import { drawsWinAnsi } from '../../domain/pdfText.ts';

/**
 * The PDF of an invoice, a credit note or a quote (docs/invoices.md): company header, party
 * address, number and dates, items, tax per rate, totals, payment terms and notes on an A4
 * page; customer invoices in CHF or EUR end with a Swiss QR-bill payment part (swissqrbill on
 * pdfkit). Every text in the document's language (shared/src/i18n, `document.*`), the payment
 * part's too. Pure: the same input gives the same document (apart from pdfkit's creation date).
 */

export interface PostalAddress {
  street?: string | null;
  houseNumber?: string | null;
  zip?: string | null;
  city?: string | null;
  /** ISO 3166-1 alpha-2 */
  country?: string | null;
}

export interface InvoicePdfParty {
  name: string;
  address?: PostalAddress | null;
}

export interface InvoicePdfCompany extends InvoicePdfParty {
  vatNumber?: string | null;
  email?: string | null;
}

/** The company's invoice bank account. */
export interface InvoicePdfBankAccount {
  iban: string;
  qrIban?: string | null;
}

export interface InvoicePdfItem {
  description?: string | null;
  quantity: Decimal.Value;
  unit?: string | null;
  price: Decimal.Value;
  /** percent */
  discount?: Decimal.Value | null;
  amount: Decimal.Value;
}

export interface InvoicePdfTax {
  /** 0.081 for 8.1 %; null when the tax was given as an amount only */
  rate?: Decimal.Value | null;
  base: Decimal.Value;
  amount: Decimal.Value;
}

/** The subset of the invoice read shape the PDF shows. */
export interface InvoicePdfDocument {
  vc: 'customer' | 'vendor';
  /** what the document is (default an invoice): its title, and only invoices carry a payment part */
  kind?: 'invoice' | 'credit_note' | 'quote' | 'reminder';
  /** a reminder's level: its title (Zahlungserinnerung, 1. Mahnung, 2. Mahnung) */
  reminderLevel?: 1 | 2 | 3;
  /** a credit note's invoice number and reason */
  creditOf?: string | null;
  reason?: string | null;
  /** a quote's last day */
  validUntil?: string | null;
  invNumber: string;
  invDate: string;
  dueDate?: string | null;
  currency: string;
  description?: string | null;
  ordNumber?: string | null;
  poNumber?: string | null;
  items: InvoicePdfItem[];
  taxes: InvoicePdfTax[];
  netAmount: Decimal.Value;
  taxAmount: Decimal.Value;
  grossAmount: Decimal.Value;
  /** grossAmount − paid; the payment part asks for this amount when given */
  open?: Decimal.Value | null;
  /** payment terms in days */
  terms?: number | null;
  notes?: string | null;
  /** the payment slip reference (QR or creditor reference), set when the invoice is posted */
  qr_reference?: string | null;
}

export interface InvoicePdfInput {
  company: InvoicePdfCompany;
  /** the customer (or vendor) of the invoice */
  party: InvoicePdfParty;
  bankAccount?: InvoicePdfBankAccount | null;
  invoice: InvoicePdfDocument;
  /** the language of every text, the payment part's included */
  language: Language;
}

/** Currencies a QR-bill may carry (Swiss Implementation Guidelines QR-bill). */
export const QR_BILL_CURRENCIES = ['CHF', 'EUR'] as const;
type QrBillCurrency = (typeof QR_BILL_CURRENCIES)[number];
const isQrBillCurrency = (c: string): c is QrBillCurrency => (QR_BILL_CURRENCIES as readonly string[]).includes(c);

/** The address lines the QR-bill needs of a party, or the names of the missing fields. */
function structuredAddress(party: InvoicePdfParty): QrBillParty | string[] {
  const a = party.address ?? {};
  const missing = (['street', 'zip', 'city', 'country'] as const).filter((f) => !a[f]?.trim());
  if (missing.length > 0) return missing;
  return {
    name: party.name,
    address: a.street!.trim(),
    ...(a.houseNumber?.trim() ? { buildingNumber: a.houseNumber.trim() } : {}),
    zip: a.zip!.trim(),
    city: a.city!.trim(),
    country: a.country!.trim().toUpperCase(),
  };
}

/**
 * The QR-bill payment part of an invoice, or null when it carries none: only posted
 * customer invoices (they have a `qr_reference`) in CHF or EUR with a positive amount and
 * an invoice bank account. A QR reference is paid to the account's QR-IBAN, a creditor
 * reference to its IBAN. The company needs a complete address (409 otherwise); the
 * customer is named as debtor when its address is complete.
 */
export function qrBillDataOf(input: InvoicePdfInput): QrBillData | null {
  const { invoice, bankAccount } = input;
  const currency = invoice.currency.trim();
  const kind = invoice.kind ?? 'invoice';
  if (kind !== 'invoice' && kind !== 'reminder') return null;
  if (invoice.vc !== 'customer' || !isQrBillCurrency(currency) || !bankAccount || !invoice.qr_reference) return null;
  const due = new Money(invoice.open ?? invoice.grossAmount);
  if (new Money(invoice.grossAmount).lte(0)) return null;
  const reference = invoice.qr_reference;
  const type = referenceTypeOf(reference);
  const account = type === 'QRR' ? bankAccount.qrIban : type === 'SCOR' ? bankAccount.iban : null;
  if (!account || (type === 'QRR') !== isQrIban(account)) return null;

  const creditor = structuredAddress(input.company);
  if (Array.isArray(creditor)) {
    throw conflict(
      `the QR-bill needs the company's complete address (missing: ${creditor.join(', ')}); set it with POST ` +
        `/system/company`,
    );
  }
  const debtor = structuredAddress(input.party);
  return {
    currency,
    ...(due.gt(0) ? { amount: roundTo(due, currency).toNumber() } : {}),
    creditor: { ...creditor, account: account.replace(/\s+/g, '').toUpperCase() },
    ...(Array.isArray(debtor) ? {} : { debtor }),
    reference,
    message: translatorFor(input.language)(kind === 'reminder' ? 'document.qrReminderMessage' : 'document.qrMessage', {
      number: invoice.invNumber,
    }),
  };
}

// --- layout -------------------------------------------------------------------------------

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

/** Amount to the currency's minor unit with ' as thousands separator (Swiss style): 1'234.50. */
export function formatMoney(v: Decimal.Value, currency: string): string {
  const fixed = roundTo(v, currency).toFixed(minorUnits(currency));
  const [int, frac] = fixed.split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, "'");
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** A unit price: at least two decimals, up to the six an item may carry. */
function formatPrice(v: Decimal.Value): string {
  const m = new Money(v);
  return m.toFixed(Math.max(2, m.decimalPlaces()));
}

const formatQuantity = (v: Decimal.Value) => new Money(v).toString();
const formatPercent = (rate: Decimal.Value) => `${new Money(rate).times(100).toString()}%`;

function addressLines(party: InvoicePdfParty): string[] {
  const a = party.address ?? {};
  const street = [a.street, a.houseNumber].filter(Boolean).join(' ');
  const city = [a.zip, a.city].filter(Boolean).join(' ');
  return [
    party.name,
    street,
    [a.country && a.country !== 'CH' ? a.country : '', city].filter(Boolean).join('-'),
  ].filter(Boolean);
}

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** swissqrbill's name of a language. */
export const QR_BILL_LANGUAGE = { de: 'DE', fr: 'FR', it: 'IT', en: 'EN' } as const;

interface Column {
  title: MessageKey;
  x: number;
  width: number;
  align: 'left' | 'right';
}
const COLUMNS: Column[] = [
  { title: 'document.column.description', x: MARGIN, width: 215, align: 'left' },
  { title: 'document.column.quantity', x: 270, width: 50, align: 'right' },
  { title: 'document.column.unit', x: 326, width: 34, align: 'left' },
  { title: 'document.column.price', x: 362, width: 68, align: 'right' },
  { title: 'document.column.discount', x: 432, width: 38, align: 'right' },
  { title: 'document.column.amount', x: 472, width: 73, align: 'right' },
];

function tableRow(doc: PDFKit.PDFDocument, cells: string[], font: string): void {
  doc.font(font).fontSize(9);
  const height = Math.max(...cells.map((text, i) => doc.heightOfString(text, { width: COLUMNS[i]!.width })));
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
  const y = doc.y;
  cells.forEach((text, i) => {
    doc.text(text, COLUMNS[i]!.x, y, { width: COLUMNS[i]!.width, align: COLUMNS[i]!.align });
  });
  doc.x = MARGIN;
  doc.y = y + height + 4;
}

/** label … value, right-aligned under the Amount column. */
function totalRow(doc: PDFKit.PDFDocument, label: string, value: string, bold = false): void {
  doc.font(bold ? BOLD : FONT).fontSize(9);
  const y = doc.y;
  doc.text(label, 300, y, { width: 170, align: 'right' });
  doc.text(value, 472, y, { width: 73, align: 'right' });
  doc.x = MARGIN;
  doc.y = y + 14;
}

function header(doc: PDFKit.PDFDocument, company: InvoicePdfCompany): void {
  doc.font(BOLD).fontSize(14).text(company.name, MARGIN, MARGIN);
  doc.font(FONT).fontSize(9);
  const [, ...rest] = addressLines(company);
  for (const line of rest) doc.text(line);
  if (company.vatNumber) doc.text(company.vatNumber);
  if (company.email) doc.text(company.email);
}

function partyWindow(doc: PDFKit.PDFDocument, party: InvoicePdfParty): void {
  // right-hand window of a C5/6 envelope (Swiss layout): 118 mm from the left, 50 mm from the top
  doc.font(FONT).fontSize(10).text(addressLines(party).join('\n'), 335, 142, { width: 210 });
}

/** The document's title in its language: Rechnung, Facture, Gutschrift, Offerte, … */
export function documentTitle(t: Translate, inv: Pick<InvoicePdfDocument, 'vc' | 'kind' | 'reminderLevel'>): string {
  const kind = inv.kind ?? 'invoice';
  if (kind === 'reminder') return t(`document.reminder.${inv.reminderLevel ?? 1}`);
  if (kind === 'credit_note') return t('document.creditNote');
  if (kind === 'quote') return t('document.quote');
  return inv.vc === 'customer' ? t('document.invoice') : t('document.vendorInvoice');
}

function documentFacts(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument, t: Translate): void {
  const kind = inv.kind ?? 'invoice';
  doc
    .font(BOLD)
    .fontSize(16)
    .text(`${documentTitle(t, inv)} ${inv.invNumber}`, MARGIN, 230);
  if (kind === 'invoice' && inv.vc === 'customer' && !inv.qr_reference)
    doc.font(FONT).fontSize(9).fillColor('#a00').text(t('document.draft')).fillColor('black');
  doc.moveDown(0.5).font(FONT).fontSize(9);
  const facts: [string, string | null | undefined][] = [
    [kind === 'invoice' ? t('document.invoiceDate') : t('document.date'), inv.invDate],
    [t('document.dueDate'), kind === 'invoice' || kind === 'reminder' ? inv.dueDate : null],
    [t('document.validUntil'), inv.validUntil],
    [t('document.orderNumber'), inv.ordNumber],
    [t('document.yourOrder'), inv.poNumber],
    [
      t('document.reference'),
      kind === 'invoice' || kind === 'reminder' ? inv.qr_reference && formatReference(inv.qr_reference) : null,
    ],
    [t('document.reason'), inv.reason],
  ];
  for (const [label, value] of facts) {
    if (!value) continue;
    const y = doc.y;
    doc.text(`${label}:`, MARGIN, y, { width: 90 });
    doc.text(value, MARGIN + 90, y, { width: 300 });
  }
  if (inv.creditOf) doc.moveDown(0.5).text(t('document.creditOf', { number: inv.creditOf }), MARGIN, doc.y);
  if (inv.description) doc.moveDown(0.5).text(inv.description, MARGIN, doc.y, { width: 495 });
  doc.moveDown(1);
}

function items(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument, t: Translate): void {
  const currency = inv.currency.trim();
  tableRow(
    doc,
    COLUMNS.map((c) => t(c.title)),
    BOLD,
  );
  doc
    .moveTo(MARGIN, doc.y - 2)
    .lineTo(545, doc.y - 2)
    .lineWidth(0.5)
    .stroke();
  for (const item of inv.items) {
    tableRow(
      doc,
      [
        item.description ?? '',
        formatQuantity(item.quantity),
        item.unit ?? '',
        formatPrice(item.price),
        item.discount && !new Money(item.discount).isZero() ? `${new Money(item.discount).toString()}%` : '',
        formatMoney(item.amount, currency),
      ],
      FONT,
    );
  }
  doc
    .moveTo(MARGIN, doc.y - 2)
    .lineTo(545, doc.y - 2)
    .lineWidth(0.5)
    .stroke();
  doc.moveDown(0.3);
}

function totals(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument, t: Translate): void {
  const currency = inv.currency.trim();
  totalRow(doc, t('document.net'), formatMoney(inv.netAmount, currency));
  for (const tax of inv.taxes) {
    const rate = tax.rate === null || tax.rate === undefined ? '' : ` ${formatPercent(tax.rate)}`;
    totalRow(
      doc,
      t('document.vat', { rate, base: formatMoney(tax.base, currency) }),
      formatMoney(tax.amount, currency),
    );
  }
  totalRow(doc, t('document.total', { currency }), formatMoney(inv.grossAmount, currency), true);
  if (inv.open !== undefined && inv.open !== null && !new Money(inv.open).eq(inv.grossAmount)) {
    totalRow(doc, t('document.open', { currency }), formatMoney(inv.open, currency), true);
  }
}

function termsAndNotes(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument, t: Translate): void {
  doc.moveDown(1).font(FONT).fontSize(9);
  const kind = inv.kind ?? 'invoice';
  const line = (text: string) => doc.text(text, MARGIN, doc.y, { width: 495 });
  if (kind === 'credit_note') line(t('document.creditNoteUse'));
  else if (kind === 'reminder') {
    if (inv.dueDate) line(t('document.payableBy', { date: inv.dueDate }));
  } else if (kind === 'quote') {
    if (inv.validUntil) line(t('document.quoteValidity', { date: inv.validUntil }));
  } else if (inv.vc === 'customer' && inv.terms !== undefined && inv.terms !== null) {
    line(
      inv.terms === 0 || !inv.dueDate
        ? t('document.payableImmediately')
        : t('document.payableWithin', { days: inv.terms, date: inv.dueDate }),
    );
  } else if (inv.vc === 'customer' && inv.dueDate) {
    line(t('document.payableBy', { date: inv.dueDate }));
  }
  if (inv.notes) doc.moveDown(0.5).text(inv.notes, MARGIN, doc.y, { width: 495 });
}

/**
 * The document as a PDF (A4); the QR-bill payment part at the foot of the last page, or on a page of its own when it
 * does not fit.
 */
export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  // read when the first PDF is made, not at start (pdfkit brings its fonts and decoders)
  const [{ default: PDFDocument }, { SwissQRBill }] = await Promise.all([import('pdfkit'), import('swissqrbill/pdf')]);
  const qrBill = qrBillDataOf(input);
  const t = translatorFor(input.language);
  // every string in the standard fonts' characters, the payment part's too (domain/pdfText.ts)
  const doc = drawsWinAnsi(
    new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: { Title: `${documentTitle(t, input.invoice)} ${input.invoice.invNumber}`, Author: input.company.name },
    }),
  );
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  header(doc, input.company);
  partyWindow(doc, input.party);
  documentFacts(doc, input.invoice, t);
  items(doc, input.invoice, t);
  totals(doc, input.invoice, t);
  termsAndNotes(doc, input.invoice, t);
  if (qrBill) new SwissQRBill(qrBill, { language: QR_BILL_LANGUAGE[input.language] }).attachTo(doc);
  doc.end();
  return ended;
}
