/**
 * The person's side in a real headless Chromium (Debian's, or the one installed by npm ci):
 * sign-in, consent choices, warnings, and the AI connections pages. Screenshots go to test-artifacts/gateway/
 * (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import type { Browser as Chromium, Page } from 'playwright-core';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { pkce, postForm, registerClient, startStack, totpCode, authorizePath } from './helpers.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'gateway');

t.test('in a real browser', async (t) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const stack = await startStack(t);
  const a = await stack.company();
  const resource = `${stack.url}/mcp/${a.dataset}`;

  // the client's loopback callback
  const callbacks: URL[] = [];
  const cb = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') callbacks.push(url);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>App</title><p id="done">Back in the app</p>');
  });
  await new Promise<void>((r) => cb.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        cb.closeAllConnections();
        cb.close(() => r());
      }),
  );
  const redirect = `http://127.0.0.1:${(cb.address() as AddressInfo).port}/callback`;

  // CHROMIUM_PATH or the chromium command, which npm test makes sure of (see e2e/test/support/chromium.ts)
  const browser: Chromium = await launchChromium();
  t.teardown(() => browser.close());
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  async function signIn(password = a.password) {
    await page.getByLabel('Email').fill(a.email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Code from your authenticator app').fill(totpCode(a.totpSecret));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  t.test('sign-in and consent with chosen areas', async (t) => {
    const client = (await registerClient(stack, { client_name: 'Browser Test App', redirect_uris: [redirect] })).body;
    const { challenge, verifier } = pkce();
    await page.goto(
      stack.url +
        authorizePath({
          client_id: client.client_id,
          redirect_uri: redirect,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource,
          state: 'browser-state',
          scope: 'accounting:read invoices:write',
        }),
    );
    t.match(page.url(), /\/signin\?return_to=/, 'to the sign-in page');
    await shot('01-signin');

    await signIn('wrong-password');
    t.match(await page.getByRole('alert').textContent(), /The email, password or code is not correct/);
    await shot('02-signin-failed');
    await signIn();

    await page.getByRole('heading', { name: /Connect Browser Test App/ }).waitFor();
    t.match(
      await page.locator('#client-unverified').textContent(),
      /Unverified app/,
      'loopback redirect URI: Unverified app warning',
    );
    t.equal(await page.locator('#redirect-target').textContent(), redirect, 'where the person is sent back to');
    t.equal(await page.locator('#company').textContent(), a.company.name, 'the company is shown');
    t.equal(await page.locator('#impersonation-warning').count(), 0, 'no impersonation warning');
    // preselection: Read everywhere except the bank; the bank offers write too (its rules and bookings)
    for (const area of ['accounting', 'invoices', 'contacts', 'documents']) {
      t.ok(await page.locator(`#area-${area}-read`).isChecked(), `${area}: Read preselected`);
    }
    t.ok(await page.locator('#area-bank-none').isChecked(), 'bank: No access preselected');
    t.equal(await page.locator('#area-bank-write').count(), 1, 'bank offers Read and change');
    await page.getByRole('group', { name: 'Invoices and bills' }).getByLabel('Read and change').check();
    await page.getByRole('group', { name: 'Bank' }).getByLabel('Read', { exact: true }).check();
    await page.getByRole('group', { name: 'Documents' }).getByLabel('No access').check();
    await shot('03-consent');
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.locator('#done').waitFor();

    const back = callbacks.at(-1)!;
    t.equal(back.searchParams.get('state'), 'browser-state');
    t.equal(back.searchParams.get('iss'), stack.url);
    const token = await postForm(`${stack.url}/oauth/token`, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: back.searchParams.get('code')!,
      redirect_uri: redirect,
      code_verifier: verifier,
      resource,
    });
    t.equal(token.status, 200);
    t.equal(
      token.body.scope,
      'accounting:read bank:read contacts:read invoices:write',
      'what the person chose is granted',
    );
  });

  t.test('a name suggesting a well-known assistant on a foreign domain: warning; deny', async (t) => {
    const client = (await registerClient(stack, { client_name: 'Claude', redirect_uris: [redirect] })).body;
    await page.goto(
      stack.url +
        authorizePath({
          client_id: client.client_id,
          redirect_uri: redirect,
          response_type: 'code',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource,
          state: 's2',
        }),
    );
    const warning = page.locator('#impersonation-warning');
    t.ok(await warning.isVisible(), 'prominent warning');
    t.match(await warning.textContent(), /may be impersonating Claude/);
    await shot('04-consent-impersonation');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.locator('#done').waitFor();
    t.equal(callbacks.at(-1)!.searchParams.get('error'), 'access_denied');
  });

  t.test('My Profile → AI connections: disconnect', async (t) => {
    await page.goto(`${stack.url}/account/ai-connections`);
    t.equal(await page.locator('#connections tbody tr').count(), 1);
    t.match(await page.locator('#connections').textContent(), /Invoices and bills: Read and change/);
    await shot('05-my-connections');
    await page.getByRole('button', { name: /Disconnect Browser Test App/ }).click();
    t.match(await page.getByRole('status').textContent(), /The connection has ended/);
    t.ok(await page.locator('#no-connections').isVisible());
    await shot('06-my-connections-disconnected');
  });

  t.test('System → Management → AI connections: the switch', async (t) => {
    await page.goto(`${stack.url}/management/ai-connections`);
    t.match(page.url(), new RegExp(`/management/${a.dataset}/ai-connections$`));
    t.match(await page.locator('#switch-state').textContent(), /AI connections are on/);
    await shot('07-management');
    await page.getByRole('button', { name: 'Switch AI connections off' }).click();
    t.match(await page.locator('#switch-state').textContent(), /AI connections are off/);
    await shot('08-management-off');

    // with AI connections off, the consent page explains instead of offering a choice
    const client = (await registerClient(stack, { client_name: 'Late App', redirect_uris: [redirect] })).body;
    await page.goto(
      stack.url +
        authorizePath({
          client_id: client.client_id,
          redirect_uri: redirect,
          response_type: 'code',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource,
          state: 's3',
        }),
    );
    t.match(await page.locator('#not-allowed').textContent(), /AI connections are switched off/);
    t.equal(await page.getByRole('button', { name: 'Allow access' }).count(), 0);
    await shot('09-consent-ai-off');
    await page.getByRole('button', { name: 'Return to the app' }).click();
    await page.locator('#done').waitFor();
    t.equal(callbacks.at(-1)!.searchParams.get('error'), 'access_denied');

    await page.goto(`${stack.url}/management/${a.dataset}/ai-connections`);
    await page.getByRole('button', { name: 'Switch AI connections on' }).click();
    t.match(await page.locator('#switch-state').textContent(), /AI connections are on/);
  });

  t.test('the pages cannot be framed by another site', async (t) => {
    const framer = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe id="f" src="${stack.url}/signin"></iframe>`),
    );
    await new Promise<void>((r) => framer.listen(0, '127.0.0.1', r));
    t.teardown(
      () =>
        new Promise<void>((r) => {
          framer.closeAllConnections();
          framer.close(() => r());
        }),
    );
    const other = await context.newPage();
    await other.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`);
    await other.waitForTimeout(500);
    const frame = other.frames().find((f) => f !== other.mainFrame());
    const framedForm = frame
      ? await frame
          .locator('form')
          .count()
          .catch(() => 0)
      : 0;
    t.equal(framedForm, 0, 'the sign-in form does not render inside a foreign frame');
    await other.close();
  });
});
