/**
 * Books → Closing, payment files on the bank account page, and a party's payments and a vendor's
 * bank accounts on its page, in German: over HTTP against a real ledger and gateway (each result
 * read back through the REST API, each refusal keeping what was typed), then the pages in
 * Chromium (axe, 375 px, screenshots).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

const VENDOR_IBAN = 'CH58 0079 1123 0008 8901 2';

t.test('closing, payment files, payments and bank accounts of a party in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const ds = a.dataset;
  const browser = new Browser(stack.url);
  browser.language = 'de';
  await browser.signIn(a, '/');

  const bank = await rest('POST', '/bank/accounts', {
    name: 'Hauptkonto',
    iban: 'CH93 0076 2011 6238 5295 7',
    currency: 'CHF',
    account: '1020',
  });
  t.equal(bank.status, 201, JSON.stringify(bank.body));
  const vendor = (await rest('POST', '/arap/vendor', { name: 'Papeterie Müller AG' })).body;
  const customer = (await rest('POST', '/arap/customer', { name: 'Globex AG' })).body;
  const vendorPage = `/books/${ds}/parties/vendor/${vendor.id}`;

  t.test('close the books up to a date and a fiscal year', async (t) => {
    const entry = await rest('POST', '/gl/transactions', {
      transdate: '2025-03-01',
      pending: '0',
      lines: [
        { account: '1020', debit: 1000 },
        { account: '3400', credit: 1000 },
      ],
    });
    t.equal(entry.status, 201, JSON.stringify(entry.body));
    const closing = `/books/${ds}/closing`;
    const page = await browser.get(closing);
    t.equal(page.status, 200);
    t.match(page.html, /<h1>Buchhaltung → Abschluss<\/h1>/);
    t.match(page.html, /Die Bücher wurden noch nie abgeschlossen\./);
    t.match(page.html, /data-year="2025"/, 'the fiscal years from the first posted line');

    const closed = await browser.submit(page, closing, { date: '2025-06-30' });
    t.equal(closed.status, 303, closed.html.slice(0, 300));
    t.same((await rest('GET', '/system/close_books')).body, { date: '2025-06-30' }, 'closed by the ledger');
    t.match((await browser.get(closed.location!)).html, /Die Bücher sind bis 30\.06\.2025 abgeschlossen\./);

    const earlier = await browser.submit(page, closing, { date: '2025-01-31' });
    t.equal(earlier.status, 409, 'an earlier date without reopening is refused');
    t.match(earlier.html, /id="refusal"/);
    t.match(earlier.html, /id="close-date"[^>]*value="2025-01-31"|value="2025-01-31"[^>]*id="close-date"/, 'kept');
    t.same((await rest('GET', '/system/close_books')).body, { date: '2025-06-30' }, 'nothing changed');

    const notOver = await browser.submit(page, `${closing}/years/2026`);
    t.equal(notOver.status, 409, 'a year not yet over is refused');
    t.match(notOver.html, /id="refusal"/);

    const year = await browser.submit(page, `${closing}/years/2025`);
    t.equal(year.status, 303, year.html.slice(0, 300));
    const years = (await rest('GET', '/system/fiscal_years')).body as { year: number; closed: boolean }[];
    t.ok(years.find((y) => y.year === 2025)?.closed, 'the year is closed by the ledger');
    t.same((await rest('GET', '/system/close_books')).body, { date: '2025-12-31' }, 'the books up to its end');
    const after = await browser.get(year.location!);
    t.match(after.html, /Das Geschäftsjahr 2025 ist abgeschlossen \(Abschlussbuchung \d+\)\./);
    t.notMatch(after.html, /action="[^"]*\/closing\/years\/2025"/, 'no button for a closed year');
  });

  t.test("a vendor's bank accounts: a wrong IBAN refused as typed, a right one added", async (t) => {
    const page = await browser.get(vendorPage);
    t.equal(page.status, 200);
    t.match(page.html, /Noch kein Bankkonto/);
    const action = `${vendorPage}/bank-accounts`;
    const wrong = await browser.submit(page, action, { bank_iban: 'CH58 0079 1123 0008 8901 3', bank_name: 'Müller' });
    t.equal(wrong.status, 400, 'the ledger refuses an IBAN that fails mod-97');
    t.match(wrong.html, /id="refusal"/);
    t.match(wrong.html, /value="CH58 0079 1123 0008 8901 3"/, 'the IBAN typed is kept');
    t.match(wrong.html, /id="bank-iban"[^>]*aria-invalid="true"/, 'and marked');
    t.equal((await rest('GET', `/arap/vendor/${vendor.id}/bank_accounts`)).body.length, 0, 'nothing written');

    const added = await browser.submit(page, action, { bank_iban: VENDOR_IBAN, bank_name: 'Papeterie Müller AG' });
    t.equal(added.status, 303, added.html.slice(0, 300));
    const [stored] = (await rest('GET', `/arap/vendor/${vendor.id}/bank_accounts`)).body;
    t.match(stored, { iban: 'CH5800791123000889012', name: 'Papeterie Müller AG' });
    const shown = await browser.get(added.location!);
    t.match(shown.html, /Das Bankkonto ist hinzugefügt\./);
    t.match(shown.html, /CH58 0079 1123 0008 8901 2/, 'the IBAN in groups of four');
  });

  t.test('a payment file from the open bills, downloaded', async (t) => {
    const [vendorBank] = (await rest('GET', `/arap/vendor/${vendor.id}/bank_accounts`)).body;
    const bill = async (amount: number) => {
      const r = await rest('POST', '/arap/transaction/vendor', {
        vendor_id: vendor.id,
        invDate: '2026-03-01',
        pending: '0',
        payment_file: 1,
        vc_bank_id: vendorBank.id,
        lines: [{ account: '6500', amount }],
      });
      t.equal(r.status, 201, JSON.stringify(r.body));
      return (await rest('GET', `/arap/transaction/vendor/${r.body.id}`)).body;
    };
    const paid = await bill(1234.5);
    const later = await bill(80);
    const path = `/books/${ds}/bank/${bank.body.id}`;
    const page = await browser.get(path);
    t.match(page.html, /<h2 id="payment-files-heading">Zahlungsdateien<\/h2>/);
    t.match(page.html, new RegExp(`data-bill="${paid.id}"`), 'the open bill is offered');
    t.match(page.html, /id="no-payment-files"/);

    const none = await browser.submit(page, `${path}/payment-files`, { execution_date: '2026-12-01' });
    t.equal(none.status, 400, 'no bill ticked');
    t.match(none.html, /Kreuzen Sie mindestens eine Rechnung an\./);
    t.match(none.html, /value="2026-12-01"/, 'the date typed is kept');

    const made = await browser.submit(page, `${path}/payment-files`, {
      execution_date: '2026-12-01',
      document: String(paid.id),
    });
    t.equal(made.status, 303, made.html.slice(0, 300));
    const [file] = (await rest('GET', `/bank/payment_files?bank_account_id=${bank.body.id}`)).body;
    t.match(file, { count: 1, total: 1234.5, execution_date: '2026-12-01' }, 'made by the ledger');
    const after = await browser.get(made.location!);
    t.match(decode(after.html), /Die Zahlungsdatei ist erstellt: 1 Zahlungen, Total 1'234.50\./);
    t.match(after.html, new RegExp(`data-file="${file.id}"`), 'the file is listed');
    t.notMatch(after.html, new RegExp(`data-bill="${paid.id}"`), 'the bill paid by it is no longer offered');
    t.match(after.html, new RegExp(`data-bill="${later.id}"`), 'the other one still is');

    const download = await browser.get(`${path}/payment-files/${file.id}`);
    t.equal(download.status, 200);
    t.match(download.headers.get('content-disposition'), /^attachment; filename="pain001-PF-\d+\.xml"/);
    t.match(download.html, /pain\.001\.001\.09/, 'the pain.001 XML');
    t.match(download.html, /<InstdAmt Ccy="CHF">1234\.50<\/InstdAmt>/);
    t.equal((await browser.get(`${path}/payment-files/999999`)).status, 404, 'no such file');
  });

  t.test("a party's payments on its page", async (t) => {
    const invoice = await rest('POST', '/arap/invoice/customer', {
      customer_id: customer.id,
      invDate: '2026-03-02',
      pending: '0',
      items: [{ description: 'Beratung', quantity: 1, price: 500, account: '3400' }],
    });
    t.equal(invoice.status, 201, JSON.stringify(invoice.body));
    const payment = await rest('POST', '/arap/payment/customer', {
      document_id: invoice.body.id,
      date: '2026-03-20',
      amount: 200,
      account: '1020',
    });
    t.equal(payment.status, 201, JSON.stringify(payment.body));
    const page = await browser.get(`/books/${ds}/parties/customer/${customer.id}`);
    t.match(page.html, /<h2 id="party-payments-heading">Zahlungen<\/h2>/);
    const table = decode(/<table id="party-payments">[\s\S]*?<\/table>/.exec(page.html)?.[0] ?? '');
    t.match(table, new RegExp(`data-payment="${payment.body.id}"`));
    t.match(table, /20\.03\.2026/);
    t.match(table, /CHF 200\.00/);
    const other = await browser.get(vendorPage);
    t.match(other.html, /id="no-party-payments"/, "the vendor has none: another party's are not shown");
    t.notMatch(other.html, /id="vendor-banks-heading"[\s\S]*id="no-vendor-banks"/, 'the vendor has its account');
  });

  t.test('the pages in a real browser: axe, 375 px, screenshots', async (t) => {
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
    await page.getByRole('link', { name: 'Abschluss', exact: true }).first().click();
    await page.locator('#fiscal-years').waitFor();
    await checkPage(t, page, 'de-closing');

    await page.goto(`${stack.url}${vendorPage}`);
    await page.locator('#vendor-banks').waitFor();
    await checkPage(t, page, 'de-vendor');

    await page.goto(`${stack.url}/books/${ds}/bank/${bank.body.id}`);
    await page.locator('#payment-files').waitFor();
    await checkPage(t, page, 'de-payment-files');
  });
});
