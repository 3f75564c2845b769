/**
 * The reports page laid out per the Code of Obligations (Art. 959a/959b, `layout=or`) in the person's language,
 * the accounts named in it; the period defaults to the company's fiscal year. Over HTTP against a real ledger and
 * gateway, then the page in Chromium (axe, 375 px, screenshot to test-artifacts/app/).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { pdfText } from '../../ledger-service/test/support/pdf.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test('the income statement and balance sheet per the Code of Obligations', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const today = new Date().toISOString().slice(0, 10);
  const sale = await rest('POST', '/gl/transactions', {
    transdate: today,
    pending: '0',
    lines: [
      { account: '1020', debit: 1250 },
      { account: '3400', credit: 1250 },
    ],
  });
  t.equal(sale.status, 201);

  const browser = new Browser(stack.url);
  browser.language = 'de';
  await browser.signIn(a, '/');
  const income = decode((await browser.get(`/books/${a.dataset}/reports?report=income_statement&layout=or`)).html);
  t.match(income, /nach Obligationenrecht/, 'the caption names the law');
  t.match(
    income,
    new RegExp(
      '<tr data-item="net_revenue"><th scope="row">1 Nettoerlöse aus Lieferungen und Leistungen</th>' +
        `<td class="num">1'250\\.00`,
    ),
    'item 1 in German, revenue positive',
  );
  t.match(income, /3400 Dienstleistungserlöse/, 'the account named in German');
  t.match(
    income,
    /<tr data-item="net_income"><th scope="row">11 Jahresgewinn oder Jahresverlust<\/th><td class="num">1'250\.00/,
  );
  t.match(income, /name="layout" value="or" checked/, 'the form keeps the layout');

  browser.language = 'fr';
  const sheet = decode(
    (await browser.get(`/books/${a.dataset}/reports?report=balance_sheet&to=${today}&layout=or`)).html,
  );
  t.match(sheet, /1\.a Trésorerie et actifs cotés en bourse détenus à court terme<\/th><td class="num">1'250\.00/);
  t.match(sheet, /1020 Avoirs bancaires/, 'the account named in French');
  t.match(sheet, /3\.g Bénéfice ou perte de l'exercice<\/th><td class="num">1'250\.00/, "the year's profit in 3.g");

  const csv = await browser.get(`/books/${a.dataset}/reports/download?report=income_statement&layout=or&format=csv`);
  t.equal(csv.status, 200);
  t.match(
    csv.html,
    /Produits nets des ventes de biens et de prestations de services,1250\.00/,
    'the CSV in the layout',
  );

  // the statements' PDF is in the law's layout also when the page was not: its items, the profit positive
  const pdf = await fetch(`${stack.url}/books/${a.dataset}/reports/download?report=balance_sheet&format=pdf`, {
    headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'accept-language': 'fr' },
  });
  t.equal(pdf.headers.get('content-type'), 'application/pdf');
  const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
  t.match(text, /Trésorerie et actifs cotés en bourse/, "the balance sheet's PDF in the law's items, in French");
  t.match(text, /Bénéfice ou perte de l'exercice/, "the year's profit as item 3.g");
  t.notMatch(text, /-\s*1.?250\.00/, 'no amount printed negative');

  // the plain report without a period: the company's fiscal year (July–June here) to date
  t.equal((await rest('POST', '/system/company', { fiscal_year_start: '07-01' })).status, 200);
  const year = today.slice(5, 7) >= '07' ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
  const plain = decode((await browser.get(`/books/${a.dataset}/reports?report=income_statement`)).html);
  t.match(plain, new RegExp(`id="from" name="from" value="${year}-07-01"`), 'from: the fiscal year start');

  const chromium = await launchChromium();
  t.teardown(() => chromium.close());
  const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
  await page.goto(`${stack.url}/books/${a.dataset}/reports?report=balance_sheet&layout=or`);
  await page
    .getByText('Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs', { exact: false })
    .first()
    .waitFor();
  await checkPage(t, page, 'de-reports-balance-sheet-or');
});
