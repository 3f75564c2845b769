import t from 'tap';
import { isCreditorReference, isQrReference } from '@ledger/shared/references';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';
import { decodeQrCodes, parseSwissQr, pdfPagePng, pdfText } from '../../../test/support/pdf.ts';

const QR_IBAN = 'CH4431999123000889012';
const IBAN = 'CH9300762011623852957';

/** A company with the demo's address and CHF bank account (IBAN + QR-IBAN), a customer with an address and a vendor. */
async function setup(t: { teardown(fn: () => unknown): void }) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', {
    name: 'Beispiel GmbH',
    address1: 'Marktgasse',
    street: '28',
    zipcode: '3011',
    city: 'Bern',
    country: 'CH',
    // the texts below are the English ones (the company's language is German: sales.test.ts)
    language: 'en',
  });
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies', language: 'en' });
  if (customer.status !== 201 || vendor.status !== 201)
    throw new Error(`party setup failed: ${JSON.stringify([customer.body, vendor.body])}`);
  const invoice = (vc: 'customer' | 'vendor', extra: Record<string, unknown> = {}) => ({
    type: 'invoice',
    [`${vc}_id`]: (vc === 'customer' ? customer : vendor).body.id,
    invDate: '2024-03-15',
    items: [
      {
        description: 'Bookkeeping March',
        quantity: 12.5,
        unit: 'h',
        price: 150,
        account: CHART[vc].line,
        taxAccount: CHART[vc].tax,
      },
      {
        description: 'Annual report',
        quantity: 1,
        price: 480,
        discount: 10,
        account: CHART[vc].line,
        taxAccount: CHART[vc].tax,
      },
    ],
    ...extra,
  });
  /** GET …/pdf as bytes (the API client reads text) */
  const pdf = async (vc: string, id: number) => {
    const res = await fetch(`${ledger.url}/client/${co.dataset}/arap/invoice/${vc}/${id}/pdf`, {
      headers: { 'X-API-Key': co.apiKey },
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };
  return { ledger, co, api, invoice, pdf };
}

t.test(
  'a posted customer invoice gets a QR reference; its PDF shows the items and a QR-bill with the right payload',
  async (t) => {
    const s = await setup(t);
    const created = await s.api(
      'POST',
      '/arap/invoice/customer',
      s.invoice('customer', { pending: '0', terms: 30, notes: 'Thank you.' }),
    );
    t.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;
    const read = (await s.api('GET', `/arap/invoice/customer/${id}`)).body;
    t.ok(isQrReference(read.qr_reference), `a QR reference: ${read.qr_reference}`);
    t.equal(read.grossAmount, 2493.87, '1875.00 + 432.00 + tax per item 151.88 + 34.99');

    const res = await s.pdf('customer', id);
    t.equal(res.status, 200);
    t.equal(res.type, 'application/pdf');
    t.match(res.disposition, `inline; filename="${read.invNumber}.pdf"`);
    const text = await pdfText(res.bytes);
    for (const expected of [
      `Invoice ${read.invNumber}`,
      'Beispiel GmbH',
      'Marktgasse 28',
      'Bahnhofstrasse 1',
      'Bookkeeping March',
      "1'875.00",
      'Annual report',
      '432.00',
      'Total CHF',
      "2'493.87",
      'Payable within 30 days',
      'Thank you.',
    ]) {
      t.match(text, expected, `shows ${expected}`);
    }
    const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng(res.bytes)))[0]!);
    t.equal(qr.iban, QR_IBAN);
    t.equal(qr.amount, '2493.87');
    t.equal(qr.currency, 'CHF');
    t.equal(qr.referenceType, 'QRR');
    t.equal(qr.reference, read.qr_reference);
    t.equal(qr.debtor.name, 'Beispiel GmbH');

    const second = await s.api('POST', '/arap/invoice/customer', s.invoice('customer', { pending: '0' }));
    const secondRef = (await s.api('GET', `/arap/invoice/customer/${second.body.id}`)).body.qr_reference;
    t.ok(isQrReference(secondRef));
    t.not(secondRef, read.qr_reference, 'unique per company');
  },
);

t.test(
  'a draft gets its reference when approved, and keeps it; without QR-IBAN a creditor reference paid to the IBAN',
  async (t) => {
    const s = await setup(t);
    const body = s.invoice('customer');
    const draft = await s.api('POST', '/arap/invoice/customer', body);
    const id = draft.body.id as number;
    t.equal((await s.api('GET', `/arap/invoice/customer/${id}`)).body.qr_reference, null, 'a draft has none');
    const draftPdf = await s.pdf('customer', id);
    t.equal(draftPdf.status, 200);
    t.match(await pdfText(draftPdf.bytes), 'Draft — not for payment');
    t.same(await decodeQrCodes(await pdfPagePng(draftPdf.bytes)), [], 'no payment part on a draft');

    const approved = await s.api('POST', `/arap/invoice/customer/${id}/approve`, body);
    t.equal(approved.status, 200, JSON.stringify(approved.body));
    const reference = approved.body.qr_reference as string;
    t.ok(isQrReference(reference));

    // the invoice bank account loses its QR-IBAN: new invoices take a creditor reference, the old one keeps its own
    const company = (await s.api('GET', '/system/company')).body;
    t.equal((await s.api('POST', `/bank/accounts/${company.invoice_bank_account_id}`, { qr_iban: null })).status, 200);
    t.equal((await s.api('GET', `/arap/invoice/customer/${id}`)).body.qr_reference, reference, 'never changed');

    const scor = await s.api(
      'POST',
      '/arap/invoice/customer',
      s.invoice('customer', { pending: '0', curr: 'EUR', exchangerate: 0.95 }),
    );
    t.equal(scor.status, 201, JSON.stringify(scor.body));
    const scorRead = (await s.api('GET', `/arap/invoice/customer/${scor.body.id}`)).body;
    t.ok(isCreditorReference(scorRead.qr_reference), `a creditor reference: ${scorRead.qr_reference}`);
    const qr = parseSwissQr((await decodeQrCodes(await pdfPagePng((await s.pdf('customer', scor.body.id)).bytes)))[0]!);
    t.equal(qr.iban, IBAN);
    t.equal(qr.currency, 'EUR');
    t.equal(qr.referenceType, 'SCOR');
    t.equal(qr.reference, scorRead.qr_reference);
  },
);

t.test(
  'vendor invoices: a PDF without payment part and without reference; unknown ids 404; incomplete company address 409',
  async (t) => {
    const s = await setup(t);
    const bill = await s.api('POST', '/arap/invoice/vendor', s.invoice('vendor', { pending: '0' }));
    t.equal(bill.status, 201, JSON.stringify(bill.body));
    const res = await s.pdf('vendor', bill.body.id);
    t.equal(res.status, 200);
    const text = await pdfText(res.bytes);
    t.match(text, 'Vendor invoice');
    t.notMatch(text, 'Payment part');

    t.equal((await s.api('GET', '/arap/invoice/customer/999999/pdf')).status, 404);
    t.equal(
      (await s.api('GET', `/arap/invoice/customer/${bill.body.id}/pdf`)).status,
      404,
      'a vendor invoice is not a customer invoice',
    );

    const posted = await s.api('POST', '/arap/invoice/customer', s.invoice('customer', { pending: '0' }));
    t.equal((await s.api('POST', '/system/company', { street: null })).status, 200);
    const refused = await s.api('GET', `/arap/invoice/customer/${posted.body.id}/pdf`);
    t.equal(refused.status, 409);
    t.equal(refused.body.error.code, 'conflict');
    t.match(refused.body.error.message, 'street');
  },
);
