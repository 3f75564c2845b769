/**
 * Books → Invoices and Books → Bills in the app: write an invoice from the services catalogue
 * and post it, the totals and VAT as the ledger computed them, its PDF, send it, record its
 * payment, reverse another; a bill written and paid, a receipt uploaded into the inbox. Over
 * HTTP (in German) against a real ledger and gateway, each result read back through the REST
 * API; then the pages in Chromium (axe, 375 px, screenshots).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

/** The smallest PDF the inbox takes (its type is told by the bytes). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

t.test('invoices and bills in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const customer = await rest('POST', '/arap/customer', {
    name: 'Bäckerei Beispiel GmbH',
    email: 'buchhaltung@baeckerei.example',
    curr: 'CHF',
  });
  const vendor = await rest('POST', '/arap/vendor', { name: 'Papeterie Muster AG', curr: 'CHF' });
  const service = await rest('POST', '/arap/services', {
    description: 'Buchhaltung',
    unit: 'h',
    price: 150,
    income_account: '3400',
    taxAccount: '2200',
  });
  t.equal(service.status, 201, JSON.stringify(service.body));
  const invoices = `/books/${a.dataset}/invoices`;
  const bills = `/books/${a.dataset}/bills`;
  const browser = new Browser(stack.url);
  browser.language = 'de';
  await browser.signIn(a, '/');
  let invoicePath = '';

  t.test('write an invoice; refusals keep what was typed', async (t) => {
    const list = await browser.get(invoices);
    t.equal(list.status, 200);
    t.match(list.html, /<h1>Buchhaltung → Rechnungen<\/h1>/);
    t.match(list.html, /<h2 id="new-heading">Neue Rechnung<\/h2>/);
    t.match(decode(list.html), /Buchhaltung \(150\)/, 'the catalogue offered');

    const typed = {
      party: String(customer.body.id),
      invDate: '2026-11-20',
      description_0: 'Reisekosten',
      quantity_0: '1',
      price_0: '',
      account_0: '3400',
    };
    const missing = await browser.submit(list, `${invoices}/new`, typed);
    t.equal(missing.status, 400, 'the page refuses an item without a price');
    t.match(decode(missing.html), /value="Reisekosten"/, 'the text typed is kept');
    t.match(missing.html, /id="price-0"[^>]*aria-invalid="true"/, 'the price is marked');

    const unknown = await browser.submit(list, `${invoices}/new`, { ...typed, price_0: '80', account_0: '9999' });
    t.equal(unknown.status, 400, 'the ledger refuses an unknown account');
    t.match(unknown.html, /id="refusal"/);
    t.match(unknown.html, /value="9999"/, 'the account typed is kept');
    t.equal((await rest('GET', '/arap/invoices/customer')).body.length, 0, 'nothing is written');

    const posted = await browser.submit(list, `${invoices}/new`, {
      ...typed,
      price_0: "1'000.00",
      service_1: String(service.body.id),
      quantity_1: '2',
      notes: 'Danke für den Auftrag.',
      dueDate: '2026-11-21',
      post: '1',
    });
    t.equal(posted.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(posted.html)?.[1] ?? 'posted');
    invoicePath = new URL(posted.location!, stack.url).pathname;
    const id = Number(invoicePath.split('/').pop());
    const stored = (await rest('GET', `/arap/invoice/customer/${id}`)).body;
    t.same(
      [stored.status, stored.netAmount, stored.items.length, stored.items[1].description],
      ['posted', 1300, 2, 'Buchhaltung'],
      'posted by the ledger, the service filled in',
    );
    const page = decode((await browser.get(posted.location!)).html);
    t.match(page, /Gebucht\./);
    t.match(
      page,
      new RegExp(`<dd id="gross">CHF ${stored.grossAmount.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, "'")}`),
    );
    t.match(page, /MWST 8\.1 % auf 300\.00/, 'the VAT of the service as the ledger computed it');

    const pdf = await browser.get(`${invoicePath}/pdf`);
    t.equal(pdf.status, 200);
    t.equal(pdf.headers.get('content-type'), 'application/pdf');
    t.match(pdf.headers.get('content-disposition') ?? '', /^inline/, 'opened in the browser');
  });

  t.test('send, pay, reverse', async (t) => {
    const id = Number(invoicePath.split('/').pop());
    const open = (await rest('GET', `/arap/invoice/customer/${id}`)).body.open;
    const aged = decode((await browser.get(invoices)).html);
    t.match(aged, /<h2 id="aging-heading">Offene Debitoren nach Alter \(CHF\)<\/h2>/, 'the open items by age');
    t.match(aged, new RegExp(`<tr data-party="${customer.body.id}"><td>Bäckerei Beispiel GmbH</td>`));
    t.match(aged, new RegExp(`<td class="num">${open.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, "'")}</td></tr>`));
    const page = await browser.get(invoicePath);
    const sent = await browser.submit(page, `${invoicePath}/email`, { to: '', message: 'Freundliche Grüsse' });
    t.equal(sent.status, 303);
    t.match((await browser.get(sent.location!)).html, /Die E-Mail ist unterwegs\./);
    t.equal((await rest('GET', `/arap/invoice/customer/${id}`)).body.emails.length, 1, 'queued by the ledger');

    // due on 21 November: overdue, so the page offers a reminder
    const withReminder = await browser.get(invoicePath);
    t.match(withReminder.html, /id="reminder"/, 'an overdue invoice offers a reminder');
    const reminded = await browser.submit(withReminder, `${invoicePath}/reminder`, { fee: '' });
    t.equal(reminded.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(reminded.html)?.[1] ?? 'reminded');
    t.match((await browser.get(reminded.location!)).html, /Die Mahnung ist unterwegs\./);
    t.equal((await rest('GET', `/arap/invoice/customer/${id}`)).body.reminder_level, 1, 'reminder 1 queued');
    const over = await browser.submit(page, `${invoicePath}/payment`, {
      date: '2026-11-25',
      amount: "99'999.00",
      account: '1020',
    });
    t.equal(over.status, 400, 'the ledger refuses an overpayment');
    t.match(over.html, /<code>overpayment<\/code>/);
    t.match(decode(over.html), /value="99'999.00"/, 'the amount typed is kept');
    const paid = await browser.submit(page, `${invoicePath}/payment`, {
      date: '2026-11-25',
      amount: "1'324.30",
      account: '1020',
    });
    t.equal(paid.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(paid.html)?.[1] ?? 'paid');
    const stored = (await rest('GET', `/arap/invoice/customer/${id}`)).body;
    t.same([stored.payment_status, stored.open], ['paid', 0], 'paid in full');

    const list = await browser.get(invoices);
    const other = await browser.submit(list, `${invoices}/new`, {
      party: String(customer.body.id),
      invDate: '2026-11-21',
      service_0: String(service.body.id),
      quantity_0: '1',
      post: '1',
    });
    t.equal(other.status, 303);
    const otherPath = new URL(other.location!, stack.url).pathname;
    const reversed = await browser.submit(await browser.get(otherPath), `${otherPath}/reverse`, {
      reverse_date: '2026-11-22',
    });
    t.equal(reversed.status, 303);
    const otherId = Number(otherPath.split('/').pop());
    t.equal((await rest('GET', `/arap/invoice/customer/${otherId}`)).body.status, 'reversed', 'reversed');

    const reversal = decode((await browser.get(reversed.location!)).html);
    t.match(reversal, /<dd id="document-status">Storno \(hebt das Original auf\)<\/dd>/, 'the reversal says so');
    t.notMatch(reversal, /id="payment"/, 'and is not paid');
    const found = decode((await browser.get(`${invoices}?status=reversed`)).html);
    t.match(found, /storniert/);
    t.notMatch(found, new RegExp(`data-document="${id}"`), 'the status filter');
    const party = decode((await browser.get(`/books/${a.dataset}/parties/customer/${customer.body.id}`)).html);
    t.match(party, new RegExp(`<a href="${invoices}/${id}">AR-`), "the customer's invoices on its page");
    t.match(party, new RegExp(`data-document="${otherId}"[\\s\\S]*?storniert`), 'with their state');
    const forParty = /<a href="([^"]+)" id="new-for-party">/.exec(party)![1]!;
    const preset = await browser.get(forParty);
    t.match(preset.html, new RegExp(`<option value="${customer.body.id}" selected="">Bäckerei`), 'the customer chosen');
    const byName = await browser.get(`${invoices}?q=zzz`);
    t.match(byName.html, /id="no-documents"/, 'nothing found');
  });

  t.test('a bill written as a draft; a receipt into the inbox', async (t) => {
    const list = await browser.get(bills);
    t.match(list.html, /<h1>Buchhaltung → Lieferantenrechnungen<\/h1>/);
    const drafted = await browser.submit(list, `${bills}/new`, {
      party: String(vendor.body.id),
      invDate: '2026-11-20',
      documentNumber: 'F-88213',
      description_0: 'Druckerpapier',
      quantity_0: '5',
      price_0: '42.50',
      account_0: '6500',
      post: '0',
    });
    t.equal(drafted.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(drafted.html)?.[1] ?? 'drafted');
    const page = decode((await browser.get(drafted.location!)).html);
    t.match(page, /Als Entwurf gespeichert\./);
    t.match(page, /id="draft-hint"/, 'a draft is posted on the workstation');
    const draftLink = /<p id="draft-hint">[\s\S]*?<a href="([^"]+)"/.exec(page)![1]!;
    const draft = await browser.get(draftLink);
    t.equal(draft.status, 200, 'the draft opens on the workstation');
    t.match(decode(draft.html), /Druckerpapier/);
    const stored = (await rest('GET', '/arap/invoices/vendor')).body;
    t.same(
      stored.map((b: { status: string; documentNumber: string }) => [b.status, b.documentNumber]),
      [['draft', 'F-88213']],
    );

    const csrf = /name="csrf" value="([^"]+)"/.exec(list.html)![1]!;
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('file', new Blob([PDF], { type: 'application/pdf' }), 'quittung.pdf');
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const uploaded = await fetch(`${stack.url}${bills}/receipt`, {
      method: 'POST',
      body: form,
      headers: { cookie, 'accept-language': 'de' },
      redirect: 'manual',
    });
    t.equal(uploaded.status, 303, await uploaded.clone().text());
    t.match(uploaded.headers.get('location') ?? '', new RegExp(`/books/${a.dataset}/inbox/\\d+$`), 'to its entry');
    const inbox = (await rest('GET', '/documents/inbox')).body;
    t.same(
      inbox.map((e: { name: string }) => e.name),
      ['quittung.pdf'],
      'in the inbox',
    );
  });

  t.test('a viewer reads without forms', async (t) => {
    const viewer = await a.addMember('viewer');
    const asViewer = new Browser(stack.url);
    await asViewer.signIn(viewer, '/');
    const list = await asViewer.get(invoices);
    t.equal(list.status, 200);
    t.match(list.html, /id="documents"/, 'the invoices listed');
    t.notMatch(list.html, /id="new-document"/, 'no form for a new invoice');
    const page = await asViewer.get(invoicePath);
    t.equal(page.status, 200);
    t.notMatch(page.html, /id="payment"|id="reverse"|id="send"/, 'no payment, reversal or e-mail');
    const refused = await asViewer.request('POST', `${invoicePath}/reverse`, {
      csrf: /name="csrf" value="([^"]+)"/.exec(page.html)![1]!,
    });
    t.equal(refused.status, 403, 'the ledger refuses the reversal to a viewer');
  });

  t.test('the pages in a real browser: axe, 375 px, screenshots', async (t) => {
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
    await page.getByRole('link', { name: 'Rechnungen', exact: true }).first().click();
    await page.locator('#documents').waitFor();
    await checkPage(t, page, 'de-invoices');
    await page.getByLabel('Kunde', { exact: true }).selectOption({ label: 'Bäckerei Beispiel GmbH' });
    await page.getByLabel('Leistung: Position 1').selectOption({ label: 'Buchhaltung (150)' });
    await page.getByLabel('Menge: Position 1').fill('3');
    await page.getByRole('button', { name: 'Buchen' }).click();
    await page.getByText('Gebucht.').waitFor();
    t.match(await page.locator('#gross').textContent(), /^CHF 486\.45$/, 'the total with VAT');
    await checkPage(t, page, 'de-invoice');
    await page.getByRole('button', { name: 'Zahlung buchen' }).click();
    await page.getByText('Die Zahlung ist gebucht.').waitFor();
    t.match(await page.locator('#document-status').textContent(), /bezahlt/);

    await page.getByRole('link', { name: 'Lieferantenrechnungen', exact: true }).first().click();
    await page.locator('#documents').waitFor();
    await checkPage(t, page, 'de-bills');
    await page.getByLabel('Beleg (PDF, PNG oder JPEG)').setInputFiles({
      name: 'beleg.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await page.getByRole('button', { name: 'Hochladen' }).click();
    await page.waitForURL(/\/inbox\/\d+$/);
    t.equal((await rest('GET', '/documents/inbox')).body.length, 2, 'the second receipt in the inbox');
  });
});
