/**
 * Documents in the customer's language (docs/invoices.md "Languages"): the company's language
 * (German by default) for customers without one, the customer's own, `?language=` over both.
 * `pdftotext` of an invoice and a credit note in each language shows that language's title and,
 * on the invoice, the payment part's heading; the QR code carries the amount and reference.
 */
import t from 'tap';
import { LANGUAGES, type Language } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';
import { decodeQrCodes, parseSwissQr, pdfPagePng, pdfText } from '../../../test/support/pdf.ts';

const TITLES: Record<Language, { invoice: string; paymentPart: string; creditNote: string; total: string }> = {
  de: { invoice: 'Rechnung', paymentPart: 'Zahlteil', creditNote: 'Gutschrift', total: 'Total CHF' },
  fr: { invoice: 'Facture', paymentPart: 'Section paiement', creditNote: 'Note de crédit', total: 'Total CHF' },
  it: { invoice: 'Fattura', paymentPart: 'Sezione pagamento', creditNote: 'Nota di credito', total: 'Totale CHF' },
  en: { invoice: 'Invoice', paymentPart: 'Payment part', creditNote: 'Credit note', total: 'Total CHF' },
};

async function setup(t: { teardown(fn: () => unknown): void }) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = async (language?: Language) => {
    const res = await api('POST', '/arap/customer', {
      name: `Kunde ${language ?? 'ohne Sprache'}`,
      address1: 'Marktgasse',
      street: '28',
      zipcode: '3011',
      city: 'Bern',
      country: 'CH',
      ...(language ? { language } : {}),
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  const invoice = async (customerId: number) => {
    const res = await api('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customerId,
      invDate: '2024-03-15',
      terms: 30,
      pending: '0',
      items: [{ description: 'Beratung', quantity: 2, price: 150, account: CHART.customer.line, taxAccount: '2200' }],
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  const pdf = async (path: string) => {
    const res = await fetch(`${ledger.url}/client/${co.dataset}${path}`, { headers: { 'X-API-Key': co.apiKey } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  };
  return { api, customer, invoice, pdf };
}

t.test(
  'the company speaks German unless told otherwise; a customer and a vendor keep their own language',
  async (t) => {
    const s = await setup(t);
    t.equal((await s.api('GET', '/system/company')).body.language, 'de');
    const id = await s.customer('fr');
    t.equal((await s.api('GET', `/arap/customer/${id}`)).body.language, 'fr');
    const cleared = await s.api('POST', `/arap/customer/${id}`, { language: null });
    t.equal(cleared.status, 200, JSON.stringify(cleared.body));
    t.equal(cleared.body.language, null);
    const bad = await s.api('POST', '/arap/customer', { name: 'X', language: 'es' });
    t.equal(bad.status, 400);
    t.equal(bad.body.error.field, '/language');
    const vendor = await s.api('POST', '/arap/vendor', { name: 'Lieferant', language: 'it' });
    t.equal((await s.api('GET', `/arap/vendor/${vendor.body.id}`)).body.language, 'it');
    const changed = await s.api('POST', '/system/company', { language: 'it' });
    t.equal(changed.status, 200, JSON.stringify(changed.body));
    t.equal(changed.body.language, 'it');
    t.equal((await s.api('POST', '/system/company', { language: 'xx' })).status, 400);
  },
);

t.test('invoices and credit notes in each language: title, payment part, QR amount and reference', async (t) => {
  const s = await setup(t);
  for (const language of LANGUAGES) {
    const id = await s.invoice(await s.customer(language));
    const read = (await s.api('GET', `/arap/invoice/customer/${id}`)).body;
    const bytes = await s.pdf(`/arap/invoice/customer/${id}/pdf`);
    const text = await pdfText(bytes);
    const words = TITLES[language];
    t.match(text, `${words.invoice} ${read.invNumber}`, `${language}: the invoice's title`);
    t.match(text, words.paymentPart, `${language}: the payment part's heading`);
    t.match(text, words.total, `${language}: the total`);
    for (const other of LANGUAGES.filter((l) => l !== language)) {
      t.notMatch(text, TITLES[other].paymentPart, `${language}: not the ${other} heading`);
    }
    const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng(bytes)))[0]!);
    t.equal(qr.amount, '324.30', `${language}: the amount (300 + 8.1 % VAT)`);
    t.equal(qr.reference, read.qr_reference, `${language}: the reference`);

    const credit = await s.api('POST', `/arap/invoice/customer/${id}/credit_note`, {
      date: '2024-03-20',
      reason: 'Rabatt',
    });
    t.equal(credit.status, 201, JSON.stringify(credit.body));
    const creditRead = (await s.api('GET', `/arap/invoice/customer/${credit.body.id}`)).body;
    const creditBytes = await s.pdf(`/arap/invoice/customer/${credit.body.id}/pdf`);
    const creditText = await pdfText(creditBytes);
    t.match(creditText, `${words.creditNote} ${creditRead.invNumber}`, `${language}: the credit note's title`);
    t.notMatch(creditText, words.paymentPart, `${language}: a credit note has no payment part`);
    t.same(await decodeQrCodes(await pdfPagePng(creditBytes)), [], `${language}: no QR code on a credit note`);
  }
});

t.test("no language of its own: the company's; ?language= overrides both", async (t) => {
  const s = await setup(t);
  const id = await s.invoice(await s.customer());
  t.match(await pdfText(await s.pdf(`/arap/invoice/customer/${id}/pdf`)), 'Zahlteil', "the company's German");
  const french = await pdfText(await s.pdf(`/arap/invoice/customer/${id}/pdf?language=fr`));
  t.match(french, 'Section paiement');
  t.match(french, 'Facture');
  t.equal((await s.api('POST', '/system/company', { language: 'it' })).status, 200);
  t.match(await pdfText(await s.pdf(`/arap/invoice/customer/${id}/pdf`)), 'Sezione pagamento');
  const bad = await s.api('GET', `/arap/invoice/customer/${id}/pdf?language=es`);
  t.equal(bad.status, 400);
});
