/**
 * The app's pages in a real headless Chromium against a real ledger and gateway: sign-in with
 * the second factor, then each page as a person of each role would use it. Every page is
 * checked with axe-core (no serious or critical violation) and photographed: to
 * test-artifacts/app/, and with APP_SCREENSHOTS=1 to docs/app/ for docs/app.md.
 */
import t from 'tap';
import type { Browser as Chromium } from 'playwright-core';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import type { TestMember } from '../../ledger-service/test/helpers.ts';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { fixture, IMAGE_PDF } from '../../ledger-service/test/fixtures/inbox/fixtures.ts';
import { connect, startStack, type Stack } from './helpers.ts';
import { checkPage, personWindow as signedInWindow, type Tap } from './support/appBrowser.ts';

/** 1234.5 → 1'234.50, as the pages show amounts. */
const swiss = (n: number) => n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, "'");

/** Whose sign-in page is checked and photographed (once, by the first subtest). */
const SIGN_IN_SHOT: { person?: TestMember; t?: Tap } = {};

/** A person's own browser window, signed in; the first subtest's person photographs the sign-in page once. */
function personWindow(stack: Stack, browser: Chromium, person: TestMember, width = 1100) {
  return signedInWindow(stack, browser, person, width, async (page) => {
    if (person !== SIGN_IN_SHOT.person) return;
    await checkPage(SIGN_IN_SHOT.t!, page, 'signin');
    delete SIGN_IN_SHOT.person;
  });
}

t.test('the app in a real browser', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const browser = await launchChromium();
  t.teardown(() => browser.close());

  t.test('companies, then API keys: create, use, delete', async (t) => {
    Object.assign(SIGN_IN_SHOT, { person: a, t });
    const { page } = await personWindow(stack, browser, a);
    // the existing AI-connections pages, reached from the app's navigation
    await page.getByRole('link', { name: 'My Profile → AI connections' }).click();
    await page.getByRole('heading', { name: 'My Profile → AI connections' }).waitFor();
    await checkPage(t, page, 'account-ai-connections');
    await page.goto(`${stack.url}/management/${a.dataset}/ai-connections`);
    await checkPage(t, page, 'management-ai-connections');
    await page.getByRole('link', { name: 'Companies' }).click();
    const card = page.locator(`[data-company="${a.dataset}"]`);
    t.equal(await card.locator('[data-role]').textContent(), 'owner', 'the company with the role');
    await checkPage(t, page, 'companies');

    await card.getByRole('link', { name: 'API Keys' }).click();
    await page.getByRole('heading', { name: 'System → Management → API Keys' }).waitFor();
    t.match(
      await page.getByRole('navigation', { name: 'Main' }).textContent(),
      /AI connections/,
      'the AI-connections pages are in the navigation',
    );
    await page.getByLabel('Label').fill('ERP export');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    t.match(key, /^ak_/, 'the key is shown once');
    t.ok(
      await page.getByRole('button', { name: 'Copy key' }).isVisible(),
      'with a copy button (the script runs under the CSP)',
    );
    await checkPage(t, page, 'api-keys-created');

    const use = () => fetch(`${stack.url}/client/${a.dataset}/system/api_keys`, { headers: { 'X-API-Key': key } });
    t.equal((await use()).status, 200, 'the new key works against the REST API');

    await page.goto(`${stack.url}/management/${a.dataset}/api-keys`);
    t.equal(await page.locator('#new-key').count(), 0, 'the key is not shown again');
    const row = page.locator('#api-keys tbody tr', { hasText: 'ERP export' });
    t.match(await row.textContent(), new RegExp(`${key.slice(0, 6)}`), 'listed with its prefix');
    t.match(await row.textContent(), new RegExp(a.email.replace(/[.]/g, '\\.')), 'and its owner');
    await checkPage(t, page, 'api-keys');
    await row.getByRole('button', { name: 'Delete key ERP export' }).click();
    await page.getByText('The key is deleted').waitFor();
    t.equal((await use()).status, 401, 'the deleted key is refused');

    const audit = await fetch(`${stack.url}/client/${a.dataset}/system/audit?entity=api_key`, {
      headers: { 'X-API-Key': a.apiKey },
    });
    const entries = (await audit.json()) as { via: string; via_text: string; action: string }[];
    t.ok(
      entries.some((e) => e.via === 'app' && e.via_text === 'via app'),
      'the audit log reads "via app"',
    );
  });

  t.test('members: invite, the person accepts, change the limit, remove; nobody edits their own', async (t) => {
    const other = await stack.company(); // a person with an account, not yet a member of a
    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/management/${a.dataset}/members`);
    await page.getByLabel('E-mail', { exact: true }).fill(other.email);
    await page.getByLabel('Role', { exact: true }).selectOption('clerk');
    await page.getByLabel('Approval limit', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('The invitation is sent').waitFor();
    t.equal(await page.locator(`[data-invitation="${other.email}"]`).count(), 1, 'listed as open');
    t.equal(await page.locator(`[data-member="${other.email}"]`).count(), 0, 'not yet a member');
    t.equal(await page.getByLabel(`Role of ${a.email}`).count(), 0, 'no field for your own role and limit');
    await checkPage(t, page, 'members');

    const invited = (await personWindow(stack, browser, other)).page;
    await invited.goto(`${stack.url}/`);
    await invited.locator('#open-invitations').getByRole('link', { name: 'See and accept' }).click();
    await invited.locator(`[data-invitation="${a.dataset}"]`).waitFor();
    await checkPage(t, invited, 'invitations');
    await invited.getByRole('button', { name: `Accept the invitation of ${a.company.name}` }).click();
    await invited.locator('#joined').waitFor();
    await invited.goto(`${stack.url}/`);
    t.equal(await invited.locator(`[data-company="${a.dataset}"] [data-role]`).textContent(), 'clerk', 'a member now');

    await page.goto(`${stack.url}/management/${a.dataset}/members`);
    const row = page.locator(`[data-member="${other.email}"]`);
    t.equal(await row.getByLabel(`Role of ${other.email}`).inputValue(), 'clerk');
    t.equal(await row.getByLabel(`Approval limit of ${other.email}`).inputValue(), '100.00');
    await row.getByLabel(`Approval limit of ${other.email}`).fill("1'500");
    await row.getByRole('button', { name: `Save ${other.email}` }).click();
    await page.getByText('The member is changed.').waitFor();
    t.equal(
      await page.locator(`[data-member="${other.email}"]`).getByLabel(`Approval limit of ${other.email}`).inputValue(),
      "1'500.00",
      'Swiss amount',
    );

    await page
      .locator(`[data-member="${other.email}"]`)
      .getByRole('button', { name: `Remove ${other.email}` })
      .click();
    await page.getByText('The member is removed').waitFor();
    t.equal(await page.locator(`[data-member="${other.email}"]`).count(), 0);
  });

  t.test('company: owners change settings and add a bank account', async (t) => {
    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/management/${a.dataset}/company`);
    await page.getByLabel('City').fill('Zürich');
    await page.getByLabel('Country (two letters, e.g. CH)').fill('CH');
    await page.getByLabel('VAT number (e.g. CHE-123.456.788 MWST)').fill('CHE-123.456.789 MWST');
    const aiMayPost = page.getByLabel('Assistants may post without asking');
    t.equal(await aiMayPost.isChecked(), false, 'assistants ask before posting by default');
    await aiMayPost.check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    t.match(
      await page.locator('#refusal').textContent(),
      /vat_number|VAT/i,
      "the ledger's refusal of a wrong check digit is shown",
    );
    t.equal(await aiMayPost.isChecked(), true, 'the refused form keeps the tick');
    await page.getByLabel('VAT number (e.g. CHE-123.456.788 MWST)').fill('CHE-123.456.788 MWST');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The settings are saved.').waitFor();
    t.equal(await page.getByLabel('City').inputValue(), 'Zürich');
    const rest = apiClient(stack.url, a.dataset, a.apiKey);
    t.equal(
      (await rest('GET', '/system/company')).body.ai_may_post_without_confirmation,
      true,
      "the company's AI-posting setting, as the ledger keeps it",
    );
    await aiMayPost.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The settings are saved.').waitFor();
    t.equal((await rest('GET', '/system/company')).body.ai_may_post_without_confirmation, false, 'and off again');

    await page.getByLabel('Name (e.g. UBS current account)').fill('UBS current account');
    await page.getByLabel('IBAN', { exact: true }).fill('CH93 0076 2011 6238 5295 7');
    await page.getByLabel('Chart account (e.g. 1020)').fill('1020');
    await page.getByRole('button', { name: 'Add bank account' }).click();
    await page.getByText('The bank account is added.').waitFor();
    t.match(
      await page.locator('#bank-accounts').textContent(),
      /CH93 0076 2011 6238 5295 7/,
      'the IBAN in groups of four',
    );
    await checkPage(t, page, 'company');
  });

  t.test(
    "workstation: an assistant's bill draft with a file, previewed, approved via app; approval limits hold",
    async (t) => {
      const rest = apiClient(stack.url, a.dataset, a.apiKey);
      const accounts = (await rest('GET', '/system/chart/accounts?limit=1000')).body as {
        accno: string;
        link: string;
      }[];
      const expense = accounts.find((x) => x.link.split(':').includes('AP_amount'))!.accno;
      const vendor = (await rest('POST', '/arap/vendor', { name: 'Papeterie Muster AG' })).body as { id: number };

      // the assistant, with the official MCP client, saves a bill draft with a receipt attached
      const { resource, tokens } = await connect(stack, a, { choices: { invoices: 'write', contacts: 'read' } });
      const client = new Client({ name: 'Claude', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(resource), {
          requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
        }),
      );
      t.teardown(() => client.close());
      const { page } = await personWindow(stack, browser, a);
      const receipt = (await page.screenshot({ clip: { x: 0, y: 0, width: 320, height: 120 } })).toString('base64');
      const today = new Date().toISOString().slice(0, 10);
      const created = (await client.callTool({
        name: 'create_bill',
        arguments: {
          vendor_id: vendor.id,
          documentNumber: 'R-2024-17',
          invDate: today,
          description: 'Office supplies',
          lines: [{ account: expense, amount: 1234.5 }],
          files: [{ name: 'receipt.png', data: `data:image/png;base64,${receipt}` }],
        },
      })) as { isError?: boolean; structuredContent?: { id: number } };
      t.notOk(created.isError, 'the assistant created the draft');
      const id = created.structuredContent!.id;

      await page.goto(`${stack.url}/books/${a.dataset}/workstation`);
      const row = page.locator(`[data-draft="vendor-${id}"]`);
      t.match(await row.textContent(), /via AI connection/, 'who prepared it');
      t.match(await row.textContent(), /Papeterie Muster AG/);
      t.match(await row.textContent(), /1'234\.50/, 'Swiss amount');
      await checkPage(t, page, 'workstation');

      await row.getByRole('link').click();
      await page.locator('#draft-header').waitFor();
      const preview = page.getByRole('img', { name: 'Attached file receipt.png' });
      await preview.waitFor();
      const src = await preview.getAttribute('src');
      const file = await page.request.get(`${stack.url}${src}`);
      t.same([file.status(), file.headers()['content-type']], [200, 'image/png'], 'the file comes from the gateway');
      t.equal(
        await preview.evaluate((img: HTMLImageElement) =>
          img.decode().then(
            () => img.naturalWidth,
            () => -1,
          ),
        ),
        320,
        'the attached image is previewed',
      );
      await checkPage(t, page, 'workstation-draft');

      await page.getByLabel('Description', { exact: true }).fill('Office supplies, May');
      await page.getByLabel('Amount of line 1').fill("1'200.00");
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The draft is saved.').waitFor();
      t.equal(await page.locator('#gross').textContent(), "1'200.00", 'changed amount');

      await page.getByRole('button', { name: 'Approve and post' }).click();
      t.match(await page.locator('.notice').first().textContent(), /The draft is approved and posted\./);
      const posted = await rest('GET', `/arap/transaction/vendor/${id}`);
      t.equal(posted.body.status, 'posted', 'REST shows it posted');
      t.equal(posted.body.description, 'Office supplies, May');
      t.equal(posted.body.files.length, 1, 'the file stays attached');
      const audit = (await rest('GET', `/system/audit?entity=vendor_transaction&entity_id=${id}`)).body as {
        action: string;
        via_text: string;
      }[];
      t.ok(
        audit.some((e) => e.via_text === 'via app' && /approve|post/.test(e.action)),
        `audit "via app": ${audit.map((e) => `${e.action} ${e.via_text}`).join('; ')}`,
      );

      // a clerk with a limit of 100 cannot post a bill of 500; nor can an accountant with that limit
      const big = await rest('POST', '/arap/transaction/vendor', {
        vendor_id: vendor.id,
        invDate: today,
        lines: [{ account: expense, amount: 500 }],
      });
      t.equal(big.status, 201);
      const clerk = await a.addMember('clerk', '100');
      const asClerk = await personWindow(stack, browser, clerk);
      await asClerk.page.goto(`${stack.url}/books/${a.dataset}/workstation/vendor/${big.body.id}`);
      t.equal(
        await asClerk.page.getByRole('button', { name: 'Approve and post' }).count(),
        0,
        'a clerk is offered no approval',
      );
      const accountant = await a.addMember('accountant', '100');
      const asAccountant = await personWindow(stack, browser, accountant);
      await asAccountant.page.goto(`${stack.url}/books/${a.dataset}/workstation/vendor/${big.body.id}`);
      await asAccountant.page.getByRole('button', { name: 'Approve and post' }).click();
      t.match(await asAccountant.page.locator('#refusal').textContent(), /amount_exceeded/, 'amount_exceeded is shown');
      await checkPage(t, asAccountant.page, 'workstation-amount-exceeded');
      t.equal((await rest('GET', `/arap/transaction/vendor/${big.body.id}`)).body.status, 'draft', 'the draft stays');

      await page.goto(`${stack.url}/books/${a.dataset}/workstation/vendor/${big.body.id}`);
      await page.getByRole('button', { name: 'Delete draft' }).click();
      await page.getByText('The draft is deleted.').waitFor();
      t.equal((await rest('GET', `/arap/transaction/vendor/${big.body.id}`)).status, 404, 'deleted');
    },
  );

  t.test('inbox: a QR-bill PDF uploaded through the API becomes a proposed bill, booked from the app', async (t) => {
    const rest = apiClient(stack.url, a.dataset, a.apiKey);
    const pdf = { name: 'meier.pdf', media_type: 'application/pdf', data: fixture(IMAGE_PDF.file).toString('base64') };
    const uploaded = await rest('POST', '/documents/inbox', pdf);
    t.equal(uploaded.status, 201);
    const spare = await rest('POST', '/documents/inbox', { ...pdf, name: 'duplicate.pdf' });
    // the QR-bill is read in the background: wait until the ledger says so
    let status = 'new';
    while (status === 'new') {
      status = (await rest('GET', `/documents/inbox/${uploaded.body.id}`)).body.status;
      if (status === 'new') await new Promise((r) => setTimeout(r, 300));
    }
    t.equal(status, 'extracted');

    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/books/${a.dataset}/inbox`);
    t.match(
      await page.locator(`[data-entry="${uploaded.body.id}"]`).textContent(),
      /QR-bill read/,
      'the extraction state',
    );
    await page.locator(`[data-entry="${spare.body.id}"]`).getByRole('link').click();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByText('The entry is dismissed').waitFor();
    t.equal(
      await page.locator(`[data-entry="${spare.body.id}"]`).getAttribute('data-status'),
      'discarded',
      'dismissed',
    );
    await checkPage(t, page, 'inbox');

    await page.locator(`[data-entry="${uploaded.body.id}"]`).getByRole('link').click();
    t.match(
      await page.locator('#proposed-amount').textContent(),
      new RegExp(swiss(IMAGE_PDF.amount)),
      'the proposed amount',
    );
    const frame = page.frameLocator('iframe[title="Attached file meier.pdf"]');
    t.ok(frame, 'the document beside the proposal');
    const file = await page.request.get(`${stack.url}/books/${a.dataset}/inbox/${uploaded.body.id}/file`);
    t.same([file.status(), file.headers()['content-type']], [200, 'application/pdf']);
    await checkPage(t, page, 'inbox-entry');

    await page.getByRole('button', { name: 'Book as draft' }).click();
    await page.getByText('The inbox entry is booked as this draft.').waitFor();
    t.match(page.url(), /\/books\/.*\/workstation\/vendor\/\d+/, 'on the workstation');
    const id = Number(/vendor\/(\d+)/.exec(page.url())![1]);
    const bill = (await rest('GET', `/arap/transaction/vendor/${id}`)).body;
    t.same(
      [bill.status, bill.grossAmount, bill.files.length],
      ['draft', IMAGE_PDF.amount, 1],
      'a draft bill with the PDF attached',
    );
  });

  t.test(
    'a viewer sees reports, drills down to ledger lines and source documents, downloads CSV and PDF; no management ' +
      'pages (403 with why)',
    async (t) => {
      const viewer = await a.addMember('viewer');
      const { page } = await personWindow(stack, browser, viewer);
      t.equal(await page.getByRole('link', { name: 'API Keys' }).count(), 0, 'no API Keys in the navigation');
      t.equal(await page.getByRole('link', { name: 'Members' }).count(), 0, 'no Members in the navigation');
      t.equal((await page.goto(`${stack.url}/management/${a.dataset}/members`))?.status(), 403, 'Members answers 403');
      await page.goto(`${stack.url}/management/${a.dataset}/company`);
      t.equal(await page.locator('form#settings').count(), 0, 'the company settings are read-only for a viewer');
      t.match(await page.locator('dl#settings').textContent(), /Zürich/);
      await checkPage(t, page, 'company-read-only');

      // the bill approved on the workstation is in the books: from the report down to its document
      await page.getByRole('link', { name: 'Reports' }).click();
      await page.locator('#report-table').waitFor();
      const tb = await page.locator('#report-table').textContent();
      t.match(tb, /1'200\.00/, 'the posted bill in the trial balance (Swiss amounts)');
      await checkPage(t, page, 'reports');
      const row = page.locator('#report-table tbody tr', { hasText: "1'200.00" }).first();
      await row.getByRole('link').click();
      await page.locator('#ledger-lines').waitFor();
      await checkPage(t, page, 'reports-ledger');
      await page
        .locator('#ledger-lines')
        .getByRole('link', { name: /vendor transaction/ })
        .first()
        .click();
      t.match(await page.locator('#draft-status').textContent(), /posted/, 'the source document');
      t.equal(
        await page.getByRole('button', { name: 'Approve and post' }).count(),
        0,
        'a viewer is offered no actions',
      );

      for (const report of ['income_statement', 'balance_sheet', 'vat']) {
        const res = await page.goto(`${stack.url}/books/${a.dataset}/reports?report=${report}`);
        t.equal(res?.status(), 200, `${report} shown`);
      }
      await checkPage(t, page, 'reports-vat');
      const csv = await page.request.get(
        `${stack.url}/books/${a.dataset}/reports/download?report=trial_balance&format=csv`,
      );
      t.same([csv.status(), csv.headers()['content-type']?.split(';')[0]], [200, 'text/csv'], 'CSV download');
      t.match(await csv.text(), /1200/);
      const pdf = await page.request.get(
        `${stack.url}/books/${a.dataset}/reports/download?report=balance_sheet&format=pdf`,
      );
      t.same(
        [pdf.status(), pdf.headers()['content-type'], (await pdf.body()).subarray(0, 5).toString()],
        [200, 'application/pdf', '%PDF-'],
        'PDF download',
      );
      const res = await page.goto(`${stack.url}/management/${a.dataset}/api-keys`);
      t.equal(res?.status(), 403);
      t.match(await page.locator('#forbidden').textContent(), /viewer.*API Keys/s, 'the page says why');
      await checkPage(t, page, 'forbidden');
    },
  );
});
