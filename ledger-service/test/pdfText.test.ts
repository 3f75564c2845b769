/**
 * Every PDF the product makes reads back as written through poppler's `pdftotext`: the
 * invoice with its QR-bill payment part, the invoice as attached to its e-mail and to a
 * reminder, and the four reports (trial balance, income statement, balance sheet, VAT) —
 * each report's every cell, compared with the same report as CSV — and the VAT return's form. PDFs are set in the
 * standard fonts, which lack characters such as U+2212 (minus): such a character used to come
 * out as garbage (`(output " input)`); the product's own text keeps to the fonts, and what a
 * user wrote that the fonts lack is spelled in characters they have (domain/pdfText.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { csvRows } from '../src/modules/bankTransactions/csv.ts';
import { winAnsiText } from '../src/domain/pdfText.ts';
import { CHART } from './arapHelpers.ts';
import { startMailScenario } from './support/mailLedger.ts';

const run = promisify(execFile);

/** The PDF's text in content order (`pdftotext -raw`), every run of white space as one space. */
async function textOf(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-pdftext-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-raw', '-enc', 'UTF-8', join(dir, 'doc.pdf'), '-']);
    return squeeze(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

t.test('every PDF the product makes reads back as written', async (t) => {
  const { api, ledger, co, smtp, customerId } = await startMailScenario(t);
  const get = async (path: string, accept: string) => {
    const res = await fetch(`${ledger.url}/client/${co.dataset}${path}`, {
      headers: { 'X-API-Key': co.apiKey, Accept: accept },
    });
    t.equal(res.status, 200, `${path} as ${accept}`);
    return Buffer.from(await res.arrayBuffer());
  };
  const ok = async (path: string, body: Record<string, unknown>) => {
    const res = await api('POST', path, body);
    if (res.status >= 300) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok('/system/company', { reminder_fee_account: CHART.customer.line });
  const vendor = await ok('/arap/vendor', { name: 'Lieferant Müller & Söhne AG' });
  await ok('/arap/transaction/vendor', {
    type: 'transaction',
    vendor_id: vendor.id,
    invDate: '2024-03-10',
    documentNumber: 'L/2024/9',
    pending: '0',
    lines: [{ account: CHART.vendor.line, amount: 500, taxAccount: CHART.vendor.tax }],
  });
  const description = 'Beratung – Zürich “Q1” … 50 % Rabatt, 2 × à 150 €';
  const invoice = await ok('/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invNumber: '2024/117',
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    notes: 'Zahlbar innert 30 Tagen — merci!',
    items: [{ description, quantity: 2, price: 150, account: CHART.customer.line, taxAccount: CHART.customer.tax }],
  });
  const read = (await api('GET', `/arap/invoice/customer/${invoice.id}`)).body;
  const written = [
    'Invoice',
    '2024/117',
    description,
    'Zahlbar innert 30 Tagen — merci!',
    'Beispiel GmbH',
    'Marktgasse 28',
    '3011 Bern',
    String(read.grossAmount.toFixed(2)),
    'Receipt',
    'Payment part',
  ];

  const checkInvoice = async (what: string, pdf: Buffer) => {
    const text = await textOf(pdf);
    for (const s of written) t.ok(text.includes(squeeze(s)), `${what}: ${JSON.stringify(s)} as written`);
    t.notMatch(text, /\uFFFD/, `${what}: no replacement character`);
  };
  await checkInvoice('invoice PDF', await get(`/arap/invoice/customer/${invoice.id}/pdf`, 'application/pdf'));

  await ok(`/arap/invoice/customer/${invoice.id}/email`, {});
  await ok(`/arap/invoice/customer/${invoice.id}/reminder`, { fee: 20 });
  for (let i = 0; i < 300 && smtp.received.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  t.equal(smtp.received.length, 2, 'the e-mail and the reminder arrived');
  for (const mail of smtp.received) {
    const attachment = mail.parsed.attachments[0]!;
    await checkInvoice(`${mail.parsed.subject}: attachment`, Buffer.from(attachment.content as ArrayBuffer));
  }

  const period = 'from=2024-01-01&to=2024-12-31';
  for (const path of [
    `/reports/trial_balance?${period}`,
    `/reports/income_statement?${period}`,
    '/reports/balance_sheet?date=2024-12-31',
    `/reports/vat?${period}`,
  ]) {
    const text = await textOf(await get(path, 'application/pdf'));
    const cells = csvRows((await get(path, 'text/csv')).toString('utf8'))
      .flat()
      .filter((c) => c.trim() !== '');
    t.ok(cells.length > 10, `${path}: the report has rows`);
    const missing = cells.filter((c) => !text.includes(squeeze(c)));
    t.same(missing, [], `${path}: every cell of the report reads back from its PDF as written`);
    t.notMatch(text, /\uFFFD/, `${path}: no replacement character`);
  }

  // the VAT return laid out like the ESTV form (docs/vat.md "Formats"), in the company's language
  const vatReturn = await ok('/reports/vat/returns', { from: '2024-01-01', to: '2024-03-31' });
  const form = await textOf(await get(`/reports/vat/returns/${vatReturn.id}`, 'application/pdf'));
  for (const figure of ['200', '303', '399', '479']) {
    const amount = String(vatReturn.figures[figure].toFixed(2)).replace(/\B(?=(\d{3})+(?!\d))/g, "'");
    const row = new RegExp(`(^| )${figure} [^|]{1,120}? ${amount.replace('.', '\\.')}( |$)`);
    t.match(form, row, `VAT form: the row of figure ${figure} shows ${amount}`);
  }
  t.notMatch(form, /\uFFFD/, 'VAT form: no replacement character');
});

t.test('text the standard fonts lack is spelled in characters they have', async (t) => {
  t.equal(winAnsiText('output − input'), 'output - input', 'U+2212 minus');
  t.equal(winAnsiText('a ≤ b ≥ c'), 'a <= b >= c');
  t.equal(winAnsiText('1\u202f000\u2009CHF'), '1 000 CHF', 'narrow and thin spaces');
  t.equal(
    winAnsiText('Dvořák Łódź Őrség'),
    'Dvorák ?ódz Orség',
    'marks the font lacks go; a letter without a base is "?"',
  );
  t.equal(winAnsiText('Zürich – “Q1” … € Œuvre Šibenik'), 'Zürich – “Q1” … € Œuvre Šibenik', 'what the font has stays');
  t.equal(winAnsiText('中文'), '??');
});
