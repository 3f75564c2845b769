import type { Data as QrBillData, Debtor as QrBillParty } from 'swissqrbill/types';
import type { Decimal } from 'decimal.js';
import { Money, minorUnits, roundTo } from '@ledger/shared';
import { formatReference } from 'swissqrbill/utils';
import { isQrIban, referenceTypeOf } from '@ledger/shared/references';
import { conflict } from '../../domain/errors.ts';
import { drawsWinAnsi } from '../../domain/pdfText.ts';

/**
 * The invoice PDF (docs/invoices.md): company header, party address, invoice number and
 * dates, items, tax per rate, totals, payment terms and notes on an A4 page; customer
 * invoices in CHF or EUR end with a Swiss QR-bill payment part (swissqrbill on pdfkit).
 * Pure: the same input gives the same document (apart from pdfkit's creation date).
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
    message: `Invoice ${invoice.invNumber}`,
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

interface Column {
  title: string;
  x: number;
  width: number;
  align: 'left' | 'right';
}
const COLUMNS: Column[] = [
  { title: 'Description', x: MARGIN, width: 215, align: 'left' },
  { title: 'Quantity', x: 270, width: 50, align: 'right' },
  { title: 'Unit', x: 326, width: 34, align: 'left' },
  { title: 'Price', x: 362, width: 68, align: 'right' },
  { title: 'Disc.', x: 432, width: 38, align: 'right' },
  { title: 'Amount', x: 472, width: 73, align: 'right' },
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

function documentFacts(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument): void {
  const title = inv.vc === 'customer' ? 'Invoice' : 'Vendor invoice';
  doc.font(BOLD).fontSize(16).text(`${title} ${inv.invNumber}`, MARGIN, 230);
  if (inv.vc === 'customer' && !inv.qr_reference)
    doc.font(FONT).fontSize(9).fillColor('#a00').text('Draft — not for payment').fillColor('black');
  doc.moveDown(0.5).font(FONT).fontSize(9);
  const facts: [string, string | null | undefined][] = [
    ['Invoice date', inv.invDate],
    ['Due date', inv.dueDate],
    ['Order number', inv.ordNumber],
    ['Your order', inv.poNumber],
    ['Reference', inv.qr_reference && formatReference(inv.qr_reference)],
  ];
  for (const [label, value] of facts) {
    if (!value) continue;
    const y = doc.y;
    doc.text(`${label}:`, MARGIN, y, { width: 90 });
    doc.text(value, MARGIN + 90, y, { width: 300 });
  }
  if (inv.description) doc.moveDown(0.5).text(inv.description, MARGIN, doc.y, { width: 495 });
  doc.moveDown(1);
}

function items(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument): void {
  const currency = inv.currency.trim();
  tableRow(
    doc,
    COLUMNS.map((c) => c.title),
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

function totals(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument): void {
  const currency = inv.currency.trim();
  totalRow(doc, 'Net', formatMoney(inv.netAmount, currency));
  for (const t of inv.taxes) {
    const rate = t.rate === null || t.rate === undefined ? '' : ` ${formatPercent(t.rate)}`;
    totalRow(doc, `VAT${rate} on ${formatMoney(t.base, currency)}`, formatMoney(t.amount, currency));
  }
  totalRow(doc, `Total ${currency}`, formatMoney(inv.grossAmount, currency), true);
  if (inv.open !== undefined && inv.open !== null && !new Money(inv.open).eq(inv.grossAmount)) {
    totalRow(doc, `Open ${currency}`, formatMoney(inv.open, currency), true);
  }
}

function termsAndNotes(doc: PDFKit.PDFDocument, inv: InvoicePdfDocument): void {
  doc.moveDown(1).font(FONT).fontSize(9);
  const due = inv.dueDate ? ` (due ${inv.dueDate})` : '';
  if (inv.vc === 'customer' && inv.terms !== undefined && inv.terms !== null) {
    doc.text(
      inv.terms === 0 ? `Payable immediately${due}.` : `Payable within ${inv.terms} days${due}.`,
      MARGIN,
      doc.y,
      { width: 495 },
    );
  } else if (inv.vc === 'customer' && inv.dueDate) {
    doc.text(`Payable by ${inv.dueDate}.`, MARGIN, doc.y, { width: 495 });
  }
  if (inv.notes) doc.moveDown(0.5).text(inv.notes, MARGIN, doc.y, { width: 495 });
}

/**
 * The invoice as a PDF (A4); the QR-bill payment part at the foot of the last page, or on a page of its own when it
 * does not fit.
 */
export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  // read when the first PDF is made, not at start (pdfkit brings its fonts and decoders)
  const [{ default: PDFDocument }, { SwissQRBill }] = await Promise.all([import('pdfkit'), import('swissqrbill/pdf')]);
  const qrBill = qrBillDataOf(input);
  // every string in the standard fonts' characters, the payment part's too (domain/pdfText.ts)
  const doc = drawsWinAnsi(
    new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: { Title: `Invoice ${input.invoice.invNumber}`, Author: input.company.name },
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
  documentFacts(doc, input.invoice);
  items(doc, input.invoice);
  totals(doc, input.invoice);
  termsAndNotes(doc, input.invoice);
  if (qrBill) new SwissQRBill(qrBill, { language: 'EN' }).attachTo(doc);
  doc.end();
  return ended;
}
