/**
 * Books → Fixed assets (pages/app/fixedAssets.tsx) over HTTP: a person adds an asset, books
 * depreciation up to a date (a second run to the same date books nothing), sees the book value,
 * gets the ledger's refusal on bad input, and reads the page in French when the browser asks.
 */
import t from 'tap';
import { Browser, startStack } from './helpers.ts';

t.test('the fixed assets page', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const browser = new Browser(stack.url);
  await browser.signIn(a);
  const path = `/books/${a.dataset}/assets`;
  const page = await browser.get(path);
  t.equal(page.status, 200);
  t.match(page.html, /id="no-assets"/);
  t.match(page.html, /Fixed assets/, 'the test browser asks for English');

  const refused = await browser.submit(page, path, {
    name: 'Van',
    asset_account: '1500',
    expense_account: '1020',
    acquired: '2024-01-10',
    cost: '10000',
    method: 'declining',
    rate: '40',
    frequency: 'year',
  });
  t.equal(refused.status, 422);
  t.match(refused.html, /Account 1020 is not an expense account/);

  const added = await browser.submit(page, path, {
    name: 'Van',
    asset_account: '1500',
    expense_account: '6800',
    accumulated_account: '1509',
    acquired: '2024-01-10',
    cost: '10000',
    residual: '0',
    method: 'declining',
    rate: '40',
    frequency: 'year',
  });
  t.equal(added.status, 303);
  const list = await browser.get(added.location!);
  t.match(list.html, /data-asset="\d+"/);
  t.match(list.html, /10&#39;000\.00/);

  const run = await browser.submit(list, `${path}/depreciation`, { to: '2024-12-31' });
  t.equal(run.status, 303);
  const after = await browser.get(run.location!);
  t.match(after.html, /id="booked"/);
  t.match(after.html, /6&#39;000\.00/, 'book value after the first year');
  const again = await browser.submit(after, `${path}/depreciation`, { to: '2024-12-31' });
  const nothing = await browser.get(again.location!);
  t.match(nothing.html, /id="nothing-due"/);

  const french = await browser.request('GET', path, undefined, { 'accept-language': 'fr-CH' });
  t.match(french.html, /Immobilisations/);
});

t.test('the revaluation page', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const browser = new Browser(stack.url);
  await browser.signIn(a);
  const path = `/books/${a.dataset}/revaluation`;
  const page = await browser.get(path);
  t.equal(page.status, 200);
  t.match(page.html, /Closing rate EUR/);
  const done = await browser.submit(page, path, { date: '2026-12-31', rate_EUR: '0.93', reverse_next_day: '1' });
  t.equal(done.status, 200);
  t.match(done.html, /id="revalued"/);
  t.match(done.html, /nothing booked/, 'no foreign-currency item: nothing booked');
  const refused = await browser.submit(page, path, { date: '2026-12-31', rate_EUR: '0' });
  t.equal(refused.status, 422, 'the ledger refuses a rate of 0');
});
