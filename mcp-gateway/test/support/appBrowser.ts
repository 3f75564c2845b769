/**
 * A person's browser window on the app (signed in with password and second factor) and the
 * check every app page gets (axe-core: no serious or critical violation; no sideways scrolling
 * at 375 px; a screenshot to test-artifacts/app/, and with APP_SCREENSHOTS=1 to docs/app/).
 * For the app tests beside app.test.ts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser as Chromium, BrowserContext, Page } from 'playwright-core';
import type t from 'tap';
import type { TestMember } from '../../../ledger-service/test/helpers.ts';
import { type Stack, totpCode } from '../helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SHOT_DIRS = [
  join(ROOT, 'test-artifacts', 'app'),
  ...(process.env.APP_SCREENSHOTS === '1' ? [join(ROOT, 'docs', 'app')] : []),
];

export type Tap = Pick<typeof t, 'equal' | 'same'>;

export async function personWindow(
  stack: Stack,
  browser: Chromium,
  person: TestMember,
  width = 1100,
  /** runs on the sign-in page before the person signs in (app.test.ts photographs it once) */
  atSignIn?: (page: Page) => Promise<void>,
  locale = 'en-US',
): Promise<{ context: BrowserContext; page: Page }> {
  // English unless a test asks for another language (the app follows the browser's until the person chooses)
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale });
  const page = await context.newPage();
  // each TOTP step signs in once per person (RFC 6238 §5.2); the tests sign in faster than that
  await stack.ledger.db('users').where({ id: person.userId }).update({ totp_last_step: -1 });
  await page.goto(`${stack.url}/`);
  await atSignIn?.(page);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Code from your authenticator app').fill(totpCode(person.totpSecret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  // the home page, in whatever language the window speaks
  await page.locator('#companies, #no-companies').first().waitFor();
  return { context, page };
}

export async function checkPage(t: Tap, page: Page, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  t.same(bad, [], `${name}: no serious or critical accessibility violation`);
  for (const dir of SHOT_DIRS) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  }
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  t.equal(overflow, 0, `${name}: readable at 375 px (no sideways scrolling)`);
  await page.setViewportSize(size);
}
