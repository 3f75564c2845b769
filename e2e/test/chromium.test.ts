/**
 * The choice of Chromium for the browser tests (e2e/test/support/chromium.ts): an explicit
 * CHROMIUM_PATH, then the `chromium` command on PATH; a clear error when there is none. No
 * browser comes with the npm packages (their Chromium wanted a newer Node than the one the
 * platform supports), so the one found is launched here once.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import t from 'tap';
import { chooseChromium, launchChromium, NoChromiumError } from './support/chromium.ts';

const dir = mkdtempSync(join(tmpdir(), 'chromium-choice-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fakeSystem = join(dir, 'system-chromium');
writeFileSync(fakeSystem, '#!/bin/sh\nexit 0\n');
chmodSync(fakeSystem, 0o755);
const missing = join(dir, 'missing-chromium');

t.test('the first executable chromium in PATH order, as the shell would pick it', async (t) => {
  const [empty, first, second] = ['empty', 'first', 'second'].map((name) => join(dir, name));
  for (const folder of [empty, first, second]) mkdirSync(folder!);
  for (const folder of [first, second]) {
    writeFileSync(join(folder!, 'chromium'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(folder!, 'chromium'), 0o755);
  }
  t.same(await chooseChromium({ env: { PATH: [empty, first, second].join(delimiter) } }), {
    executablePath: join(first!, 'chromium'),
    source: 'system',
  });
  t.same(await chooseChromium({ env: {}, systemPaths: [missing, fakeSystem] }), {
    executablePath: fakeSystem,
    source: 'system',
  });
});

t.test('CHROMIUM_PATH wins, and must exist', async (t) => {
  t.same(await chooseChromium({ env: { CHROMIUM_PATH: fakeSystem }, systemPaths: [missing] }), {
    executablePath: fakeSystem,
    source: 'env',
  });
  await t.rejects(
    chooseChromium({ env: { CHROMIUM_PATH: missing } }),
    new NoChromiumError(`CHROMIUM_PATH=${missing} is not an executable file`),
  );
});

t.test('none: a clear error saying what to do', async (t) => {
  await t.rejects(chooseChromium({ env: { PATH: dir } }), {
    name: 'Error',
    message:
      `no Chromium for the browser tests: none at ${join(dir, 'chromium')}; install it (Debian: apt-get install ` +
      `chromium; npm test does this itself as root) or set CHROMIUM_PATH`,
  });
});

t.test("the machine's Chromium really runs a page", async (t) => {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setContent('<label for="e">Email</label><input id="e">');
  await page.getByLabel('Email').fill('someone@example.com');
  t.equal(await page.locator('#e').inputValue(), 'someone@example.com');
});
