/**
 * The app's draft editing in a real headless Chromium against a real ledger and gateway:
 * invoice drafts with items (change, add and remove items, choose their tax, approve),
 * AR/AP transaction lines (add, remove, tax), journal-entry drafts on the workstation
 * (listed with who prepared them, changed, approved), and the company's bank accounts changed.
 * Each page is checked with axe-core and at 375 px (support/appBrowser.ts).
 */
import t from 'tap';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { startStack } from './helpers.ts';
import { checkPage, personWindow } from './support/appBrowser.ts';

t.test('drafts and bank accounts in the app', async (t) => {
  const stack = await startStack(t);
  const a = await stack.company();
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const rest = apiClient(stack.url, a.dataset, a.apiKey);
  const today = new Date().toISOString().slice(0, 10);
  const audited = async (entity: string, id: number) =>
    ((await rest('GET', `/system/audit?entity=${entity}&entity_id=${id}`)).body as { via_text: string }[]).map(
      (e) => e.via_text,
    );

  t.test('an invoice draft with items: items changed, added with a tax code, removed; approved via app', async (t) => {
    const customer = (await rest('POST', '/arap/customer', { name: 'Bäckerei Huber GmbH' })).body as { id: number };
    const created = await rest('POST', '/arap/invoice/customer', {
      customer_id: customer.id,
      invDate: today,
      description: 'Consulting',
      items: [
        { description: 'Workshop', quantity: 2, unit: 'h', price: 150, account: '3400' },
        { description: 'Travel', quantity: 1, price: 80, account: '3400' },
      ],
    });
    t.equal(created.status, 201, created.body?.message);
    const id = created.body.id as number;

    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/books/${a.dataset}/workstation`);
    const row = page.locator(`[data-draft="customer-${id}"]`);
    t.match(await row.textContent(), /Sales invoice/, 'the invoice draft is listed');
    await row.getByRole('link').click();
    t.match(await page.locator('#items').textContent(), /Workshop/, 'its items are shown');

    await page.getByLabel('Quantity of item 1').fill('3');
    await page.getByLabel('Tax of item 1').selectOption('2200');
    await page.getByLabel('Remove item 2').check();
    await page.getByLabel('Text of the new item').fill('Materials');
    await page.getByLabel('Quantity of the new item').fill('4');
    await page.getByLabel('Price of the new item').fill("1'000.00");
    await page.getByLabel('Account of the new item').fill('3400');
    await page.getByLabel('Tax of the new item').selectOption('2200');
    await checkPage(t, page, 'workstation-invoice-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The draft is saved.').waitFor();

    const saved = (await rest('GET', `/arap/invoice/customer/${id}`)).body as {
      status: string;
      items: { description: string; quantity: number; taxAccount?: string; amount: number; tax: number }[];
      grossAmount: number;
    };
    t.same(
      saved.items.map((i) => [i.description, i.quantity, i.taxAccount, i.amount]),
      [
        ['Workshop', 3, '2200', 450],
        ['Materials', 4, '2200', 4000],
      ],
      'item 1 changed, item 2 removed, a new item added, each with the chosen tax account',
    );
    t.ok(
      saved.items.every((i) => i.tax > 0),
      'the tax is calculated',
    );
    t.equal(saved.status, 'draft', 'still a draft');
    t.match(await page.locator('#gross').textContent(), /4'8\d\d\.\d\d/, "the new total, Swiss (4'800 + tax)");

    // a bad row saves nothing
    await page.getByLabel('Quantity of item 1').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    t.match(await page.locator('#refusal').textContent(), /Item 1 needs a quantity other than 0/);
    t.equal(
      ((await rest('GET', `/arap/invoice/customer/${id}`)).body as { items: unknown[] }).items.length,
      2,
      'nothing saved',
    );

    await page.goto(`${stack.url}/books/${a.dataset}/workstation/customer/${id}`);
    await page.getByRole('button', { name: 'Approve and post' }).click();
    t.match(await page.locator('.notice').first().textContent(), /approved and posted/);
    const posted = (await rest('GET', `/arap/invoice/customer/${id}`)).body as {
      status: string;
      grossAmount: number;
    };
    t.same([posted.status, posted.grossAmount], ['posted', saved.grossAmount], 'posted as saved');
    t.ok((await audited('customer_invoice', id)).includes('via app'), 'the audit log reads "via app"');
  });

  t.test('an AR/AP transaction draft: a line added with a tax account, a line removed', async (t) => {
    const vendor = (await rest('POST', '/arap/vendor', { name: 'Garage Meier' })).body as { id: number };
    const created = await rest('POST', '/arap/transaction/vendor', {
      vendor_id: vendor.id,
      invDate: today,
      lines: [
        { account: '6500', amount: 100 },
        { account: '6000', amount: 40 },
      ],
    });
    t.equal(created.status, 201, created.body?.message);
    const id = created.body.id as number;
    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/books/${a.dataset}/workstation/vendor/${id}`);
    await page.getByLabel('Amount of the new line').fill('nonsense');
    await page.getByLabel('Account of the new line').fill('6500');
    await page.getByRole('button', { name: 'Save changes' }).click();
    t.match(await page.locator('#refusal').textContent(), /The new line needs an amount/, 'a bad amount is refused');

    await page.getByLabel('Remove line 2').check();
    await page.getByLabel('Account of the new line').fill('6500');
    await page.getByLabel('Text of the new line').fill('Oil change');
    await page.getByLabel('Amount of the new line').fill("1'000.00");
    await page.getByLabel('Tax of the new line').selectOption('1170');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The draft is saved.').waitFor();
    const saved = (await rest('GET', `/arap/transaction/vendor/${id}`)).body as {
      lines: { account: string; amount: number; taxAccount?: string; taxAmount?: number; description?: string }[];
    };
    t.same(
      saved.lines.map((l) => [l.account, l.amount, l.taxAccount ?? null, l.description ?? null]),
      [
        ['6500', 100, null, null],
        ['6500', 1000, '1170', 'Oil change'],
      ],
      'line 2 removed, the new line with its tax account',
    );
    t.equal(saved.lines[1]!.taxAmount, 81, 'the tax of the code valid today (8.1 %)');
    t.match(await page.locator('#lines').textContent(), /1170/);
  });

  t.test('journal-entry drafts are on the workstation: changed, refused when unbalanced, approved', async (t) => {
    const created = await rest('POST', '/gl/transactions', {
      transdate: today,
      description: 'Rent',
      lines: [
        { account: '6000', debit: 2400 },
        { account: '1020', credit: 2400 },
      ],
    });
    t.equal(created.status, 201, created.body?.message);
    const id = created.body.id as number;
    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/books/${a.dataset}/workstation`);
    const row = page.locator(`[data-draft="journal-${id}"]`);
    t.match(await row.textContent(), /Journal entry/, 'listed on the workstation');
    t.match(await row.textContent(), /via API key/, 'with who prepared it');
    t.match(await row.textContent(), /2'400\.00/);
    await checkPage(t, page, 'workstation-with-journal');
    await row.getByRole('link').click();
    t.match(await page.locator('#prepared-by').textContent(), /via API key/);

    await page.getByLabel('Credit of line 2').fill("2'000");
    await page.getByRole('button', { name: 'Save changes' }).click();
    t.match(await page.locator('#refusal').textContent(), /unbalanced/, "the ledger's refusal is shown");

    await page.getByLabel('Credit of line 2').fill("2'000");
    await page.getByLabel('Account of the new line').fill('1000');
    await page.getByLabel('Credit of the new line').fill('400');
    await page.getByLabel('Text of the new line').fill('cash part');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The draft is saved.').waitFor();
    t.equal(await page.locator('#total-credit').textContent(), "2'400.00");
    await checkPage(t, page, 'workstation-journal');

    await page.getByLabel('Remove line 3').check();
    await page.getByLabel('Credit of line 2').fill('2400');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The draft is saved.').waitFor();
    let entry = (await rest('GET', `/gl/transactions/${id}`)).body as {
      status: string;
      lines: { account: string; debit: number; credit: number }[];
    };
    t.same(
      entry.lines.map((l) => [l.account, l.debit, l.credit]),
      [
        ['6000', 2400, 0],
        ['1020', 0, 2400],
      ],
      'line removed',
    );

    await page.getByRole('button', { name: 'Approve and post' }).click();
    t.match(await page.locator('.notice').first().textContent(), /approved and posted/);
    entry = (await rest('GET', `/gl/transactions/${id}`)).body;
    t.equal(entry.status, 'posted');
    t.ok((await audited('journal_entry', id)).includes('via app'), 'the audit log reads "via app"');
    t.equal(await page.locator(`[data-draft="journal-${id}"]`).count(), 0, 'no longer on the workstation');

    // a clerk may read journal entries but not book them: no actions offered
    const draft = await rest('POST', '/gl/transactions', {
      transdate: today,
      lines: [
        { account: '6000', debit: 10 },
        { account: '1020', credit: 10 },
      ],
    });
    const clerk = await a.addMember('clerk');
    const asClerk = await personWindow(stack, browser, clerk);
    await asClerk.page.goto(`${stack.url}/books/${a.dataset}/workstation/journal/${draft.body.id}`);
    t.equal(await asClerk.page.getByRole('button', { name: 'Approve and post' }).count(), 0, 'no approval for a clerk');
    t.equal(await asClerk.page.locator('form#edit').count(), 0, 'no edit form');
  });

  t.test("bank accounts: owners change one on its own page; the ledger's refusal leaves it unchanged", async (t) => {
    const created = await rest('POST', '/bank/accounts', {
      name: 'PostFinance EUR',
      iban: 'CH56 0483 5012 3456 7800 9',
      currency: 'EUR',
      account: '1020',
      bic: 'POFICHBEXXX',
    });
    t.equal(created.status, 201, created.body?.message);
    const id = created.body.id as number;
    const { page } = await personWindow(stack, browser, a);
    await page.goto(`${stack.url}/management/${a.dataset}/company`);
    await page.getByRole('link', { name: 'Change PostFinance EUR' }).click();
    await page.getByRole('heading', { name: 'Bank account PostFinance EUR' }).waitFor();
    await page.getByLabel('IBAN', { exact: true }).fill('CH56 0483 5012 3456 7800 8');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    t.match(await page.locator('#refusal').textContent(), /IBAN/i, 'a wrong check digit is refused');
    t.equal(
      await page.getByLabel('IBAN', { exact: true }).inputValue(),
      'CH56 0483 5012 3456 7800 8',
      'what was entered is shown again',
    );
    await checkPage(t, page, 'company-bank-account');
    t.equal((await rest('GET', `/bank/accounts/${id}`)).body.iban, 'CH5604835012345678009', 'unchanged');

    await page.getByLabel('IBAN', { exact: true }).fill('CH56 0483 5012 3456 7800 9');
    await page.getByLabel('Name (e.g. UBS current account)').fill('PostFinance EUR savings');
    await page.getByLabel('BIC (optional)').fill('');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByText('The bank account is changed.').waitFor();
    const changed = (await rest('GET', `/bank/accounts/${id}`)).body;
    t.same([changed.name, changed.bic], ['PostFinance EUR savings', null], 'renamed, BIC cleared');
    t.match(await page.locator('#bank-accounts').textContent(), /PostFinance EUR savings/);

    const viewer = await a.addMember('viewer');
    const asViewer = await personWindow(stack, browser, viewer);
    await asViewer.page.goto(`${stack.url}/management/${a.dataset}/company`);
    t.equal(await asViewer.page.getByRole('link', { name: /^Change / }).count(), 0, 'a viewer is offered no change');
    const res = await asViewer.context.request.post(
      `${stack.url}/management/${a.dataset}/company/bank-accounts/${id}`,
      {
        form: { name: 'x', iban: 'CH56 0483 5012 3456 7800 9', currency: 'EUR', account: '1020' },
      },
    );
    t.not(res.status(), 200, 'and a post without the form is refused');
    t.equal((await rest('GET', `/bank/accounts/${id}`)).body.name, 'PostFinance EUR savings', 'unchanged');
  });
});
