/**
 * The API reference `{api_url}/docs` rendered in a real headless Chromium through the public
 * origin: the page's strict CSP (same-origin scripts only, no CDN) must still let the
 * renderer (Scalar's standalone bundle) load the OpenAPI document and draw the operations.
 * Screenshot: test-artifacts/gateway/docs.png (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { startStack } from './helpers.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'gateway');

t.test('the API reference renders on the public origin without console errors', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const stack = await startStack(t);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();

  // CSP violations ("Refused to load/execute/apply …") are console errors in Chromium
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== stack.url) outside.push(request.url());
  });

  const answer = await page.goto(`${stack.url}/docs`);
  t.equal(answer?.status(), 200);
  // drawn by the renderer from /openapi.json: the document's title and operation summaries,
  // the first group's at once, another group's once it is opened in the sidebar
  await page.getByRole('heading', { name: 'Ledger REST API' }).first().waitFor();
  await page.getByText('Close the books up to and including a date').first().waitFor();
  t.pass('shows the first group\'s operations');
  await page.getByRole('button', { name: /parties/i }).first().click();
  for (const summary of ['Search vendors or customers', 'Create a vendor or customer']) {
    await page.getByText(summary).first().waitFor();
    t.pass(`shows "${summary}"`);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'docs.png') });

  t.same(problems, [], 'no console errors (CSP violations among them) and no page errors');
  t.same(outside, [], 'nothing requested from another origin');
});
