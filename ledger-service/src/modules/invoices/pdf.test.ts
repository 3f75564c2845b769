import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { DomainError } from '../../domain/errors.ts';
import { decodeQrCodes, parseSwissQr, pdfPageCount, pdfPagePng, pdfText } from '../../../test/support/pdf.ts';
import { formatMoney, qrBillDataOf, renderInvoicePdf, type InvoicePdfInput } from './pdf.ts';

const QR_IBAN = 'CH4431999123000889012';
const IBAN = 'CH5800791123000889012';

/** A posted two-item customer invoice in CHF, paid to a QR-IBAN. */
function twoItemInvoice(
  over: Partial<InvoicePdfInput['invoice']> = {},
  input: Partial<InvoicePdfInput> = {},
): InvoicePdfInput {
  return {
    company: {
      name: 'Muster Treuhand AG',
      address: { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: 'CH' },
      vatNumber: 'CHE-123.456.788 MWST',
      email: 'billing@muster.example',
    },
    party: {
      name: 'Beispiel GmbH',
      address: { street: 'Marktgasse', houseNumber: '28', zip: '3011', city: 'Bern', country: 'CH' },
    },
    bankAccount: { iban: IBAN, qrIban: QR_IBAN },
    language: 'en',
    invoice: {
      vc: 'customer',
      invNumber: 'RE-000042',
      invDate: '2024-03-15',
      dueDate: '2024-04-14',
      currency: 'CHF',
      ordNumber: 'ORD-7',
      items: [
        { description: 'Bookkeeping March', quantity: 12.5, unit: 'h', price: 150, amount: 1875 },
        { description: 'Annual report', quantity: 1, unit: 'pcs', price: 480.123456, discount: 10, amount: 432.11 },
      ],
      taxes: [{ rate: 0.081, base: 2307.11, amount: 186.88 }],
      netAmount: 2307.11,
      taxAmount: 186.88,
      grossAmount: 2493.99,
      open: 2493.99,
      terms: 30,
      notes: 'Thank you for your trust.',
      qr_reference: '000000000000000000000042420',
      ...over,
    },
    ...input,
  };
}

t.test('the PDF shows company, customer, number, dates, items, tax per rate, totals, terms and notes', async (t) => {
  const pdf = await renderInvoicePdf(twoItemInvoice());
  t.equal(pdf.subarray(0, 5).toString(), '%PDF-', 'a PDF');
  t.equal(await pdfPageCount(pdf), 1, 'two items and the payment part fit on one page');
  const text = await pdfText(pdf);
  for (const expected of [
    'Muster Treuhand AG',
    'Bahnhofstrasse 1',
    '8001 Zürich',
    'CHE-123.456.788 MWST',
    'billing@muster.example',
    'Beispiel GmbH',
    'Marktgasse 28',
    '3011 Bern',
    'Invoice RE-000042',
    '2024-03-15',
    '2024-04-14',
    'ORD-7',
    'Bookkeeping March',
    '12.5',
    '150.00',
    "1'875.00",
    'Annual report',
    '480.123456',
    '10%',
    '432.11',
    'Net',
    "2'307.11",
    "VAT 8.1% on 2'307.11",
    '186.88',
    'Total CHF',
    "2'493.99",
    'Payable within 30 days (due 2024-04-14).',
    'Thank you for your trust.',
    'Payment part',
    'Receipt',
    'Account / Payable to',
    'CH44 3199 9123 0008 8901 2',
    '00 00000 00000 00000 00000 42420',
  ])
    t.match(text, expected, `shows ${expected}`);
  t.notMatch(text, 'Draft', 'a posted invoice is not marked as draft');
});

t.test('the QR code on the rendered page carries IBAN, amount, currency, reference and debtor', async (t) => {
  const noNetwork = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error('the QR decoder must not download anything'));
  t.teardown(() => {
    globalThis.fetch = noNetwork;
  });

  const pdf = await renderInvoicePdf(twoItemInvoice());
  const png = await pdfPagePng(pdf, 1, 200);
  if (process.env.INVOICE_EXAMPLE_PNG) await writeFile(process.env.INVOICE_EXAMPLE_PNG, png);
  const codes = await decodeQrCodes(png);
  t.equal(codes.length, 1, 'one QR code on the page');
  const qr = parseSwissQr(codes[0]!);
  t.equal(qr.iban, QR_IBAN, 'the QR-IBAN');
  t.equal(qr.amount, '2493.99');
  t.equal(qr.currency, 'CHF');
  t.equal(qr.referenceType, 'QRR');
  t.equal(qr.reference, '000000000000000000000042420');
  t.equal(qr.message, 'Invoice RE-000042');
  t.same(qr.creditor, {
    name: 'Muster Treuhand AG',
    street: 'Bahnhofstrasse',
    houseNumber: '1',
    zip: '8001',
    city: 'Zürich',
    country: 'CH',
  });
  t.same(qr.debtor, {
    name: 'Beispiel GmbH',
    street: 'Marktgasse',
    houseNumber: '28',
    zip: '3011',
    city: 'Bern',
    country: 'CH',
  });
});

t.test('a creditor reference is paid to the IBAN; EUR; the open amount of a partly paid invoice', async (t) => {
  const input = twoItemInvoice(
    { currency: 'EUR', qr_reference: 'RF18539007547034', open: 1000.5 },
    { bankAccount: { iban: IBAN, qrIban: null } },
  );
  const codes = await decodeQrCodes(await pdfPagePng(await renderInvoicePdf(input)));
  const qr = parseSwissQr(codes[0]!);
  t.equal(qr.iban, IBAN);
  t.equal(qr.currency, 'EUR');
  t.equal(qr.amount, '1000.50', 'the open amount');
  t.equal(qr.referenceType, 'SCOR');
  t.equal(qr.reference, 'RF18539007547034');
  t.match(await pdfText(await renderInvoicePdf(input)), /Open EUR\s+1'000\.50/);
});

t.test('no payment part: vendor invoices, other currencies, drafts, credit notes, no bank account', async (t) => {
  t.equal(qrBillDataOf(twoItemInvoice({ vc: 'vendor' })), null, 'vendor invoice');
  t.equal(qrBillDataOf(twoItemInvoice({ currency: 'USD' })), null, 'USD');
  t.equal(qrBillDataOf(twoItemInvoice({ qr_reference: null })), null, 'draft (no reference yet)');
  t.equal(qrBillDataOf(twoItemInvoice({ grossAmount: -10, open: -10 })), null, 'credit note');
  t.equal(qrBillDataOf(twoItemInvoice({}, { bankAccount: null })), null, 'no invoice bank account');
  t.equal(qrBillDataOf(twoItemInvoice({}, { bankAccount: { iban: IBAN } })), null, 'a QR reference without a QR-IBAN');

  const draft = await renderInvoicePdf(twoItemInvoice({ qr_reference: null }));
  const text = await pdfText(draft);
  t.match(text, 'Draft — not for payment');
  t.notMatch(text, 'Payment part');
  t.same(await decodeQrCodes(await pdfPagePng(draft)), [], 'no QR code');

  const vendor = await pdfText(await renderInvoicePdf(twoItemInvoice({ vc: 'vendor', qr_reference: null })));
  t.match(vendor, 'Vendor invoice RE-000042');
  t.notMatch(vendor, 'Payment part');
  t.notMatch(vendor, 'Payable within', 'no payment terms on a vendor invoice');
});

t.test('the debtor is left out when the customer address is incomplete; the company address is required', async (t) => {
  const noAddress = qrBillDataOf(twoItemInvoice({}, { party: { name: 'Walk-in customer' } }));
  t.ok(noAddress, 'still a payment part');
  t.notOk(noAddress && 'debtor' in noAddress, 'without debtor');

  const error = t.throws(() =>
    qrBillDataOf(twoItemInvoice({}, { company: { name: 'No Address AG', address: { city: 'Basel', country: 'CH' } } })),
  );
  t.ok(error instanceof DomainError, 'a domain error');
  t.equal((error as DomainError).code, 'conflict');
  t.match((error as DomainError).message, 'missing: street, zip');
});

t.test('many items flow onto further pages; the payment part still decodes', async (t) => {
  const items = Array.from({ length: 60 }, (_, i) => ({
    description: `Service line ${i + 1}`,
    quantity: 1,
    price: 10,
    amount: 10,
  }));
  const pdf = await renderInvoicePdf(
    twoItemInvoice({ items, taxes: [], netAmount: 600, taxAmount: 0, grossAmount: 600, open: 600 }),
  );
  const pages = await pdfPageCount(pdf);
  t.ok(pages >= 2, `${pages} pages`);
  const text = await pdfText(pdf);
  t.match(text, 'Service line 1');
  t.match(text, 'Service line 60');
  const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng(pdf, pages)))[0]!);
  t.equal(qr.amount, '600.00', 'the QR code is on the last page');
});

t.test('money is formatted to the minor unit with Swiss thousands separators', async (t) => {
  t.equal(formatMoney(1234567.5, 'CHF'), "1'234'567.50");
  t.equal(formatMoney('0.005', 'CHF'), '0.01', 'half away from zero');
  t.equal(formatMoney(-1000, 'CHF'), "-1'000.00");
  t.equal(formatMoney(1234, 'JPY'), "1'234");
});
