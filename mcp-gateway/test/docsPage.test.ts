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
  await page.getByText('Close the books up to a date').first().waitFor();
  t.pass("shows the first group's operations");
  await page
    .getByRole('button', { name: /parties/i })
    .first()
    .click();
  for (const summary of ['Search vendors', 'Create a customer']) {
    await page.getByText(summary).first().waitFor();
    t.pass(`shows "${summary}"`);
  }
  // the request example is filled in from the server and its variables: the public URL and the
  // demo's dataset, never a literal {dataset}
  const curl = page.locator('text=/curl .*\\/client\\//').first();
  await curl.waitFor();
  const snippet = (await curl.textContent()) ?? '';
  t.match(
    snippet,
    `${stack.ledger.config.publicUrl}/client/demo/`,
    `the curl example calls the dataset: ${snippet.slice(0, 120)}`,
  );
  t.notMatch(snippet, '{dataset}');
  t.notMatch(snippet, '{api_url}');
  // the contracts' example calls: the request body of "Create an API key" in its curl example.
  // Scalar renders the operations' examples as they come into view, after the first ones: wait
  // for the block (up to 30 s on a loaded machine) rather than reading what is there at once.
  const sendsExampleBody = await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('pre, code')].some((el) => {
          const c = el.textContent ?? '';
          return (
            c.startsWith('curl') &&
            c.includes('/client/demo/system/api_keys') &&
            /--data '\{\s*"label": "erp sync"\s*\}'/.test(c)
          );
        }),
      undefined,
      { timeout: 30_000 },
    )
    .then(
      () => true,
      () => false,
    );
  t.ok(sendsExampleBody, 'a curl example sends the example body');
  await page.screenshot({ path: join(ARTIFACTS, 'docs.png') });

  t.same(problems, [], 'no console errors (CSP violations among them) and no page errors');
  t.same(outside, [], 'nothing requested from another origin');
});
