import type { Decimal } from 'decimal.js';
import { displayAmount, formatDate, Money, translatorFor, type Language, type MessageKey } from '@ledger/shared';
import { drawsWinAnsi } from '../../domain/pdfText.ts';
import { figureKeys, netFigures, type NetTaxRate, type VatMethod } from './rules.ts';

/**
 * The VAT return as a PDF laid out like the ESTV's form (docs/vat.md "Formats"): the
 * taxable person and the period in a head block, then "I Turnover" (200, the deductions
 * 220–280, 289, 299) and "II Tax calculation" (per rate figure the supplies and the tax, 399,
 * the input tax 400/405, 479, and 500 or 510), each row with its figure number, the figure's
 * wording in the company's language (shared/src/i18n `vat.figure.*`) and its amount.
 * A4, standard fonts (domain/pdfText.ts), text that reads back through pdftotext. Pure.
 */

export interface VatPdfInput {
  language: Language;
  id: number;
  from: string;
  to: string;
  type: 'original' | 'correction';
  basis: 'agreed' | 'received';
  method: VatMethod;
  status: 'draft' | 'settled';
  currency: string;
  figures: Readonly<Record<string, Decimal>>;
  netTaxRates: readonly NetTaxRate[];
  createdAt: string;
  company: { name: string; vatNumber: string | null };
}

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

const TURNOVER = ['200', '220', '221', '230', '280', '289', '299'];
/** deductions and totals: the form indents the first, sets the second bold */
const DEDUCTIONS = new Set(['220', '221', '230', '280']);
const TOTALS = new Set(['200', '289', '299', '399', '479', '500', '510']);

export async function vatReturnPdf(input: VatPdfInput): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const t = translatorFor(input.language);
  const title = `${t('vat.return')} ${formatDate(input.from)} – ${formatDate(input.to)}`;
  const doc = drawsWinAnsi(
    new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Author: input.company.name } }),
  );
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const amount = (d: Decimal | undefined) => displayAmount((d ?? new Money(0)).toFixed(2));
  const wording = (figure: string) => t(`vat.figure.${figure}` as MessageKey);

  // columns: figure | wording | supplies | tax
  const X_FIGURE = MARGIN;
  const X_TEXT = MARGIN + 40;
  const W_AMOUNT = 85;
  const X_BASE = MARGIN + width - 2 * W_AMOUNT - 10;
  const X_TAX = MARGIN + width - W_AMOUNT;
  const W_TEXT = X_BASE - X_TEXT - 10;

  const row = (figure: string, text: string, base: string | null, tax: string | null, bold = false) => {
    doc.font(bold ? BOLD : FONT).fontSize(9);
    const indent = DEDUCTIONS.has(figure) ? 12 : 0;
    const height = Math.max(doc.heightOfString(text, { width: W_TEXT - indent }), 11);
    if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y;
    doc.text(figure, X_FIGURE, y, { width: 36 });
    doc.text(text, X_TEXT + indent, y, { width: W_TEXT - indent });
    if (base !== null) doc.text(base, X_BASE, y, { width: W_AMOUNT, align: 'right' });
    if (tax !== null) doc.text(tax, X_TAX, y, { width: W_AMOUNT, align: 'right' });
    doc.x = MARGIN;
    doc.y = y + height + 4;
  };
  // a part of the form: its roman numeral in the figure column, its title beside it
  const heading = (numeral: string, text: string, base: string | null, tax: string | null) => {
    doc.moveDown(0.8);
    const y = doc.y;
    doc.font(BOLD).fontSize(10).text(numeral, X_FIGURE, y, { width: 36 });
    doc.text(text, X_TEXT, y, { width: X_BASE - X_TEXT });
    doc.font(BOLD).fontSize(8);
    if (base !== null) doc.text(base, X_BASE, y + 1, { width: W_AMOUNT, align: 'right' });
    if (tax !== null) doc.text(tax, X_TAX, y + 1, { width: W_AMOUNT, align: 'right' });
    doc.x = MARGIN;
    doc.y = y + 15;
    doc
      .moveTo(MARGIN, doc.y - 2)
      .lineTo(MARGIN + width, doc.y - 2)
      .lineWidth(0.5)
      .stroke();
    doc.y += 2;
  };

  // head: the form's title, the taxable person, the period and how it reports
  doc.font(BOLD).fontSize(15).text(title, MARGIN, MARGIN);
  doc.moveDown(0.3);
  doc.font(FONT).fontSize(10).text(input.company.name);
  if (input.company.vatNumber) doc.text(`${t('vat.uid')}: ${input.company.vatNumber}`);
  doc.moveDown(0.3);
  doc.fontSize(9);
  doc.text(`${t('vat.period')}: ${formatDate(input.from)} – ${formatDate(input.to)}`);
  doc.text(`${t('vat.type')}: ${t(input.type === 'original' ? 'vat.type.original' : 'vat.type.correction')}`);
  doc.text(`${t('vat.method')}: ${t(input.method === 'effective' ? 'vat.method.effective' : 'vat.method.net_tax')}`);
  doc.text(`${t('vat.basis')}: ${t(input.basis === 'agreed' ? 'vat.basis.agreed' : 'vat.basis.received')}`);
  doc.text(`${t('vat.status')}: ${t(input.status === 'draft' ? 'vat.status.draft' : 'vat.status.settled')}`);

  heading('I', t('vat.form.turnover'), input.currency, null);
  for (const figure of TURNOVER) row(figure, wording(figure), amount(input.figures[figure]), null, TOTALS.has(figure));

  heading('II', t('vat.form.tax'), t('vat.base'), t('vat.tax'));
  const keys = figureKeys(input.method, input.netTaxRates, input.from);
  const netRate = (figure: string) => {
    const i = netFigures(input.from).indexOf(figure);
    const rate = input.netTaxRates[i]?.rate;
    return rate === undefined ? '' : ` (${new Money(rate).times(100).toFixed(2)} %)`;
  };
  for (const key of keys) {
    if (TURNOVER.includes(key) || key.endsWith('_tax')) continue;
    if (keys.includes(`${key}_tax`)) {
      const text = input.method === 'net_tax' ? `${wording(key)}${netRate(key)}` : wording(key);
      row(key, text, amount(input.figures[key]), amount(input.figures[`${key}_tax`]));
    } else {
      row(key, wording(key), null, amount(input.figures[key]), TOTALS.has(key));
    }
  }

  doc.moveDown(1.5);
  doc
    .font(FONT)
    .fontSize(8)
    .text(
      t('vat.form.prepared', { id: input.id, date: formatDate(input.createdAt), currency: input.currency }),
      MARGIN,
      doc.y,
      { width },
    );
  doc.end();
  return ended;
}
