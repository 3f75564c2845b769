/**
 * The choice of Chromium for the browser tests (e2e/test/support/chromium.ts): an explicit
 * CHROMIUM_PATH, then Debian's Chromium, then the one @sparticuz/chromium ships inside its
 * npm tarball; a clear error when there is none. The bundled one is launched here even on
 * machines that have Debian's, so the fallback keeps working.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { chooseChromium, launchChromium, NoChromiumError } from './support/chromium.ts';

const dir = mkdtempSync(join(tmpdir(), 'chromium-choice-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fakeSystem = join(dir, 'system-chromium');
writeFileSync(fakeSystem, '#!/bin/sh\nexit 0\n');
chmodSync(fakeSystem, 0o755);
const missing = join(dir, 'missing-chromium');

t.test('a system Chromium that exists is preferred over the bundled one', async (t) => {
  const choice = await chooseChromium({ env: {}, systemPaths: [missing, fakeSystem], unpackDir: join(dir, 'never') });
  t.same(choice, { executablePath: fakeSystem, source: 'system' });
  t.notOk(existsSync(join(dir, 'never')), 'the bundled browser is not even unpacked');
});

t.test('CHROMIUM_PATH wins, and must exist', async (t) => {
  t.same(await chooseChromium({ env: { CHROMIUM_PATH: fakeSystem }, systemPaths: [missing] }), { executablePath: fakeSystem, source: 'env' });
  await t.rejects(chooseChromium({ env: { CHROMIUM_PATH: missing } }), new NoChromiumError(`CHROMIUM_PATH=${missing} is not an executable file`));
});

t.test('without a system Chromium: the one installed by npm ci, unpacked once, and it really runs', async (t) => {
  const unpackDir = join(dir, 'bundled');
  const choice = await chooseChromium({ env: {}, systemPaths: [missing], unpackDir });
  t.same(choice, { executablePath: join(unpackDir, 'chromium'), source: 'bundled' });
  t.same(await chooseChromium({ env: {}, systemPaths: [missing], unpackDir }), choice, 'the second call reuses the unpacked binary');

  const browser = await launchChromium({ env: {}, systemPaths: [missing], unpackDir });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setContent('<label for="e">Email</label><input id="e">');
  await page.getByLabel('Email').fill('someone@example.com');
  t.equal(await page.locator('#e').inputValue(), 'someone@example.com');
});

t.test('neither: a clear error saying what to do', async (t) => {
  await t.rejects(
    chooseChromium({ env: {}, systemPaths: [missing], bundledArchive: join(dir, 'no-such-archive.br') }),
    { name: 'Error', message: /no Chromium for the browser tests: none at .*missing-chromium, and @sparticuz\/chromium is not installed \(run npm ci\); or install Chromium/ },
  );
});
