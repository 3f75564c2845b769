/**
 * Keyboard-only use of the app in Chromium: a bookkeeper signs in, opens Books → Invoices from
 * the companies page, writes an invoice, asks for the ledger's totals and posts it, with Tab,
 * Shift+Tab, Enter, the arrow keys and typing alone (no click, no `fill`). Every element the
 * focus reaches on the way must show it (an outline or a shadow the stylesheet gives it), and
 * the result is read back from the ledger.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { startStack, totpCode } from './helpers.ts';

/** What has the focus: its tag, label or text, and whether the focus is visible on it. */
interface Focused {
  tag: string;
  id: string;
  name: string;
  visible: boolean;
}

async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const labels = (el as HTMLInputElement).labels;
    const name = (labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
    return { tag: el.tagName.toLowerCase(), id: el.id, name, visible: outline || style.boxShadow !== 'none' };
  });
}

t.test('an invoice written and posted by keyboard alone, the focus visible at every stop', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const customer = await rest('POST', '/arap/customer', { name: 'Bäckerei Beispiel GmbH', curr: 'CHF' });
  t.equal(customer.status, 201);
  const chromium = await launchChromium();
  t.teardown(() => chromium.close());
  const context = await chromium.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-CH' });
  const page = await context.newPage();
  await stack.ledger.db('users').where({ id: a.userId }).update({ totp_last_step: -1 });

  /** every stop of the focus without a visible focus */
  const unseen: string[] = [];
  let stops = 0;
  /** Presses Tab (or Shift+Tab) until the focus is on what `wanted` accepts; fails after `max` presses. */
  async function tabTo(what: string, wanted: (f: Focused) => boolean, key = 'Tab', max = 150): Promise<void> {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(key);
      const f = await focused(page);
      if (!f) continue;
      stops++;
      if (!f.visible) unseen.push(`${f.tag}#${f.id} "${f.name.slice(0, 40)}"`);
      if (wanted(f)) return;
    }
    throw new Error(`the focus never reached ${what} in ${max} presses`);
  }
  const named = (name: string) => (f: Focused) => f.name === name;
  const byId = (id: string) => (f: Focused) => f.id === id;

  await page.goto(`${stack.url}/`);
  await tabTo('Email', named('Email'));
  await page.keyboard.type(a.email);
  await tabTo('Password', named('Password'));
  await page.keyboard.type(a.password);
  await tabTo('the code', named('Code from your authenticator app'));
  await page.keyboard.type(totpCode(a.totpSecret));
  await page.keyboard.press('Enter');
  await page.locator('#companies').waitFor();

  // from the companies page to Books → Invoices
  await tabTo('Rechnungen', (f) => f.tag === 'a' && f.name === 'Rechnungen');
  await page.keyboard.press('Enter');
  await page.locator('#new-document').waitFor();

  await tabTo('the customer', byId('d-party'));
  await page.keyboard.press('ArrowDown');
  t.equal(await page.locator('#d-party').inputValue(), String(customer.body.id), 'the customer chosen by arrow key');
  await tabTo('the text of item 1', byId('idesc-0'));
  await page.keyboard.type('Beratung');
  await tabTo('the quantity', byId('qty-0'));
  await page.keyboard.type('2');
  await tabTo('the price', byId('price-0'));
  await page.keyboard.type('150');
  await tabTo('the account', byId('iaccount-0'));
  await page.keyboard.type('3400');
  await tabTo('the tax', byId('tax-0'));
  await page.keyboard.type('2200');
  t.equal(await page.locator('#tax-0').inputValue(), '2200', 'the tax code chosen by typing');

  await tabTo('Summen berechnen', byId('preview-totals'));
  await page.keyboard.press('Enter');
  await page.locator('#totals-preview').waitFor();
  t.equal((await focused(page))?.id, 'totals-preview', 'the focus on the totals after the preview');
  t.equal((await focused(page))?.visible, true, 'and visible there');
  t.equal(await page.locator('#preview-gross').textContent(), 'CHF 324.30', "the ledger's total: 300 + 8.1 %");
  t.equal(await page.locator('#idesc-0').inputValue(), 'Beratung', 'the form as typed');

  await tabTo('Buchen', (f) => f.tag === 'button' && f.name === 'Buchen');
  await page.keyboard.press('Enter');
  await page.getByText('Gebucht.').waitFor();
  const [posted] = (await rest('GET', '/arap/invoices/customer')).body;
  t.match(posted, { status: 'posted', grossAmount: 324.3, customer_id: customer.body.id }, 'posted by the ledger');

  // back up the page with Shift+Tab: the focus stays visible that way too
  await tabTo('the navigation', (f) => f.tag === 'a' && f.name === 'Rechnungen', 'Shift+Tab');
  t.ok(stops > 20, `${stops} stops of the focus`);
  t.same(unseen, [], 'the focus is visible wherever it went');
});
