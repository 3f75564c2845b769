import { drawsWinAnsi } from '../../domain/pdfText.ts';
import type { ReportTable } from './tables.ts';

/**
 * A report table as CSV (RFC 4180: CRLF, fields quoted when they hold a comma, quote or line
 * break; the header row first, then the rows as they are: machine-readable, no title lines)
 * or as PDF (A4, title, facts, the table with its header repeated on every page, totals bold).
 */
export function renderCsv(table: ReportTable): string {
  const field = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [table.columns.map((c) => c.title), ...table.rows.map((r) => r.cells)];
  return `${lines.map((cells) => cells.map(field).join(',')).join('\r\n')}\r\n`;
}

const MARGIN = 40;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const SIZE = 8;

export async function renderPdf(table: ReportTable, companyName: string): Promise<Buffer> {
  // read when the first PDF is made, not at start (pdfkit brings its fonts and decoders)
  const { default: PDFDocument } = await import('pdfkit');
  // every string in the standard fonts' characters (domain/pdfText.ts)
  const doc = drawsWinAnsi(
    new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: { Title: `${table.title} — ${companyName}`, Author: companyName },
    }),
  );
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // the columns stretched to the page's width
  const available = doc.page.width - 2 * MARGIN;
  const scale = available / table.columns.reduce((s, c) => s + c.width, 0);
  const xs: number[] = [];
  let x = MARGIN;
  for (const c of table.columns) {
    xs.push(x);
    x += c.width * scale;
  }
  const widths = table.columns.map((c) => c.width * scale - 4);

  const row = (cells: readonly string[], font: string) => {
    doc.font(font).fontSize(SIZE);
    const height = Math.max(...cells.map((text, i) => doc.heightOfString(text || ' ', { width: widths[i]! })));
    if (doc.y + height > doc.page.height - MARGIN) {
      doc.addPage();
      header();
      doc.font(font).fontSize(SIZE);
    }
    const y = doc.y;
    cells.forEach((text, i) => {
      doc.text(text, xs[i]!, y, { width: widths[i]!, align: table.columns[i]!.numeric ? 'right' : 'left' });
    });
    doc.x = MARGIN;
    doc.y = y + height + 3;
  };
  const header = () => {
    row(
      table.columns.map((c) => c.title),
      BOLD,
    );
    doc
      .moveTo(MARGIN, doc.y - 1)
      .lineTo(MARGIN + available, doc.y - 1)
      .lineWidth(0.5)
      .stroke();
    doc.y += 2;
  };

  doc.font(BOLD).fontSize(14).text(table.title, MARGIN, MARGIN);
  doc.font(FONT).fontSize(9).text(companyName);
  for (const fact of table.facts) doc.text(fact);
  doc.moveDown(1);
  header();
  for (const r of table.rows) row(r.cells, r.total ? BOLD : FONT);
  doc.end();
  return ended;
}
