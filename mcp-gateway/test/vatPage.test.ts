/**
 * Books → VAT in a real browser (docs/vat.md "The app page"): prepare a quarter's return, read
 * its figures in the person's language, drill down from a figure to its documents, download
 * the form (PDF) and the eCH-0217 file (XML), settle it.
 */
import t from 'tap';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { startStack } from './helpers.ts';
import { personWindow } from './support/appBrowser.ts';

t.test('a VAT return in the app: prepare, figures, drill-down, downloads, settle', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  t.equal((await rest('POST', '/system/company', { vat_number: 'CHE-123.456.789 MWST' })).status, 200);
  const customer = await rest('POST', '/arap/customer', { name: 'Globex' });
  const sale = await rest('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invNumber: 'INV-VAT-1',
    invDate: '2025-02-15',
    pending: '0',
    lines: [{ account: '3400', amount: 1000, taxAccount: '2200' }],
  });
  t.equal(sale.status, 201, JSON.stringify(sale.body));
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const { context, page } = await personWindow(stack, browser, a, 1100, undefined, 'de-CH');
  await context.setExtraHTTPHeaders({ 'Accept-Language': 'de-CH' });

  await page.goto(`${stack.url}/books/${a.dataset}/vat`);
  t.match(await page.locator('#no-returns').textContent(), /Noch keine MWST-Abrechnungen/, 'in German');
  await page.locator('#from').fill('2025-01-01');
  await page.locator('#to').fill('2025-02-28');
  await page.getByRole('button', { name: 'Abrechnung erstellen' }).click();
  t.match(await page.locator('#refusal').textContent(), /2025-01-01 to 2025-03-31/, 'the ledger names the quarter');
  await page.locator('#from').fill('2025-01-01');
  await page.locator('#to').fill('2025-03-31');
  await page.getByRole('button', { name: 'Abrechnung erstellen' }).click();
  await page.locator('#figures').waitFor();
  const figures = await page.locator('#figures').textContent();
  t.match(figures, /Leistungen zum Normalsatz/, 'the figures in German');
  t.match(figures, /Total geschuldete Steuer\s*81\.00/);

  await page
    .locator('#figures tbody tr', { hasText: 'Leistungen zum Normalsatz 8,1 % (ab 1.1.2024): Steuer' })
    .getByRole('link')
    .click();
  await page.locator('#lines').waitFor();
  t.match(await page.locator('#lines').textContent(), /INV-VAT-1/, 'the document behind the figure');
  t.equal((await page.locator('#lines-total').textContent())?.trim(), '81.00');

  // the downloads, with the person's session, as the links name them
  for (const [link, type, start] of [
    ['Formular (PDF)', 'application/pdf', '%PDF-'],
    ['eCH-0217-Datei (XML)', 'application/xml', '<?xml'],
  ] as const) {
    const href = await page.getByRole('link', { name: link }).getAttribute('href');
    const file = await context.request.get(`${stack.url}${href}`);
    t.equal(file.status(), 200, `${link} downloads`);
    t.equal(file.headers()['content-type'], type);
    const body = (await file.body()).toString('latin1');
    t.equal(body.slice(0, start.length), start, `${link} is the file`);
    if (type === 'application/xml') t.match(body, /<eCH-0217:payableTax>81\.00</, 'the amount payable');
  }

  await page.getByRole('button', { name: /Abrechnung verbuchen/ }).click();
  await page.locator('#return-state').waitFor();
  t.match(await page.locator('#return-state').textContent(), /Verbucht mit Buchung \d+/, 'settled');
  t.equal(await page.locator('#settle').count(), 0, 'no second settle button');
  const list = (await rest('GET', '/reports/vat/returns')).body;
  t.equal(list[0].status, 'settled');
});
