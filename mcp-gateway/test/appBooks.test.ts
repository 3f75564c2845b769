/**
 * Books → Journal entries, Books → Chart of accounts and System → Audit log in the app: a
 * balanced entry written and posted (an unbalanced one refused, as typed), reversed; an account
 * added and renamed; each change found in the audit log by who, what and way. Over HTTP (in
 * French) against a real ledger and gateway, each result read back through the REST API; then
 * the pages in Chromium (axe, 375 px, screenshots).
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { Browser, decode, startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

const CAMT = readFileSync(
  new URL('../../ledger-service/test/fixtures/bank/camt.053.001.08.xml', import.meta.url),
  'utf8',
);

t.test('journal entries, chart of accounts and audit log in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const entries = `/books/${a.dataset}/entries`;
  const accounts = `/books/${a.dataset}/accounts`;
  const audit = `/management/${a.dataset}/audit`;
  const browser = new Browser(stack.url);
  browser.language = 'fr';
  await browser.signIn(a, '/');

  t.test('write, post and reverse a journal entry', async (t) => {
    const list = await browser.get(entries);
    t.equal(list.status, 200);
    t.match(list.html, /<h1>Comptabilité → Écritures<\/h1>/);
    const typed = {
      transdate: '2026-11-02',
      reference: 'LOYER-11',
      description: 'Loyer novembre',
      account_0: '6000',
      debit_0: "2'400.00",
      account_1: '1020',
      credit_1: '2400',
    };
    const unbalanced = await browser.submit(list, `${entries}/new`, { ...typed, credit_1: '2000', post: '1' });
    t.equal(unbalanced.status, 400, 'the ledger refuses debits that do not equal credits');
    t.match(unbalanced.html, /id="refusal"/);
    t.match(decode(unbalanced.html), /value="2'400.00"/, 'the debit typed is kept');
    t.match(unbalanced.html, /value="LOYER-11"/, 'the reference typed is kept');
    const noCredit = await browser.submit(list, `${entries}/new`, { ...typed, credit_1: '', post: '1' });
    t.equal(noCredit.status, 400, 'a line without debit or credit');
    t.match(noCredit.html, /id="debit-1"[^>]*aria-invalid="true"/, 'the line is marked');
    t.equal((await rest('GET', '/gl/transactions')).body.length, 0, 'nothing is written');

    const posted = await browser.submit(list, `${entries}/new`, { ...typed, post: '1' });
    t.equal(posted.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(posted.html)?.[1] ?? 'posted');
    t.match((await browser.get(posted.location!)).html, /L’écriture est comptabilisée\./);
    const [entry] = (await rest('GET', '/gl/transactions')).body;
    t.same([entry.reference, entry.status, entry.totalDebit], ['LOYER-11', 'posted', 2400], 'posted by the ledger');

    const page = await browser.get(entries);
    const reversed = await browser.submit(page, `${entries}/${entry.id}/reverse`);
    t.equal(reversed.status, 303);
    const after = (await rest('GET', '/gl/transactions?sort=id')).body;
    t.same(
      after.map((e: { status: string }) => e.status),
      ['reversed', 'posted'],
      'the original reversed by a new entry',
    );
    const found = await browser.get(`${entries}?q=loyer&status=reversed`);
    t.match(found.html, new RegExp(`data-entry="${entry.id}"`), 'found by its text and status');
    t.notMatch(found.html, new RegExp(`data-entry="${after[1].id}"`));
  });

  t.test('add and change an account', async (t) => {
    const list = await browser.get(accounts);
    t.match(list.html, /<h1>Comptabilité → Plan comptable<\/h1>/);
    t.match(list.html, /data-account="1020"/);
    const refused = await browser.submit(list, `${accounts}/new`, {
      accno: '1020',
      description: 'Banque bis',
      category: 'A',
    });
    t.equal(refused.status, 409, 'an account number the chart has');
    t.match(refused.html, /value="Banque bis"/, 'the name typed is kept');
    const added = await browser.submit(list, `${accounts}/new`, {
      accno: '6580',
      description: 'Abonnements logiciels',
      category: 'E',
      link_AP_amount: '1',
    });
    t.equal(added.status, 303, /id="refusal"[^>]*>(.*?)<\/div>/.exec(added.html)?.[1] ?? 'added');
    const page = await browser.get(`${accounts}/6580`);
    t.match(page.html, /id="c-link-AP_amount"[^>]*checked/, 'its link ticked');
    const saved = await browser.submit(page, `${accounts}/6580`, {
      description: 'Abonnements et licences',
      category: 'E',
      link_AP_amount: '1',
    });
    t.equal(saved.status, 303);
    const stored = (await rest('GET', '/system/chart/accounts?limit=1000')).body.find(
      (x: { accno: string }) => x.accno === '6580',
    );
    t.same([stored.description, stored.category, stored.links], ['Abonnements et licences', 'E', ['AP_amount']]);
  });

  t.test('import a camt.053 and book a line to an account', async (t) => {
    const bank = await rest('POST', '/bank/accounts', {
      name: 'Compte principal',
      iban: 'CH93 0076 2011 6238 5295 7',
      currency: 'CHF',
      account: '1020',
    });
    const list = await browser.get(`/books/${a.dataset}/bank`);
    t.match(list.html, /<h1>Comptabilité → Banque<\/h1>/);
    const path = `/books/${a.dataset}/bank/${bank.body.id}`;
    t.match(list.html, new RegExp(`href="${path}"`), 'the account leads to its page');
    const csrf = /name="csrf" value="([^"]+)"/.exec(list.html)![1]!;
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('statement', new Blob([CAMT], { type: 'application/xml' }), 'releve.xml');
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const uploaded = await fetch(`${stack.url}${path}/import`, {
      method: 'POST',
      body: form,
      headers: { cookie, 'accept-language': 'fr' },
      redirect: 'manual',
    });
    t.equal(uploaded.status, 303, await uploaded.clone().text());
    const page = await browser.get(uploaded.headers.get('location')!);
    t.match(page.html, /Mouvements non comptabilisés/, 'in the page language');
    const [line] = (await rest('GET', `/bank/transactions?account=${bank.body.id}&status=unmatched`)).body;
    const booked = await browser.submit(page, `${path}/lines/${line.id}/book`, { account: '3400' });
    t.equal(booked.status, 303, booked.html.slice(0, 300));
    t.match((await rest('GET', `/bank/transactions/${line.id}`)).body, { status: 'booked', account: '3400' });
  });

  t.test('the audit log by who, what and way', async (t) => {
    await rest('POST', '/arap/customer', { name: 'Par clé API SA' });
    const all = decode((await browser.get(audit)).html);
    t.match(all, /<h1>Système → Journal d’audit<\/h1>/);
    // the table alone (the filter's choices name every way)
    const table = (html: string) =>
      decode(/<table id="audit">[\s\S]*<\/table>|<p id="no-audit">/.exec(html)?.[0] ?? '');
    const byApp = table((await browser.get(`${audit}?via=app`)).html);
    t.match(byApp, /journal_entry/, 'the entries written in the app');
    t.match(byApp, /chart_account|account/, 'the account added in the app');
    t.notMatch(byApp, /clé API/, 'not what came through the API key');
    const byKey = table((await browser.get(`${audit}?via=api_key&what=customer`)).html);
    t.match(byKey, /clé API/);
    t.notMatch(byKey, /journal_entry/, 'only customers');
    const byWho = await browser.get(`${audit}?who=nobody@else.example`);
    t.match(byWho.html, /id="no-audit"/, 'nobody else changed anything');
  });

  t.test('the pages in a real browser: axe, 375 px, screenshots', async (t) => {
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, 'fr-CH');
    await page.getByRole('link', { name: 'Écritures', exact: true }).first().click();
    await page.locator('#entries').waitFor();
    await checkPage(t, page, 'fr-entries');
    await page.getByLabel('Référence', { exact: true }).fill('AMORT-11');
    await page.getByLabel('Débit : ligne 1').fill('500');
    await page.getByLabel('Compte : ligne 1').fill('6800');
    await page.getByLabel('Crédit : ligne 2').fill('500');
    await page.getByLabel('Compte : ligne 2').fill('1500');
    await page.getByRole('button', { name: 'Comptabiliser' }).click();
    await page.getByText('L’écriture est comptabilisée.').waitFor();
    t.match(await page.locator('#entries').textContent(), /AMORT-11/);

    await page.getByRole('link', { name: 'Plan comptable', exact: true }).first().click();
    await page.locator('#accounts').waitFor();
    await checkPage(t, page, 'fr-accounts');
    await page.getByRole('link', { name: '6580', exact: true }).click();
    await checkPage(t, page, 'fr-account');

    await page.getByRole('link', { name: 'Banque', exact: true }).first().click();
    await page.locator('#bank-accounts').waitFor();
    await checkPage(t, page, 'fr-bank');
    await page.getByRole('link', { name: 'Compte principal' }).click();
    await page.locator('#unbooked').waitFor();
    await checkPage(t, page, 'fr-bank-account');

    await page.getByRole('link', { name: 'Journal d’audit', exact: true }).first().click();
    await page.locator('#audit').waitFor();
    await checkPage(t, page, 'fr-audit');
  });
});
