/**
 * The app's forms for the daily work, in German against a real ledger and gateway: a customer's
 * and a vendor's language (created, changed, left to the company's, shown in the list), an
 * invoice of more than four items with its totals previewed by the ledger before it is posted,
 * a bill's rows added without script and a refusal of an added row named at that row, and a
 * vendor's bank account changed and deleted (the ledger refuses to delete one a bill names).
 * Each result read back through the REST API; the pages in Chromium (axe, 375 px, screenshots).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test("the app's forms: languages, rows, totals, a vendor's bank accounts", async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const parties = `/books/${a.dataset}/parties`;
  const invoices = `/books/${a.dataset}/invoices`;
  const bills = `/books/${a.dataset}/bills`;
  const chromium = await launchChromium();
  t.teardown(() => chromium.close());
  const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
  const browser = new Browser(stack.url);
  browser.language = 'de';
  await browser.signIn(a, '/');

  t.test("a customer's and a vendor's language", async (t) => {
    await page.goto(`${stack.url}${parties}?vc=customer`);
    const form = page.locator('#new-party');
    await form.getByLabel('Name', { exact: true }).fill('Boulangerie Exemple SA');
    const language = form.getByLabel('Sprache der Belege und E-Mails');
    t.same(
      await language.locator('option').allTextContents(),
      ['Sprache der Firma (Deutsch)', 'Deutsch', 'Français', 'Italiano', 'English'],
      "the four, each named in itself, and the company's",
    );
    await language.selectOption({ label: 'Français' });
    await form.getByRole('button', { name: 'Kunde erfassen' }).click();
    await page.getByText('Gespeichert. Die Nummer ist').waitFor();
    const customer = (await rest('GET', '/arap/customer?name=Boulangerie')).body[0];
    t.equal(customer.language, 'fr', 'stored by the ledger');
    t.equal(await page.getByLabel('Sprache der Belege und E-Mails').inputValue(), 'fr', 'shown on its page');
    await checkPage(t, page, 'de-party-language');

    await page.getByLabel('Sprache der Belege und E-Mails').selectOption({ label: 'Sprache der Firma (Deutsch)' });
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Die Änderungen sind gespeichert.').waitFor();
    t.notOk((await rest('GET', `/arap/customer/${customer.id}`)).body.language, "left to the company's again");
    await page.getByLabel('Sprache der Belege und E-Mails').selectOption({ label: 'Italiano' });
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Die Änderungen sind gespeichert.').waitFor();
    t.equal((await rest('GET', `/arap/customer/${customer.id}`)).body.language, 'it', 'changed');

    await page.goto(`${stack.url}${parties}?vc=customer`);
    t.equal(
      await page.locator(`#parties tr[data-party="${customer.id}"] td`).last().textContent(),
      'Italiano',
      'the list says the language',
    );

    await page.goto(`${stack.url}${parties}?vc=vendor`);
    const vendorForm = page.locator('#new-party');
    await vendorForm.getByLabel('Name', { exact: true }).fill('Office Supplies Ltd');
    await vendorForm.getByLabel('Sprache der Belege und E-Mails').selectOption({ label: 'English' });
    await vendorForm.getByRole('button', { name: 'Lieferant erfassen' }).click();
    await page.getByText('Gespeichert. Die Nummer ist').waitFor();
    t.equal((await rest('GET', '/arap/vendor?name=Office')).body[0].language, 'en', "a vendor's language");
    await page.goto(`${stack.url}${parties}?vc=vendor`);
    t.match(await page.locator('#parties').textContent(), /English/);

    // a language that is not one of the four (a forged form) is refused at its field, nothing changed
    const list = await browser.get(`${parties}?vc=customer`);
    const refused = await browser.submit(list, `${parties}/customer`, { name: 'Nie AG', language: 'xx' });
    t.equal(refused.status, 400);
    t.match(refused.html, /id="p-language"[^>]*aria-invalid="true"/, 'the language marked');
    t.equal((await rest('GET', '/arap/customer?name=Nie')).body.length, 0, 'nothing created');
  });

  t.test('an invoice of six items, its totals previewed by the ledger, then posted', async (t) => {
    const customer = await rest('POST', '/arap/customer', { name: 'Bäckerei Beispiel GmbH', curr: 'CHF' });
    await page.goto(`${stack.url}${invoices}`);
    await page.getByLabel('Kunde', { exact: true }).selectOption({ label: 'Bäckerei Beispiel GmbH' });
    await page.getByLabel('Datum', { exact: true }).fill('2026-11-20');
    const prices = ['100', '20.50', "1'000", '7.35', '12', '3.10'];
    for (const [i, price] of prices.entries()) {
      const row = `Position ${i + 1}`;
      if (i >= 4) {
        await page.getByRole('button', { name: 'Zeile hinzufügen' }).click();
        // the new row, the focus in it
        await page.locator(`#service-${i}:focus`).waitFor();
      }
      await page.getByLabel(`Text: ${row}`).fill(`Artikel ${i + 1}`);
      await page.getByLabel(`Menge: ${row}`).fill(i === 1 ? '2' : '1');
      await page.getByLabel(`Preis: ${row}`).fill(price);
      await page.getByLabel(`Konto: ${row}`).fill('3400');
      await page.getByLabel(`MWST: ${row}`).selectOption('2200');
    }
    t.equal(await page.getByLabel('Text: Position 1').inputValue(), 'Artikel 1', 'the rows typed before are kept');
    await page.getByRole('button', { name: 'Summen berechnen' }).click();
    // the page the button answers (its totals take the focus), not the script's totals of the page before
    await page.locator('#totals-preview:focus').waitFor();
    // 100 + 41.00 + 1000 + 7.35 + 12 + 3.10 = 1163.45; 8.1 % per item: 8.10 3.32 81.00 0.60 0.97 0.25 = 94.24
    t.equal(await page.locator('#preview-net').textContent(), "CHF 1'163.45", 'net, as the ledger computes it');
    t.equal(await page.locator('#totals-preview [data-tax="2200"]').textContent(), 'CHF 94.24', 'VAT at 8.1 %');
    t.match(await page.locator('#totals-preview').textContent(), /MWST 8\.1 % auf 1'163\.45/, 'on its base');
    t.equal(await page.locator('#preview-gross').textContent(), "CHF 1'257.69", 'gross');
    t.equal((await rest('GET', '/arap/invoices/customer')).body.length, 0, 'a preview writes nothing');
    t.equal(await page.getByLabel('Preis: Position 6').inputValue(), '3.10', 'the form kept as typed');
    await checkPage(t, page, 'de-invoice-preview');

    await page.getByRole('button', { name: 'Buchen' }).click();
    await page.getByText('Gebucht.').waitFor();
    const [stored] = (await rest('GET', '/arap/invoices/customer')).body;
    const read = (await rest('GET', `/arap/invoice/customer/${stored.id}`)).body;
    t.same(
      [read.status, read.customer_id, read.items.length, read.netAmount, read.grossAmount],
      ['posted', customer.body.id, 6, 1163.45, 1257.69],
      'posted with its six items, the totals previewed',
    );
  });

  t.test("with script, the ledger's totals as one types", async (t) => {
    const vendor = await rest('POST', '/arap/vendor', { name: 'Reinigung Blitz GmbH' });
    await page.goto(`${stack.url}${bills}`);
    await page.getByLabel('Lieferant', { exact: true }).selectOption({ label: 'Reinigung Blitz GmbH' });
    await page.getByLabel('Text: Position 1').fill('Büroreinigung');
    await page.getByLabel('Menge: Position 1').fill('2');
    await page.getByLabel('Konto: Position 1').fill('6500');
    await page.getByLabel('Preis: Position 1').fill('250');
    const gross = page.locator('#totals-live #preview-gross');
    await gross.waitFor();
    t.equal(await gross.textContent(), 'CHF 500.00', 'the totals appear without a page load (no tax chosen)');
    await page.getByLabel('MWST: Position 1').selectOption('1170');
    await page.locator('#totals-live #preview-gross', { hasText: 'CHF 540.50' }).waitFor();
    t.pass('and follow a change: 500 + 8.1 % input VAT');
    await page.getByLabel('Preis: Position 1').fill('');
    await page.locator('#totals-live #preview-gross').waitFor({ state: 'detached' });
    t.pass('an item without a price has no totals');
    t.equal(page.url(), `${stack.url}${bills}`, 'still the same page');
    const written = (await rest('GET', `/arap/invoices/vendor?vendor_id=${vendor.body.id}`)).body;
    t.equal(written.length, 0, 'nothing written');
  });

  t.test('a bill: rows added without script, a refusal named at the row it is about', async (t) => {
    const vendor = await rest('POST', '/arap/vendor', { name: 'Papeterie Muster AG' });
    const list = await browser.get(bills);
    t.match(list.html, /<input type="hidden" name="rows" value="4"\/>/, 'four rows at first');
    const typed = {
      party: String(vendor.body.id),
      invDate: '2026-11-20',
      description_0: 'Papier',
      quantity_0: '5',
      price_0: '42.50',
      account_0: '6500',
    };
    const more = await browser.submit(list, `${bills}/new`, { ...typed, action: 'add-row' });
    t.equal(more.status, 200);
    t.match(more.html, /<input type="hidden" name="rows" value="5"\/>/, 'one more row');
    t.match(more.html, /<fieldset class="row" data-row="4">/);
    t.match(more.html, /id="service-4"[^>]*autofocus/, 'the focus in the new row');
    t.match(decode(more.html), /id="idesc-0" name="description_0" value="Papier"/, 'what was typed is kept');
    t.equal((await rest('GET', '/arap/invoices/vendor')).body.length, 0, 'nothing written');

    // rows 2 to 4 empty, the fifth with an unknown account: the ledger's items[1] is the form's row 5
    const wrong = { ...typed, rows: '5', description_4: 'Toner', quantity_4: '1', price_4: '80', account_4: '9999' };
    const refused = await browser.submit(more, `${bills}/new`, { ...wrong, action: 'preview' });
    t.equal(refused.status, 400, 'the ledger refuses the preview');
    t.match(refused.html, /id="refusal"/);
    t.match(refused.html, /id="iaccount-4"[^>]*aria-invalid="true"/, "the fifth row's account is marked");
    t.notMatch(refused.html, /id="iaccount-1"[^>]*aria-invalid/, 'not the second row');

    const previewed = await browser.submit(more, `${bills}/new`, { ...wrong, account_4: '6500', action: 'preview' });
    t.equal(previewed.status, 200);
    t.match(decode(previewed.html), /<dd id="preview-net">CHF 292.50<\/dd>/, "the ledger's net of both rows");
    const posted = await browser.submit(previewed, `${bills}/new`, { ...wrong, account_4: '6500', post: '1' });
    t.equal(posted.status, 303, 'posted');
    const stored = (await rest('GET', '/arap/invoices/vendor')).body;
    t.same(
      stored.map((b: { netAmount: number; status: string }) => [b.status, b.netAmount]),
      [['posted', 292.5]],
    );
  });

  t.test('a journal entry of five lines, its rows added without script', async (t) => {
    const entries = `/books/${a.dataset}/entries`;
    const list = await browser.get(entries);
    const typed: Record<string, string> = { transdate: '2026-11-20', description: 'Aufteilung' };
    for (let i = 0; i < 4; i++) Object.assign(typed, { [`account_${i}`]: '6500', [`debit_${i}`]: '25' });
    const page = await browser.submit(list, `${entries}/new`, { ...typed, action: 'add-row' });
    t.equal(page.status, 200);
    t.match(page.html, /<input type="hidden" name="rows" value="5"\/>/, 'five rows');
    t.match(page.html, /id="account-4"[^>]*autofocus/, 'the focus in the fifth');
    t.match(page.html, /id="debit-3" name="debit_3" value="25"/, 'the fourth row kept');
    const posted = await browser.submit(page, `${entries}/new`, {
      ...typed,
      rows: '5',
      account_4: '1020',
      credit_4: '100',
      post: '1',
    });
    t.equal(posted.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(posted.html)?.[1] ?? 'posted');
    const [entry] = (await rest('GET', '/gl/transactions?limit=1&sort=-id')).body;
    const read = (await rest('GET', `/gl/transactions/${entry.id}`)).body;
    t.equal(read.lines.length, 5, 'five lines written by the ledger');
  });

  t.test("a vendor's bank account changed and deleted", async (t) => {
    const vendor = await rest('POST', '/arap/vendor', { name: 'Druckerei Beispiel AG' });
    const vendorId = vendor.body.id as number;
    const kept = await rest('POST', `/arap/vendor/${vendorId}/bank_accounts`, {
      iban: 'CH9300762011623852957',
      name: 'Druckerei Beispiel AG',
    });
    const spare = await rest('POST', `/arap/vendor/${vendorId}/bank_accounts`, {
      iban: 'CH5604835012345678009',
      description: 'altes Konto',
    });
    t.equal(kept.status, 201);
    t.equal(spare.status, 201);
    // a bill names the first: the ledger keeps it
    const bill = await rest('POST', '/arap/invoice/vendor', {
      vendor_id: vendorId,
      invDate: '2026-11-20',
      vc_bank_id: kept.body.id,
      items: [{ description: 'Flyer', quantity: 1, price: 200, account: '6500' }],
      pending: '0',
    });
    t.equal(bill.status, 201, JSON.stringify(bill.body));

    await page.goto(`${stack.url}${parties}/vendor/${vendorId}`);
    await page.getByRole('link', { name: 'CH93 0076 2011 6238 5295 7' }).click();
    await page.locator('#vendor-bank-change').waitFor();
    t.equal(await page.getByLabel('IBAN').inputValue(), 'CH93 0076 2011 6238 5295 7', 'in groups of four');
    await page.getByLabel('BIC').fill('POFICHBEXXX');
    await page.getByLabel('Beschreibung').fill('Hauptkonto');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Das Bankkonto ist geändert.').waitFor();
    const banks = () => rest('GET', `/arap/vendor/${vendorId}/bank_accounts`);
    t.match((await banks()).body[0], { iban: 'CH9300762011623852957', bic: 'POFICHBEXXX', description: 'Hauptkonto' });

    await page.getByRole('link', { name: 'CH93 0076 2011 6238 5295 7' }).click();
    await page.getByLabel('IBAN').fill('CH9300762011623852958');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.locator('#refusal').waitFor();
    t.equal(await page.getByLabel('IBAN').inputValue(), 'CH9300762011623852958', 'the refused IBAN kept as typed');
    t.equal(await page.getByLabel('IBAN').getAttribute('aria-invalid'), 'true', 'marked');
    await checkPage(t, page, 'de-vendor-bank-account');
    await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 7');
    await page.getByLabel('Beschreibung').fill('');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Das Bankkonto ist geändert.').waitFor();
    t.notOk((await banks()).body[0].description, 'an emptied description is cleared');

    await page.getByRole('link', { name: 'CH93 0076 2011 6238 5295 7' }).click();
    await page.getByRole('button', { name: 'Dieses Bankkonto löschen' }).click();
    await page.locator('#refusal').waitFor();
    t.match(await page.locator('#refusal').textContent(), /conflict/, "the ledger's refusal: a bill names it");
    t.equal((await banks()).body.length, 2, 'kept');

    await page.goto(`${stack.url}${parties}/vendor/${vendorId}`);
    await page.getByRole('link', { name: 'CH56 0483 5012 3456 7800 9' }).click();
    await page.getByRole('button', { name: 'Dieses Bankkonto löschen' }).click();
    await page.getByText('Das Bankkonto ist gelöscht.').waitFor();
    t.same(
      (await banks()).body.map((b: { id: number }) => b.id),
      [kept.body.id],
      'deleted by the ledger',
    );

    const viewer = await a.addMember('viewer');
    const asViewer = new Browser(stack.url);
    await asViewer.signIn(viewer, '/');
    const read = await asViewer.get(`${parties}/vendor/${vendorId}/bank-accounts/${kept.body.id}`);
    t.equal(read.status, 200);
    t.match(read.html, /<dl id="vendor-bank">/, 'a viewer reads it');
    t.notMatch(read.html, /id="vendor-bank-change"|id="vendor-bank-delete"/, 'without forms');
    const csrf = /name="csrf" value="([^"]+)"/.exec(read.html)![1]!;
    const forged = await asViewer.request(
      'POST',
      `${parties}/vendor/${vendorId}/bank-accounts/${kept.body.id}/delete`,
      {
        csrf,
      },
    );
    t.equal(forged.status, 403, 'the ledger refuses a viewer');
    t.equal((await banks()).body.length, 1);
  });
});
