/**
 * The bank account page (`/books/{dataset}/bank/{id}`, docs/bank.md "The bank account page")
 * through a person's browser on a real gateway and ledger: a statement uploaded as a file, the
 * unbooked lines with their best proposal, accepting one, making a rule from a line booked by
 * hand, and the reconciliation with its difference; texts in the browser's language (German by default).
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { Browser, startStack } from './helpers.ts';

const CAMT = readFileSync(
  new URL('../../ledger-service/test/fixtures/bank/camt.053.001.08.xml', import.meta.url),
  'utf8',
);

t.test('bank account page: upload, proposals accepted, rule from a line, reconciliation', async (t) => {
  const stack = await startStack(t);
  const company = await stack.company();
  const rest = apiClient(stack.url, company.dataset, company.apiKey);
  const account = await rest('POST', '/bank/accounts', {
    name: 'Main CHF',
    iban: 'CH93 0076 2011 6238 5295 7',
    currency: 'CHF',
    account: '1020',
  });
  t.equal(account.status, 201);
  const rule = await rest('POST', '/bank/rules', {
    name: 'Papeterie',
    conditions: { direction: 'out', counterparty: 'Müller' },
    action: { kind: 'book', account: '6500' },
  });
  t.equal(rule.status, 201);

  const browser = new Browser(stack.url);
  // a German-speaking bookkeeper (the test browser asks for English unless told)
  browser.language = 'de';
  await browser.signIn(company);
  const path = `/books/${company.dataset}/bank/${account.body.id}`;
  const empty = await browser.get(path);
  t.equal(empty.status, 200, empty.html.slice(0, 300));
  t.match(empty.html, /id="no-statement"/);
  t.match(empty.html, /id="no-unbooked"/);

  // the statement as a file, multipart as the form sends it
  const csrf = /name="csrf" value="([^"]+)"/.exec(empty.html)![1]!;
  const form = new FormData();
  form.set('csrf', csrf);
  form.set('statement', new Blob([CAMT], { type: 'application/xml' }), 'statement.xml');
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const uploaded = await fetch(`${stack.url}${path}/import`, {
    method: 'POST',
    body: form,
    headers: { cookie },
    redirect: 'manual',
  });
  t.equal(uploaded.status, 303, await uploaded.clone().text());
  const after = await browser.get(uploaded.headers.get('location')!);
  t.match(after.html, /7 Buchungen importiert, 0 bereits vorhanden/);
  t.match(after.html, /id="unbooked"/);
  t.match(after.html, /Regel «Papeterie»: auf Konto 6500 buchen/);
  t.match(after.html, /id="reconciliation"/);

  // English and French for a person whose browser asks for them
  const english = await browser.request('GET', path, undefined, { 'accept-language': 'en-GB,en;q=0.9' });
  t.match(english.html, /Unbooked lines/);
  t.match(english.html, /Rule “Papeterie”: book to account 6500/);
  const french = await browser.request('GET', path, undefined, { 'accept-language': 'fr-CH' });
  t.match(french.html, /Mouvements non comptabilisés/);

  // accept the rule's proposal on the Müller debit
  const line = (await rest('GET', '/bank/transactions?counterparty=müller')).body[0];
  const accepted = await browser.submit(after, `${path}/lines/${line.id}/accept`);
  t.equal(accepted.status, 303, accepted.html.slice(0, 500));
  t.match((await rest('GET', `/bank/transactions/${line.id}`)).body, { status: 'booked', rule_id: rule.body.id });
  // a stale proposal: the ledger's 409 shown on the page
  const stale = await browser.submit(after, `${path}/lines/${line.id}/accept`);
  t.equal(stale.status, 409);

  // a line booked by hand, then a rule made from it
  const other = (await rest('GET', '/bank/transactions?status=unmatched')).body[0];
  t.equal((await rest('POST', `/bank/transactions/${other.id}/book`, { account: '3400' })).status, 200);
  const withBooked = await browser.get(path);
  t.match(withBooked.html, new RegExp(`action="${path}/lines/${other.id}/rule"`));
  const made = await browser.submit(withBooked, `${path}/lines/${other.id}/rule`);
  t.equal(made.status, 303, made.html.slice(0, 500));
  t.equal((await rest('GET', '/bank/rules')).body.length, 2);

  // the reconciliation shows the difference: not every line is booked, so reconciling is refused
  const rec = (await rest('GET', `/bank/accounts/${account.body.id}/reconciliation`)).body;
  t.not(rec.difference, 0);
  const page = await browser.get(path);
  t.match(page.html, new RegExp(`data-difference="${rec.difference}"`));
  const refused = await browser.submit(page, `${path}/reconcile`);
  t.equal(refused.status, 409);
  t.match(refused.html, /differs from the ledger balance/);
});
