import t from 'tap';
import type { LedgerConfig } from '../../config.ts';
import { apiClient, createTestCompany } from '../../../test/helpers.ts';
import { startInboxLedger } from '../../../test/support/inboxLedger.ts';
import { assertAnswerMatchesContract } from '../../../test/support/answerContract.ts';
import { fixture, IMAGE_PDF, PHOTO, VECTOR } from '../../../test/fixtures/inbox/fixtures.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function scenario(t: Teardown, overrides: Partial<LedgerConfig> = {}) {
  const ledger = await startInboxLedger(t, overrides);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const base = `${ledger.url}/client/${co.dataset}`;
  const headers = { 'X-API-Key': co.apiKey };

  /** multipart upload of a fixture (or any bytes) */
  const uploadFile = async (name: string, data: Buffer, type: string, key = co.apiKey) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    const res = await fetch(`${base}/documents/inbox`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
    const body = (await res.json()) as any;
    assertAnswerMatchesContract({
      method: 'POST',
      url: res.url,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body,
    });
    return { status: res.status, body };
  };
  const uploadJson = (body: Record<string, unknown>) => api('POST', '/documents/inbox', body);

  /** polls the entry until extraction has run (no timing assertion: only a generous bound against hanging) */
  const settled = async (id: number) => {
    for (let i = 0; i < 600; i++) {
      const res = await api('GET', `/documents/inbox/${id}`);
      if (res.body.status !== 'new') return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`inbox entry ${id} was not extracted`);
  };
  return { ledger, co, api, base, headers, uploadFile, uploadJson, settled };
}

t.test(
  "a vector QR-bill PDF (invoices module): read, vendor matched by IBAN, proposal on its last bill's accounts",
  async (t) => {
    const s = await scenario(t);
    const vendor = await s.api('POST', '/arap/vendor', { name: 'Treuhand Muster' });
    const bank = await s.api('POST', `/arap/vendor/${vendor.body.id}/bank_accounts`, {
      iban: 'CH44 3199 9123 0008 8901 2',
    });
    t.equal(bank.status, 201);
    // its last posted bill: 6500 with input tax 1170 (an older one on 4000 does not count)
    await s.api('POST', '/arap/transaction/vendor', {
      vendor_id: vendor.body.id,
      invDate: '2024-01-10',
      pending: '0',
      lines: [{ account: '4000', amount: 10 }],
    });
    const last = await s.api('POST', '/arap/transaction/vendor', {
      vendor_id: vendor.body.id,
      invDate: '2024-02-10',
      pending: '0',
      lines: [
        { account: '6500', amount: 50, taxAccount: '1170' },
        { account: '4000', amount: 5 },
      ],
    });
    t.equal(last.status, 201, JSON.stringify(last.body));

    const up = await s.uploadFile('muster.pdf', fixture(VECTOR.file), 'application/pdf');
    t.equal(up.status, 201, JSON.stringify(up.body));
    t.equal(up.body.status, 'new', 'answers at once, before extraction');
    t.equal(up.body.media_type, 'application/pdf');
    t.equal(up.body.size, fixture(VECTOR.file).length);
    const entry = await s.settled(up.body.id);
    t.equal(entry.status, 'extracted');
    const x = entry.extracted;
    t.equal(x.iban, VECTOR.iban);
    t.equal(x.amount, VECTOR.amount);
    t.equal(x.currency, 'CHF');
    t.equal(x.reference_type, 'QRR');
    t.equal(x.reference, VECTOR.reference);
    t.same(x.creditor, {
      name: 'Muster Treuhand AG',
      street: 'Bahnhofstrasse',
      house_number: '1',
      zip: '8001',
      city: 'Zürich',
      country: 'CH',
    });
    t.equal(x.message, 'Invoice RE-000042');
    t.same(x.vendor, {
      id: vendor.body.id,
      vendornumber: vendor.body.vendornumber,
      name: 'Treuhand Muster',
      matched_by: 'iban',
    });
    t.match(entry.text, /Invoice RE-000042/, 'the PDF text is kept');
    const p = x.proposal;
    t.equal(p.account_source, 'last_bill');
    t.same(p.bill.lines, [{ account: '6500', amount: VECTOR.amount, taxAccount: '1170' }]);
    t.equal(p.bill.vendor_id, vendor.body.id);
    t.equal(p.bill.vc_bank_id, bank.body.id);
    t.equal(p.bill.paymentReference, VECTOR.reference);
    t.equal(p.bill.documentNumber, 'RE-000042', 'no billing information: the number the PDF prints, not the reference');
    t.equal(p.bill.taxincluded, true);
    t.notOk(p.new_vendor);
    t.notOk(p.new_bank_account);

    // booking with an override: the draft carries the vendor's bank account and the file
    const booked = await s.api('POST', `/documents/inbox/${up.body.id}/book`, {
      overrides: { documentNumber: 'RE-000042' },
    });
    t.equal(booked.status, 201, JSON.stringify(booked.body));
    t.equal(booked.body.vendor_id, vendor.body.id);
    const bill = (await s.api('GET', `/arap/transaction/vendor/${booked.body.transaction_id}`)).body;
    t.equal(bill.status, 'draft');
    t.equal(bill.documentNumber, 'RE-000042');
    t.equal(bill.vc_bank_id, bank.body.id);
    t.equal(bill.paymentReference, VECTOR.reference, 'the QR reference, for the payment file');
    t.equal(bill.grossAmount, VECTOR.amount);
    t.same(
      bill.lines.map((l: any) => [l.account, l.taxAccount]),
      [['6500', '1170']],
    );
    t.equal(bill.files.length, 1);
    const parties = (await s.api('GET', '/arap/vendor')).body;
    t.equal(parties.length, 1, 'no vendor was created');
    const again = await s.api('POST', `/documents/inbox/${up.body.id}/book`, {});
    t.equal(again.status, 409, 'booked once');
    t.equal((await s.api('GET', `/documents/inbox/${up.body.id}`)).body.status, 'booked');
  },
);

t.test(
  'an image-only PDF (pdfkit + another QR writer): new vendor proposed; booking creates vendor, bank account and ' +
    'draft with the file',
  async (t) => {
    const s = await scenario(t);
    const data = fixture(IMAGE_PDF.file);
    const up = await s.uploadJson({
      name: 'meier.pdf',
      data: `data:application/pdf;base64,${data.toString('base64')}`,
    });
    t.equal(up.status, 201, JSON.stringify(up.body));
    const entry = await s.settled(up.body.id);
    t.equal(entry.status, 'extracted');
    const x = entry.extracted;
    t.equal(x.iban, IMAGE_PDF.iban);
    t.equal(x.amount, IMAGE_PDF.amount);
    t.equal(x.reference_type, 'SCOR');
    t.equal(x.reference, IMAGE_PDF.reference);
    t.equal(x.billing_information, '//S1/10/R-2024-117/11/240310/30/106017086/40/0:30');
    t.same(x.billing, {
      document_number: 'R-2024-117',
      document_date: '2024-03-10',
      vat_number: 'CHE-106.017.086',
      payment_days: 30,
    });
    t.equal(x.vendor, null);
    const p = x.proposal;
    t.same(p.new_vendor, {
      name: 'Papeterie Meier GmbH',
      address1: 'Seestrasse',
      street: '12',
      zipcode: '8002',
      city: 'Zürich',
      country: 'CH',
      taxnumber: 'CHE-106.017.086',
    });
    t.same(p.new_bank_account, { iban: IMAGE_PDF.iban });
    t.equal(p.bill.invDate, IMAGE_PDF.invDate, 'the billing information dates the bill');
    t.equal(p.bill.dueDate, IMAGE_PDF.dueDate, '30 days net');
    t.equal(p.bill.documentNumber, IMAGE_PDF.documentNumber);
    t.equal(p.account_source, 'default', "no bill of this vendor yet: the chart's first expense account");
    t.equal(p.bill.lines.length, 1);
    t.equal(p.bill.description, 'Papeterie Meier GmbH: Büromaterial März');

    const booked = await s.api('POST', `/documents/inbox/${up.body.id}/book`);
    t.equal(booked.status, 201, JSON.stringify(booked.body));
    const vendor = (await s.api('GET', `/arap/vendor/${booked.body.vendor_id}`)).body;
    t.equal(vendor.name, 'Papeterie Meier GmbH');
    t.equal(vendor.city, 'Zürich');
    const accounts = (await s.api('GET', `/arap/vendor/${booked.body.vendor_id}/bank_accounts`)).body;
    t.same(
      accounts.map((a: any) => a.iban),
      [IMAGE_PDF.iban],
    );
    const bill = (await s.api('GET', `/arap/transaction/vendor/${booked.body.transaction_id}`)).body;
    t.equal(bill.status, 'draft');
    t.equal(bill.vc_bank_id, accounts[0].id);
    t.equal(bill.invDate, IMAGE_PDF.invDate);
    t.equal(bill.documentNumber, IMAGE_PDF.documentNumber);
    t.equal(bill.grossAmount, IMAGE_PDF.amount);
    t.equal(bill.paymentReference, IMAGE_PDF.reference, 'the reference goes to the payment file');
    t.equal(bill.files[0].name, 'meier.pdf');
    const download = await fetch(bill.files[0].url, { headers: s.headers });
    t.same(Buffer.from(await download.arrayBuffer()), data, 'the attachment is the uploaded file');

    // one document, listed under the inbox entry and the bill
    const doc = (await s.api('GET', `/documents/${entry.document_id}`)).body;
    t.equal(doc.source, 'inbox');
    t.same(
      doc.attached_to.map((a: any) => [a.kind, a.id]).sort(),
      [
        ['inbox', up.body.id],
        ['vendor_transaction', booked.body.transaction_id],
      ].sort(),
    );
    t.equal((await s.api('GET', '/documents')).body.length, 1, 'stored once');
  },
);

t.test('photos (PNG rotated 17°, JPEG rotated 90°, noisy, with margin): vendor matched by name', async (t) => {
  const s = await scenario(t);
  const vendor = await s.api('POST', '/arap/vendor', { name: 'robert schneider ag ' });
  for (const [file, type] of [
    [PHOTO.files[0], 'image/png'],
    [PHOTO.files[1], 'image/jpeg'],
  ] as const) {
    const up = await s.uploadJson({ name: file!, data: fixture(file!).toString('base64'), media_type: type });
    t.equal(up.status, 201, JSON.stringify(up.body));
    t.equal(up.body.media_type, type);
    const entry = await s.settled(up.body.id);
    t.equal(entry.status, 'extracted', file);
    t.equal(entry.extracted.iban, PHOTO.iban);
    t.equal(entry.extracted.amount, PHOTO.amount);
    t.equal(entry.extracted.currency, 'EUR');
    t.equal(entry.extracted.reference, PHOTO.reference);
    t.same(entry.extracted.vendor, {
      id: vendor.body.id,
      vendornumber: vendor.body.vendornumber,
      name: 'robert schneider ag ',
      matched_by: 'name',
    });
    t.same(entry.extracted.proposal.new_bank_account, { iban: PHOTO.iban }, 'the vendor lacks this IBAN');
    t.equal(entry.extracted.proposal.bill.curr, 'EUR');
    t.notOk(entry.text, 'no text in a picture');
  }
});

t.test(
  'no QR-bill: extracted with the text only; corrupt PDF: failed; invalid QR-bill payloads: failed with the reason',
  async (t) => {
    const s = await scenario(t);
    const none = await s.uploadFile('note.pdf', fixture('no-qr.pdf'), 'application/pdf');
    const corrupt = await s.uploadFile('broken.pdf', fixture('corrupt.pdf'), 'application/pdf');
    const png = await s.uploadFile(
      'broken.png',
      Buffer.concat([fixture(PHOTO.files[0]!).subarray(0, 64), Buffer.alloc(100)]),
      'image/png',
    );
    const a = await s.settled(none.body.id);
    t.equal(a.status, 'extracted');
    t.match(a.text, /Lieferschein 4711/);
    t.notOk(a.extracted, 'no proposal');
    const b = await s.settled(corrupt.body.id);
    t.equal(b.status, 'failed');
    t.match(b.reason, /PDF cannot be read/);
    const c = await s.settled(png.body.id);
    t.equal(c.status, 'failed');
    t.match(c.reason, /image cannot be decoded/);

    // the worker still runs: a good file after the bad ones
    const good = await s.uploadFile('meier.pdf', fixture(IMAGE_PDF.file), 'application/pdf');
    t.equal((await s.settled(good.body.id)).status, 'extracted');

    const noProposal = await s.api('POST', `/documents/inbox/${none.body.id}/book`, {});
    t.equal(noProposal.status, 400);
    t.equal(noProposal.body.error.field, '/overrides/vendor_id');
    const vendor = await s.api('POST', '/arap/vendor', { name: 'Kopierpapier AG' });
    const noLines = await s.api('POST', `/documents/inbox/${none.body.id}/book`, {
      overrides: { vendor_id: vendor.body.id },
    });
    t.equal(noLines.status, 400);
    t.equal(noLines.body.error.field, '/overrides/lines');
    const byHand = await s.api('POST', `/documents/inbox/${none.body.id}/book`, {
      overrides: { vendor_id: vendor.body.id, invDate: '2024-03-12', lines: [{ account: '4000', amount: 42.5 }] },
    });
    t.equal(byHand.status, 201, 'a file without QR-bill is booked with overrides');
    const failedBook = await s.api('POST', `/documents/inbox/${corrupt.body.id}/book`, {
      overrides: { vendor_id: vendor.body.id },
    });
    t.equal(failedBook.status, 409);
  },
);

t.test(
  'upload errors: 415 by the bytes, 413 over the file limit, 400 for bad data; permissions; other companies',
  async (t) => {
    const s = await scenario(t, { fileLimit: 64 * 1024 });
    const text = await s.uploadJson({
      name: 'a.pdf',
      data: `data:application/pdf;base64,${Buffer.from('hello, not a PDF').toString('base64')}`,
    });
    t.equal(text.status, 415, 'declared PDF, but the bytes are text');
    t.equal(text.body.error.code, 'unsupported_media_type');
    const gif = await s.uploadFile('x.gif', Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/gif');
    t.equal(gif.status, 415);
    const big = await s.uploadFile(
      'big.pdf',
      Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(70 * 1024)]),
      'application/pdf',
    );
    t.equal(big.status, 413);
    const bigJson = await s.uploadJson({
      name: 'big.pdf',
      data: `data:application/pdf;base64,${Buffer.alloc(70 * 1024).toString('base64')}`,
    });
    t.equal(bigJson.status, 413);
    const badBase64 = await s.uploadJson({ name: 'a.pdf', data: 'data:application/pdf;base64,%%%' });
    t.equal(badBase64.status, 400);
    const noType = await s.uploadJson({ name: 'a.pdf', data: 'JVBERi0xLjQK' });
    t.equal(noType.status, 400);
    t.equal(noType.body.error.field, '/media_type');
    const extra = await s.uploadJson({ name: 'a.pdf', data: 'JVBERi0xLjQK', media_type: 'application/pdf', vendor: 1 });
    t.equal(extra.status, 400);
    const twoParts = new FormData();
    twoParts.append('file', new Blob([new Uint8Array(fixture('no-qr.pdf'))], { type: 'application/pdf' }), 'a.pdf');
    twoParts.append('file', new Blob([new Uint8Array(fixture('no-qr.pdf'))], { type: 'application/pdf' }), 'b.pdf');
    const two = await fetch(`${s.base}/documents/inbox`, { method: 'POST', headers: s.headers, body: twoParts });
    t.equal(two.status, 400);

    const viewer = await s.co.addMember('viewer');
    const asViewer = apiClient(s.ledger.url, s.co.dataset, viewer.apiKey);
    const denied = await s.uploadFile('a.pdf', fixture('no-qr.pdf'), 'application/pdf', viewer.apiKey);
    t.equal(denied.status, 403);
    t.match(denied.body.error.message, /documents\.upload/);
    const ok = await s.uploadFile('a.pdf', fixture('no-qr.pdf'), 'application/pdf');
    t.equal(ok.status, 201);
    t.equal((await asViewer('GET', '/documents/inbox')).status, 200, 'viewers read the inbox');
    t.equal((await asViewer('DELETE', `/documents/inbox/${ok.body.id}`)).status, 403);

    const other = await createTestCompany(s.ledger);
    const otherApi = apiClient(s.ledger.url, other.dataset, other.apiKey);
    t.equal(
      (await otherApi('GET', `/documents/inbox/${ok.body.id}`)).status,
      404,
      'another company does not see the entry',
    );
    t.equal((await otherApi('GET', `/documents/${ok.body.document_id}`)).status, 404);
    t.equal((await s.api('GET', '/documents/inbox/999999999')).status, 404);
    t.equal((await s.api('GET', '/documents/inbox/abc')).status, 404);
  },
);

t.test('list by status; discard keeps the document; booked entries cannot be discarded', async (t) => {
  const s = await scenario(t);
  const a = await s.uploadFile('a.pdf', fixture('no-qr.pdf'), 'application/pdf');
  const b = await s.uploadFile('b.pdf', fixture('corrupt.pdf'), 'application/pdf');
  await s.settled(a.body.id);
  await s.settled(b.body.id);
  const all = await s.api('GET', '/documents/inbox');
  t.same(
    all.body.map((e: any) => e.id),
    [b.body.id, a.body.id],
    'newest first',
  );
  t.equal(all.headers.get('x-total-count'), '2');
  const failed = await s.api('GET', '/documents/inbox?status=failed');
  t.same(
    failed.body.map((e: any) => e.id),
    [b.body.id],
  );
  t.equal(failed.headers.get('x-total-count'), '1');

  t.equal((await s.api('DELETE', `/documents/inbox/${a.body.id}`)).status, 204);
  t.equal((await s.api('DELETE', `/documents/inbox/${a.body.id}`)).status, 204, 'discarding again changes nothing');
  t.equal((await s.api('GET', `/documents/inbox/${a.body.id}`)).body.status, 'discarded');
  t.equal((await s.api('POST', `/documents/inbox/${a.body.id}/book`, {})).status, 409);
  const doc = await s.api('GET', `/documents/${a.body.document_id}`);
  t.equal(doc.status, 200, 'the file stays a document');

  const vendor = await s.api('POST', '/arap/vendor', { name: 'V' });
  const c = await s.uploadFile('c.pdf', fixture(IMAGE_PDF.file), 'application/pdf');
  await s.settled(c.body.id);
  const booked = await s.api('POST', `/documents/inbox/${c.body.id}/book`, {
    overrides: { vendor_id: vendor.body.id },
  });
  t.equal(booked.status, 201);
  t.equal(booked.body.vendor_id, vendor.body.id, 'the override replaces the proposed new vendor');
  t.equal((await s.api('GET', '/arap/vendor')).body.length, 1, 'no vendor created');
  t.equal((await s.api('DELETE', `/documents/inbox/${c.body.id}`)).status, 409);
});

t.test(
  "a bill stating its VAT, and the company's own invoice: the stated split, the printed number, no own vendor",
  async (t) => {
    const ledger = await startInboxLedger(t);
    const co = await createTestCompany(ledger, { swissInvoicing: true });
    const api = apiClient(ledger.url, co.dataset, co.apiKey);
    const customer = await api('POST', '/arap/customer', {
      name: 'Beispiel GmbH',
      address1: 'Marktgasse',
      street: '28',
      zipcode: '3011',
      city: 'Bern',
      country: 'CH',
    });
    const invoice = await api('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customer.body.id,
      invNumber: '2024/117',
      invDate: '2024-03-15',
      terms: 30,
      pending: '0',
      items: [{ description: 'Work', quantity: 1, price: 882, account: '3400', taxAccount: '2200' }],
    });
    t.equal(invoice.status, 201, JSON.stringify(invoice.body));
    const headers = { 'X-API-Key': co.apiKey };
    const base = `${ledger.url}/client/${co.dataset}`;
    const pdf = await fetch(`${base}/arap/invoice/customer/${invoice.body.id}/pdf`, { headers });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await pdf.arrayBuffer())], { type: 'application/pdf' }), 'own.pdf');
    const up = await fetch(`${base}/documents/inbox`, { method: 'POST', headers, body: form });
    const id = ((await up.json()) as { id: number }).id;
    let entry: any;
    for (let i = 0; i < 600; i++) {
      entry = (await api('GET', `/documents/inbox/${id}`)).body;
      if (entry.status !== 'new') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    t.equal(entry.status, 'extracted', JSON.stringify(entry.reason));
    // the company writes in German by default (docs/invoices.md "Languages")
    t.match(entry.text, /MWST 8\.1% auf 882\.00 71\.44/, "the PDF states its VAT, in the company's language");
    const p = entry.extracted.proposal;
    t.same(
      p.bill.lines,
      [{ account: p.bill.lines[0].account, amount: 953.44, taxAccount: '1170' }],
      'the gross on the input tax account of the stated rate',
    );
    t.equal(p.bill.documentNumber, '2024/117', 'the number it prints');
    t.equal(p.bill.paymentReference, entry.extracted.reference, 'the reference stays the payment reference');
    t.not(p.bill.documentNumber, entry.extracted.reference);
    t.equal(entry.extracted.vendor, null, 'the company is no vendor of its own');
    t.equal(p.creditor_is_company, true);
    t.notOk(p.new_vendor, 'no new vendor of the company itself');
    t.notOk(p.new_bank_account, 'nor its own bank account');

    const booked = await api('POST', `/documents/inbox/${id}/book`, {});
    t.equal(booked.status, 400);
    t.equal(booked.body.error.field, '/overrides/vendor_id');
    t.match(booked.body.error.message, /creditor is this company itself/);
    t.same((await api('GET', '/arap/vendor')).body, [], 'no vendor was made');
  },
);
