/**
 * Books → Recurring invoices, Quotes and Dunning in a real browser (docs/app.md, docs/invoices.md):
 * a recurring invoice made in German with its schedule, next dates, pause and resume, and a refusal
 * that keeps what was typed; a quote accepted and turned into a draft invoice in French; a dunning
 * proposal sent. Each page passes the accessibility and 375 px check.
 */
import t from 'tap';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test('sales pages in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const customer = await rest('POST', '/arap/customer', { name: 'Bäckerei Beispiel', language: 'de' });
  t.equal(customer.status, 201, JSON.stringify(customer.body));
  const browser = await launchChromium();
  t.teardown(() => browser.close());

  t.test('recurring invoices in German: create, next dates, pause, resume, a refusal', async (t) => {
    const { context, page } = await personWindow(stack, browser, a, 1100, undefined, 'de-CH');
    await context.setExtraHTTPHeaders({ 'Accept-Language': 'de-CH' });
    await page.goto(`${stack.url}/books/${a.dataset}/recurring`);
    t.match(await page.locator('h1').textContent(), /Wiederkehrende Rechnungen/);
    t.match(await page.locator('#no-recurring').textContent(), /Noch keine Einträge/);

    // a price the ledger cannot read: refused, and the form keeps what was typed
    await page.getByLabel('Positionstext').fill('Miete {month} {year}');
    await page.getByLabel('Ertragskonto').fill('3400');
    await page.getByRole('button', { name: 'Erstellen' }).click();
    await page.locator('#refusal').waitFor();
    t.equal(await page.getByLabel('Positionstext').inputValue(), 'Miete {month} {year}', 'kept');
    t.same((await rest('GET', '/arap/recurring/customer')).body, [], 'nothing created');

    await page.getByLabel('Einzelpreis').fill('1000');
    await page.getByLabel('Steuerkonto (optional)').fill('2200');
    await page.getByLabel('Tag im Monat').selectOption('last');
    await page.getByLabel('Beginn').fill('2026-01-01');
    await page.getByLabel('Modus').selectOption('post');
    await page.getByRole('button', { name: 'Erstellen' }).click();
    await page.locator('#created').waitFor();
    const row = page.locator('#recurring tbody tr').first();
    const text = await row.textContent();
    t.match(text, /Bäckerei Beispiel/);
    t.match(text, /alle 1 Monat\(e\), letzter Tag/);
    t.match(text, /Verbuchen/);
    t.match(text, /31\.01\.2026/);
    t.match(text, /CHF 1'081\.00/);
    t.equal(await row.locator('[data-status]').getAttribute('data-status'), 'active');
    await checkPage(t, page, 'recurring');

    await row.getByRole('link', { name: 'Nächste Termine' }).click();
    await page.locator('#preview').waitFor();
    const dates = await page.locator('#preview tbody tr td:first-child').allTextContents();
    t.same(dates.slice(0, 3), ['31.01.2026', '28.02.2026', '31.03.2026'], 'the last day of each month');
    t.equal(dates.length, 12);

    await page.getByRole('button', { name: 'Pausieren' }).click();
    await page.locator('[data-status="paused"]').waitFor();
    t.match(await page.locator('#recurring').textContent(), /Pausiert/);
    await page.getByRole('button', { name: 'Fortsetzen' }).click();
    await page.locator('[data-status="active"]').waitFor();
    const [made] = (await rest('GET', '/arap/recurring/customer')).body;
    t.match(made, { status: 'active', mode: 'post', schedule: { day: 'last', start: '2026-01-01' } });
    await context.close();
  });

  t.test('a quote in French: accepted, then a draft invoice', async (t) => {
    const quote = await rest('POST', '/arap/quote/customer', {
      customer_id: customer.body.id,
      invDate: '2026-01-10',
      valid_until: '2099-12-31',
      items: [{ description: 'Conseil', quantity: 2, price: 150, account: '3400', taxAccount: '2200' }],
    });
    t.equal(quote.status, 201, JSON.stringify(quote.body));
    const { context, page } = await personWindow(stack, browser, a, 1100, undefined, 'fr-CH');
    await context.setExtraHTTPHeaders({ 'Accept-Language': 'fr-CH' });
    await page.goto(`${stack.url}/books/${a.dataset}/quotes`);
    const row = page.locator('#quotes tbody tr').first();
    t.equal(await row.locator('[data-status]').getAttribute('data-status'), 'draft');
    await checkPage(t, page, 'quotes');
    await row.getByRole('button', { name: 'Acceptée' }).click();
    await page.locator('[data-status="accepted"]').waitFor();
    await page.locator('#quotes tbody tr').first().getByRole('button', { name: 'Créer la facture' }).click();
    await page.waitForURL(/\/workstation\/customer\/\d+$/);
    const invoiceId = Number(page.url().split('/').pop());
    const invoice = (await rest('GET', `/arap/invoice/customer/${invoiceId}`)).body;
    t.match(invoice, { status: 'draft', grossAmount: 324.3 });
    t.match((await rest('GET', `/arap/quote/customer/${quote.body.id}`)).body, {
      status: 'invoiced',
      invoice_id: invoiceId,
    });
    await context.close();
  });

  t.test('the dunning proposal of a day, sent once', async (t) => {
    const text = { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' };
    const set = await rest('POST', '/system/company', { dunning: { levels: [{ days: 5, fee: 0, text }] } });
    t.equal(set.status, 200, JSON.stringify(set.body));
    const invoice = await rest('POST', '/arap/invoice/customer', {
      type: 'invoice',
      customer_id: customer.body.id,
      invNumber: 'INV-DUN-1',
      invDate: '2025-03-01',
      terms: 30,
      pending: '0',
      items: [{ description: 'Brot', quantity: 1, price: 100, account: '3400', taxAccount: '2200' }],
    });
    t.equal(invoice.status, 201, JSON.stringify(invoice.body));
    const { context, page } = await personWindow(stack, browser, a, 1100, undefined, 'de-CH');
    await context.setExtraHTTPHeaders({ 'Accept-Language': 'de-CH' });
    await page.goto(`${stack.url}/books/${a.dataset}/dunning?date=2025-05-01`);
    t.match(await page.locator('#proposal').textContent(), /INV-DUN-1/);
    await checkPage(t, page, 'dunning');
    await page.getByRole('button', { name: 'Mahnungen versenden' }).click();
    await page.locator('#sent').waitFor();
    t.match(await page.locator('#sent').textContent(), /1 Mahnungen versandt/);
    t.equal(await page.locator('#no-reminders').count(), 1, 'nothing left to send that day');
    t.equal((await rest('GET', '/arap/dunning/runs')).body.length, 1);
    await context.close();
  });
});
