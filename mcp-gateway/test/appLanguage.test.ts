/**
 * The app in the person's language: the browser's Accept-Language until the person chooses one on
 * "My Profile → Language", Swiss formats in every language, a refused form that keeps what was typed
 * and says its message at the field, and the balance sheet as a Swiss fiduciary reads it (the
 * year's profit positive). Over HTTP against a real ledger and gateway, then the German pages in
 * Chromium (axe, 375 px, screenshots to test-artifacts/app/).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, formFields, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test("the app speaks the person's language", async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const today = new Date().toISOString().slice(0, 10);
  const [y, m, d] = today.split('-');
  // a sale of 1'250.00 posted: the year's profit
  const sale = await rest('POST', '/gl/transactions', {
    transdate: today,
    pending: '0',
    description: 'Beratung',
    lines: [
      { account: '1020', debit: 1250 },
      { account: '3400', credit: 1250 },
    ],
  });
  t.equal(sale.status, 201, 'a sale is posted');

  t.test("the browser's language until the person chooses one", async (t) => {
    const browser = new Browser(stack.url);
    browser.language = 'de-CH, de;q=0.9, en;q=0.5';
    await browser.signIn(a, '/');
    let home = await browser.get('/');
    t.match(home.html, /<html lang="de">/, 'the page says its language');
    t.match(home.html, /<h1>Ihre Firmen<\/h1>/, 'German from Accept-Language');
    t.match(home.html, /Inhaber/, 'the role in German');

    browser.language = 'fr-CH, fr;q=0.9';
    home = await browser.get('/');
    t.match(home.html, /<h1>Vos entreprises<\/h1>/, 'French when the browser asks for it');

    const profile = await browser.get('/account/profile');
    t.match(profile.html, /<option value="it" lang="it">Italiano<\/option>/, 'each language named in itself');
    const saved = await browser.submit(profile, '/account/profile', { language: 'it' });
    t.equal(saved.status, 303);
    const after = await browser.get(saved.location!);
    t.match(after.html, /La lingua è salvata\./, 'the choice is confirmed in the chosen language');
    home = await browser.get('/');
    t.match(home.html, /<h1>Le vostre aziende<\/h1>/, "the person's choice wins over the browser's");

    const refused = await browser.submit(await browser.get('/account/profile'), '/account/profile', {
      language: 'es',
    });
    t.equal(refused.status, 400, 'a language the app does not speak is refused');
    t.match(refused.html, /Scegliete una delle lingue proposte\./);

    await browser.submit(await browser.get('/account/profile'), '/account/profile', { language: '' });
    home = await browser.get('/');
    t.match(home.html, /<h1>Vos entreprises<\/h1>/, "forgetting the choice: the browser's language again");
  });

  t.test('Swiss formats and the balance sheet as a fiduciary reads it', async (t) => {
    const browser = new Browser(stack.url);
    browser.language = 'de';
    await browser.signIn(a, '/');
    const sheet = await browser.get(`/books/${a.dataset}/reports?report=balance_sheet&to=${today}`);
    t.equal(sheet.status, 200);
    const html = decode(sheet.html);
    t.match(html, `Bilanz per ${d}.${m}.${y}`, 'the date the Swiss way');
    t.match(html, /Aktiven[\s\S]*Fremdkapital[\s\S]*Eigenkapital/, 'the Swiss structure in German');
    t.match(
      html,
      /<td class="num" id="year-result">1'250\.00<\/td>/,
      "the year's profit positive (the ledger's JSON keeps it negative)",
    );
    const json = await rest('GET', `/reports/balance_sheet?date=${today}`);
    t.equal(json.body.equity.current_year_result, -1250, 'the JSON API keeps its documented signs');
    t.match(html, /Total Passiven<\/th><td class="num">1'250\.00</, 'liabilities and equity positive');

    const income = decode((await browser.get(`/books/${a.dataset}/reports?report=income_statement`)).html);
    t.match(income, /<th scope="row">Gewinn<\/th><td class="num" id="net-income">1'250\.00/, 'a profit, positive');
    t.match(income, /Total Ertrag<\/th><td class="num">1'250\.00/, 'income positive');
  });

  t.test('a refused form keeps what was typed and says the message at the field', async (t) => {
    const browser = new Browser(stack.url);
    browser.language = 'de';
    await browser.signIn(a, '/');
    const members = await browser.get(`/management/${a.dataset}/members`);
    const action = `/management/${a.dataset}/members/invitations`;
    t.ok(formFields(members.html, action).csrf, 'the invitation form');
    const refused = await browser.submit(members, action, {
      email: 'neu@example.ch',
      role: 'accountant',
      approval_limit: 'viel',
    });
    t.equal(refused.status, 400);
    const html = decode(refused.html);
    t.match(html, /value="neu@example.ch"/, 'the e-mail typed is kept');
    t.match(html, /value="viel"/, 'the limit typed is kept');
    t.match(html, /<option value="accountant" selected="">Buchhalter<\/option>/, 'the role chosen is kept');
    t.match(
      html,
      /id="new-limit"[^>]*aria-invalid="true"[^>]*aria-describedby="new-limit-error"/,
      'the field is marked and points to its message',
    );
    t.match(
      html,
      /<p class="field-error" id="new-limit-error">Die Freigabelimite muss ein Betrag wie 1'000.00 sein/,
      'the message at the field, in German',
    );
  });

  t.test('the German pages in a real browser: axe, 375 px, screenshots', async (t) => {
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
    t.equal(await page.locator('h1').textContent(), 'Ihre Firmen', 'German after sign-in');
    t.equal(await page.getAttribute('link[rel=icon]', 'href'), '/assets/favicon.svg', 'a favicon');
    await checkPage(t, page, 'de-companies');
    await page.getByRole('link', { name: 'Arbeitsplatz' }).first().click();
    await page.getByRole('heading', { name: 'Buchhaltung → Arbeitsplatz' }).waitFor();
    await checkPage(t, page, 'de-workstation');
    await page.goto(`${stack.url}/books/${a.dataset}/reports?report=balance_sheet`);
    t.equal(await page.locator('#year-result').textContent(), "1'250.00", "the year's profit, positive");
    await checkPage(t, page, 'de-reports-balance-sheet');
    await page.getByRole('link', { name: 'Mein Profil → Sprache' }).click();
    await page.getByLabel('Sprache').selectOption('fr');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('La langue est enregistrée.').waitFor();
    await checkPage(t, page, 'fr-profile');
    await page.goto(`${stack.url}/management/${a.dataset}/company`);
    t.equal(await page.locator('h1').textContent(), 'Système → Administration → Entreprise', 'French now');
    await checkPage(t, page, 'fr-company');
    await page.goto(`${stack.url}/account/ai-connections`);
    await checkPage(t, page, 'fr-account-ai-connections');
    await page.goto(`${stack.url}/management/${a.dataset}/ai-connections`);
    await checkPage(t, page, 'fr-management-ai-connections');
  });
});
