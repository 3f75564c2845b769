/**
 * A bookkeeper's day in the app, in German and again in French, in Chromium against a real
 * ledger and gateway: a customer created, an invoice written and posted, its PDF opened, sent
 * and paid; a receipt uploaded, booked from the inbox and posted on the workstation; a camt.053
 * imported and a line booked; a journal entry; the balance sheet with the year's profit
 * positive; and each of those actions found in the audit log as done in the app. Buttons and
 * fields are found by the page language's own texts (the catalogue), so a missing or unwired
 * text fails the walk; a few headings are checked word for word.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { type Language, translatorFor } from '@ledger/shared';
import { apiClient } from '../../ledger-service/test/helpers.ts';
import { fixture, IMAGE_PDF } from '../../ledger-service/test/fixtures/inbox/fixtures.ts';
import { launchChromium } from '../../e2e/test/support/chromium.ts';
import { startStack } from './helpers.ts';
import { personWindow } from './support/appBrowser.ts';

const CAMT = readFileSync(new URL('../../ledger-service/test/fixtures/bank/camt.053.001.08.xml', import.meta.url));

/** Headings the walk checks word for word, per language. */
const HEADINGS: Record<'de' | 'fr', { invoices: string; entries: string; audit: string }> = {
  de: { invoices: 'Buchhaltung → Rechnungen', entries: 'Buchhaltung → Buchungen', audit: 'System → Protokoll' },
  fr: { invoices: 'Comptabilité → Factures', entries: 'Comptabilité → Écritures', audit: 'Système → Journal d’audit' },
};

for (const language of ['de', 'fr'] as const satisfies readonly Language[]) {
  t.test(`a bookkeeper's day in the app (${language})`, async (t) => {
    const tr = translatorFor(language);
    const stack = await startStack(t);
    const a = await stack.company();
    const rest = apiClient(stack.url, a.dataset, a.apiKey);
    const bank = await rest('POST', '/bank/accounts', {
      name: 'Hauptkonto',
      iban: 'CH93 0076 2011 6238 5295 7',
      currency: 'CHF',
      account: '1020',
    });
    t.equal(bank.status, 201);
    const chromium = await launchChromium();
    t.teardown(() => chromium.close());
    const { page } = await personWindow(stack, chromium, a, 1280, undefined, `${language}-CH`);
    const nav = (key: Parameters<typeof tr>[0]) =>
      page
        .getByRole('navigation')
        .getByRole('link', { name: tr(key), exact: true })
        .click();
    const notice = (text: string) => page.locator('.notice.ok').getByText(text, { exact: true }).waitFor();
    const row = (n: number) => tr('app.form.itemRow', { n });
    const line = (n: number) => tr('app.form.lineRow', { n });

    // a customer (the day starts on the company's workstation)
    await page.goto(`${stack.url}/books/${a.dataset}/workstation`);
    await nav('app.nav.parties');
    await page.locator('#new-party').getByLabel(tr('app.parties.field.name'), { exact: true }).fill('Muster AG');
    await page.getByRole('button', { name: tr('app.parties.create.customer') }).click();
    await page.locator('#party').waitFor();

    // an invoice written and posted, its PDF, sent, paid
    await nav('app.nav.invoices');
    await page.getByRole('heading', { name: HEADINGS[language].invoices, level: 1 }).waitFor();
    await page.getByLabel(tr('app.invoices.customer'), { exact: true }).selectOption({ label: 'Muster AG' });
    await page.getByLabel(tr('app.form.textOf', { row: row(1) })).fill('Beratung');
    await page.getByLabel(tr('app.form.quantityOf', { row: row(1) })).fill('10');
    await page.getByLabel(tr('app.form.priceOf', { row: row(1) })).fill('500');
    await page.getByLabel(tr('app.form.accountOf', { row: row(1) })).fill('3400');
    await page.getByRole('button', { name: tr('app.invoices.post'), exact: true }).click();
    await notice(tr('app.invoices.notice.posted'));
    const invoiceId = Number(/\/invoices\/(\d+)/.exec(page.url())![1]);
    const pdf = await page.request.get(new URL((await page.locator('#pdf').getAttribute('href'))!, page.url()).href);
    t.same([pdf.status(), pdf.headers()['content-type']], [200, 'application/pdf'], 'the PDF opens');
    await page.getByLabel(tr('app.invoices.to')).fill('buchhaltung@muster.example');
    await page.getByRole('button', { name: tr('app.invoices.sendButton') }).click();
    await notice(tr('app.invoices.notice.sent'));
    await page.getByRole('button', { name: tr('app.invoices.payButton') }).click();
    await notice(tr('app.invoices.notice.paid'));
    t.match(
      (await rest('GET', `/arap/invoice/customer/${invoiceId}`)).body,
      { status: 'posted', payment_status: 'paid', emails: [{}] },
      'posted, sent and paid',
    );

    // a receipt uploaded, booked from the inbox, posted on the workstation
    await nav('app.nav.bills');
    await page.getByLabel(tr('app.invoices.receiptFile')).setInputFiles({
      name: 'meier.pdf',
      mimeType: 'application/pdf',
      buffer: fixture(IMAGE_PDF.file),
    });
    await page.getByRole('button', { name: tr('app.invoices.receiptButton') }).click();
    await page.waitForURL(/\/inbox\/\d+$/);
    const book = page.getByRole('button', { name: tr('app.inbox.book') });
    // the QR-bill is read in the background: the page offers booking once it is read
    while (!(await book.isVisible())) {
      await new Promise((r) => setTimeout(r, 300));
      await page.reload();
    }
    await book.click();
    await notice(tr('app.workstation.booked'));
    const billId = Number(/vendor\/(\d+)/.exec(page.url())![1]);
    await page.getByRole('button', { name: tr('app.draft.approve') }).click();
    await notice(tr('app.workstation.posted'));
    t.match((await rest('GET', `/arap/transaction/vendor/${billId}`)).body, {
      status: 'posted',
      grossAmount: IMAGE_PDF.amount,
    });

    // a bank statement imported, a line booked
    await nav('app.nav.bank');
    await page.getByRole('link', { name: 'Hauptkonto' }).click();
    await page.getByLabel(tr('bank.account.uploadHint')).setInputFiles({
      name: 'camt053.xml',
      mimeType: 'application/xml',
      buffer: CAMT,
    });
    await page.getByRole('button', { name: tr('bank.account.uploadButton') }).click();
    await page.locator('#unbooked').waitFor();
    const first = page.locator('#unbooked tr[data-line]').first();
    const lineId = Number(await first.getAttribute('data-line'));
    await first.getByLabel(tr('bank.account.bookToLabel')).fill('3400');
    await first.getByRole('button', { name: tr('bank.account.book') }).click();
    await page.locator('.notice.ok').waitFor();
    t.match((await rest('GET', `/bank/transactions/${lineId}`)).body, { status: 'booked', account: '3400' });

    // a journal entry
    await nav('app.nav.entries');
    await page.getByRole('heading', { name: HEADINGS[language].entries, level: 1 }).waitFor();
    await page.getByLabel(tr('app.entries.reference'), { exact: true }).fill('MIETE-11');
    await page.getByLabel(tr('app.form.accountOf', { row: line(1) })).fill('6000');
    await page.getByLabel(tr('app.form.debitOf', { row: line(1) })).fill('1200');
    await page.getByLabel(tr('app.form.accountOf', { row: line(2) })).fill('1020');
    await page.getByLabel(tr('app.form.creditOf', { row: line(2) })).fill('1200');
    await page.getByRole('button', { name: tr('app.invoices.post'), exact: true }).click();
    await notice(tr('app.entries.notice.posted'));

    // the balance sheet: the year's profit positive where the JSON keeps it negative
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${stack.url}/books/${a.dataset}/reports?report=balance_sheet&to=${today}`);
    const json = (await rest('GET', `/reports/balance_sheet?date=${today}`)).body;
    t.ok(json.equity.current_year_result < 0, 'a profit this year (negative in the JSON)');
    const shown = (await page.locator('#year-result').textContent())!.replace(/'/g, '');
    t.equal(Number(shown), -json.equity.current_year_result, 'the profit positive on the page');

    // each action in the audit log, done in the app
    await nav('app.nav.audit');
    await page.getByRole('heading', { name: HEADINGS[language].audit, level: 1 }).waitFor();
    await page.getByLabel(tr('app.audit.way')).selectOption('app');
    await page.getByRole('button', { name: tr('app.audit.filter') }).click();
    // the "what" column: the record kind and its id
    const what = (await page.locator('#audit tbody td:nth-child(4)').allTextContents()).map((w) => w.split(' ')[0]);
    for (const entity of [
      'customer',
      'customer_invoice',
      'message',
      'customer_payment',
      'inbox_entry',
      'vendor_transaction',
      'bank_import',
      'bank_transaction',
      'journal_entry',
    ])
      t.ok(what.includes(entity), `${entity} in the audit log, via the app`);
    t.notOk(what.includes('bank_account'), 'the bank account added through the API key is not');
  });
}
