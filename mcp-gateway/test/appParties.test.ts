/**
 * Books → Customers and vendors in the app: list and search either side, create one, change it;
 * a refusal of the ledger keeps what was typed and says the message at the field. Over HTTP (in
 * German) against a real ledger and gateway, then the pages in Chromium (axe, 375 px, screenshots).
 */
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test('customers and vendors in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const base = `/books/${a.dataset}/parties`;
  const browser = new Browser(stack.url);
  browser.language = 'de';
  await browser.signIn(a, '/');
  let partyPath = '';

  t.test('create a customer; a refused field keeps what was typed', async (t) => {
    const list = await browser.get(`${base}?vc=customer`);
    t.equal(list.status, 200);
    t.match(list.html, /<h1>Buchhaltung → Kunden und Lieferanten<\/h1>/);
    t.match(list.html, /<h2 id="new-heading">Neuer Kunde<\/h2>/, 'the form for a new customer');

    const refused = await browser.submit(list, `${base}/customer`, {
      name: 'Muster Treuhand AG',
      city: 'Bern',
      curr: 'CHF',
      terms: 'dreissig',
    });
    t.equal(refused.status, 400, 'the ledger refuses terms that are not days');
    const html = decode(refused.html);
    t.match(html, /id="refusal"/, 'the refusal above the form');
    t.match(html, /value="Muster Treuhand AG"/, 'the name typed is kept');
    t.match(html, /value="dreissig"/, 'the terms typed are kept');
    t.match(html, /id="p-terms"[^>]*aria-invalid="true"/, 'the terms field is marked');
    t.match(html, /<p class="field-error" id="p-terms-error">/, 'the message at the field');
    t.equal((await rest('GET', '/arap/customer?name=Muster')).body.length, 0, 'nothing is created');

    const created = await browser.submit(list, `${base}/customer`, {
      name: 'Muster Treuhand AG',
      address1: 'Bundesgasse',
      street: '3',
      zipcode: '3011',
      city: 'Bern',
      country: 'CH',
      email: 'buchhaltung@muster.example',
      curr: 'CHF',
      terms: '30',
    });
    t.equal(created.status, 303, 'created');
    partyPath = new URL(created.location!, stack.url).pathname;
    const page = decode((await browser.get(created.location!)).html);
    t.match(page, /Gespeichert\. Die Nummer ist/, 'its number is said');
    t.match(page, /value="Bundesgasse"/);
    const stored = (await rest('GET', '/arap/customer?name=Muster')).body[0];
    t.same([stored.city, stored.terms, stored.currency], ['Bern', 30, 'CHF'], 'stored by the ledger');
  });

  t.test('search and change', async (t) => {
    const found = decode((await browser.get(`${base}?vc=customer&name=treuhand`)).html);
    t.match(found, /<a href="[^"]+">Muster Treuhand AG<\/a>/, 'found by part of its name');
    t.match(found, /3011 Bern/);
    const none = await browser.get(`${base}?vc=customer&name=zzz`);
    t.match(none.html, /id="no-parties"/, 'nothing found');

    const page = await browser.get(partyPath);
    // the form as a browser sends it: every field, the e-mail emptied
    const saved = await browser.submit(page, partyPath, {
      name: 'Muster Treuhand AG',
      address1: 'Bundesgasse',
      street: '3',
      zipcode: '3600',
      city: 'Thun',
      country: 'CH',
      email: '',
      phone: '',
      curr: 'CHF',
      taxnumber: '',
      terms: '30',
    });
    t.equal(saved.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(saved.html)?.[1] ?? 'saved');
    const stored = (await rest('GET', '/arap/customer?name=Muster')).body[0];
    t.same(
      [stored.city, stored.zipcode, stored.address1, stored.email],
      ['Thun', '3600', 'Bundesgasse', null],
      'changed, the e-mail cleared',
    );
    t.match((await browser.get(saved.location!)).html, /Die Änderungen sind gespeichert\./);

    const vendors = await browser.get(`${base}?vc=vendor`);
    t.match(vendors.html, /<h2 id="new-heading">Neuer Lieferant<\/h2>/, 'the vendors side');
  });

  t.test('a viewer reads without forms', async (t) => {
    const viewer = await a.addMember('viewer');
    const asViewer = new Browser(stack.url);
    await asViewer.signIn(viewer, '/');
    const list = await asViewer.get(`${base}?vc=customer`);
    t.equal(list.status, 200);
    t.notMatch(list.html, /id="new-party"/, 'no form for a new customer');
    const page = await asViewer.get(partyPath);
    t.match(page.html, /<dl id="party">/, 'the customer read-only');
  });

  t.test('the pages in a real browser: axe, 375 px, screenshots', async (t) => {
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'de-CH');
    await page.getByRole('link', { name: 'Kunden und Lieferanten' }).first().click();
    await page.locator('#parties').waitFor();
    await checkPage(t, page, 'de-parties');
    await page.getByRole('link', { name: 'Muster Treuhand AG' }).click();
    await page.getByLabel('Ort').fill('Spiez');
    await page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await page.getByText('Die Änderungen sind gespeichert.').waitFor();
    await checkPage(t, page, 'de-party');
  });
});
