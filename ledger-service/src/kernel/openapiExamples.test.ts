/**
 * The examples of /openapi.json (each contract's `example`, shared/src/contracts/examples.ts):
 * every operation has a short summary, a description, a request example where it takes a
 * body and an answer example where it answers JSON; the examples validate against the
 * schemas the document gives; and every example request is sent to a real ledger, in an
 * order that makes the records it names (its ids replaced by the real ones, nothing else),
 * where it must get the documented status and an answer of the example answer's shape.
 *
 * EXAMPLES_RECORD=1 rewrites examples.ts with the requests as sent and the answers as
 * received, the test database's ids replaced by small ones (after a change of a read shape).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { CONTRACTS, forSide, sidesOf, type Contract, type ContractExample, type Role, type Side } from '@ledger/shared';
import { createSchemaAjv } from '@ledger/shared/schemaValidator';
import { apiClient, createTestCompany } from '../../test/helpers.ts';
import { startInboxLedger } from '../../test/support/inboxLedger.ts';
import { fixture, VECTOR } from '../../test/fixtures/inbox/fixtures.ts';
import { createUser } from '../db/users.ts';
import { loadEncryptionKey } from '../secretKey.ts';
import { openApiPath } from './openapi.ts';

type Json = Record<string, any>;
type Params = Record<string, string | number>;
type Api = ReturnType<typeof apiClient> & { url(path: string): string; headers: Record<string, string> };

const RECORD = process.env.EXAMPLES_RECORD === '1';
const EXAMPLES_FILE = fileURLToPath(new URL('../../../shared/src/contracts/examples.ts', import.meta.url));
const ajv = createSchemaAjv({ allErrors: true });

/** What the steps made, by name: the real ids later examples stand for. */
interface Ctx {
  api: Api;
  ids: Record<string, number>;
  /** real strings that stand for an example's (unique e-mails): put back when recording */
  aliases: Map<string, string>;
  newUser(example: string): Promise<string>;
  /** a member of the company with the example's name and address (another owner makes them) */
  newMember(role: Role): Promise<number>;
}

interface Step {
  op: string;
  side?: Side;
  /** the real path parameters (other than `:vc`) */
  params?: (c: Ctx) => Params | Promise<Params>;
  /** the example's record ids replaced by real ones */
  body?: (example: any, c: Ctx) => unknown;
  query?: (example: Record<string, unknown>, c: Ctx) => Record<string, unknown>;
  after?: (answer: any, c: Ctx) => void | Promise<void>;
}

const FILE = { name: 'receipt.pdf', data: 'data:application/pdf;base64,JVBERi0xLjQK' };
const SIDE_LIST: Side[] = ['vendor', 'customer'];
const party = (vc: Side, c: Ctx) => ({ [`${vc}_id`]: c.ids[vc] });
const withParty = (vc: Side) => (ex: Json, c: Ctx) => ({ ...ex, ...party(vc, c) });
const withItems = (vc: Side) => (ex: Json, c: Ctx) => ({
  ...ex,
  ...party(vc, c),
  items: (ex.items as Json[]).map((i) => (i.service_id ? { ...i, service_id: c.ids.service } : i)),
});
const created = async (c: Ctx, path: string, body: unknown): Promise<number> => {
  const res = await c.api('POST', path, body);
  if (res.status !== 201) throw new Error(`setup POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
};
const line = (vc: Side) =>
  vc === 'vendor'
    ? { account: '6500', amount: 100, taxAccount: '1170' }
    : { account: '3400', amount: 100, taxAccount: '2200' };
const item = (vc: Side) => ({
  description: 'Item',
  quantity: 1,
  price: 100,
  account: vc === 'vendor' ? '6500' : '3400',
  taxAccount: vc === 'vendor' ? '1170' : '2200',
});
const fileIdOf = async (c: Ctx, path: string): Promise<number> => (await c.api('GET', path)).body.files[0].id as number;

/** In order: each step makes what a later one names. */
function steps(): Step[] {
  const s: Step[] = [
    { op: 'validateApiKey' },
    { op: 'listChartAccounts' },
    { op: 'listTaxes' },
    { op: 'getTax', params: () => ({ code: 'VAT-OUT-STD' }) },
    {
      op: 'createTax',
      // its own tax account first
      body: async (ex: Json, c: Ctx) => {
        await created(c, '/system/chart/accounts', {
          accno: '2203',
          description: 'Output VAT special rate',
          category: 'L',
          links: ['AR_tax'],
        });
        return ex;
      },
    },
    { op: 'updateTax', params: () => ({ code: 'VAT-OUT-SPECIAL' }) },
    { op: 'deleteTax', params: () => ({ code: 'VAT-OUT-SPECIAL' }) },
    { op: 'createChartAccount' },
    { op: 'updateChartAccount', params: () => ({ accno: '6580' }) },
    { op: 'getCompany' },
    { op: 'updateCompany' },
    {
      op: 'listBankAccounts',
      after: (a, c) => {
        c.ids.bank = a[0].id;
      },
    },
    {
      op: 'createBankAccount',
      after: (a, c) => {
        c.ids.bank2 = a.id;
      },
    },
    { op: 'getBankAccount', params: (c) => ({ id: c.ids.bank2! }) },
    { op: 'updateBankAccount', params: (c) => ({ id: c.ids.bank2! }) },
  ];
  for (const vc of SIDE_LIST) {
    s.push(
      {
        op: 'createParty',
        side: vc,
        after: (a, c) => {
          c.ids[vc] = a.id;
        },
      },
      { op: 'searchParties', side: vc },
      { op: 'getParty', side: vc, params: (c) => ({ id: c.ids[vc]! }) },
      { op: 'updateParty', side: vc, params: (c) => ({ id: c.ids[vc]! }) },
      {
        op: 'deleteParty',
        side: vc,
        params: async (c) => ({ id: await created(c, `/arap/${vc}`, { name: 'Left over' }) }),
      },
    );
  }
  s.push(
    {
      op: 'createVendorBankAccount',
      params: (c) => ({ id: c.ids.vendor! }),
      after: (a, c) => {
        c.ids.vendorBank = a.id;
      },
    },
    { op: 'listVendorBankAccounts', params: (c) => ({ id: c.ids.vendor! }) },
    { op: 'updateVendorBankAccount', params: (c) => ({ id: c.ids.vendor!, bankId: c.ids.vendorBank! }) },
    {
      op: 'deleteVendorBankAccount',
      params: async (c) => ({
        id: c.ids.vendor!,
        bankId: await created(c, `/arap/vendor/${c.ids.vendor}/bank_accounts`, { iban: 'CH93 0076 2011 6238 5295 7' }),
      }),
    },
    {
      op: 'createService',
      after: (a, c) => {
        c.ids.service = a.id;
      },
    },
    { op: 'listServices' },
    { op: 'getService', params: (c) => ({ id: c.ids.service! }) },
    { op: 'updateService', params: (c) => ({ id: c.ids.service! }) },
    {
      op: 'deleteService',
      params: async (c) => ({ id: await created(c, '/arap/services', { description: 'Left over', price: 1 }) }),
    },
  );
  for (const vc of SIDE_LIST) {
    const tx = `tx_${vc}`;
    const inv = `inv_${vc}`;
    s.push(
      {
        op: 'createTransaction',
        side: vc,
        body: withParty(vc),
        after: (a, c) => {
          c.ids[tx] = a.id;
        },
      },
      { op: 'getTransaction', side: vc, params: (c) => ({ id: c.ids[tx]! }) },
      {
        op: 'createTransactions',
        side: vc,
        body: (ex: Json, c) => ({ transactions: (ex.transactions as Json[]).map((d) => ({ ...d, ...party(vc, c) })) }),
      },
      { op: 'updateTransaction', side: vc, params: (c) => ({ id: c.ids[tx]! }), body: withParty(vc) },
      { op: 'approveTransaction', side: vc, params: (c) => ({ id: c.ids[tx]! }), body: withParty(vc) },
      { op: 'listTransactions', side: vc },
      {
        op: 'reverseTransaction',
        side: vc,
        params: async (c) => ({
          id: await created(c, `/arap/transaction/${vc}`, {
            ...party(vc, c),
            invDate: '2026-10-20',
            pending: '0',
            lines: [line(vc)],
          }),
        }),
      },
      {
        op: 'deleteTransaction',
        side: vc,
        params: async (c) => ({
          id: await created(c, `/arap/transaction/${vc}`, {
            ...party(vc, c),
            invDate: '2026-10-21',
            lines: [line(vc)],
          }),
        }),
      },
      ...(['downloadTransactionFile', 'deleteTransactionFile'] as const).map(
        (op): Step => ({
          op,
          side: vc,
          params: async (c) => {
            const id = await created(c, `/arap/transaction/${vc}`, {
              ...party(vc, c),
              invDate: '2026-10-22',
              lines: [line(vc)],
              files: [FILE],
            });
            return { id, fileId: await fileIdOf(c, `/arap/transaction/${vc}/${id}`) };
          },
        }),
      ),
      { op: 'previewInvoice', side: vc, body: withItems(vc) },
      {
        op: 'createInvoice',
        side: vc,
        body: withItems(vc),
        after: (a, c) => {
          c.ids[inv] = a.id;
        },
      },
      { op: 'getInvoice', side: vc, params: (c) => ({ id: c.ids[inv]! }) },
      { op: 'updateInvoice', side: vc, params: (c) => ({ id: c.ids[inv]! }), body: withItems(vc) },
      { op: 'approveInvoice', side: vc, params: (c) => ({ id: c.ids[inv]! }), body: withItems(vc) },
      { op: 'listInvoices', side: vc },
      {
        op: 'reverseInvoice',
        side: vc,
        params: async (c) => ({
          id: await created(c, `/arap/invoice/${vc}`, {
            ...party(vc, c),
            invDate: '2026-10-20',
            pending: '0',
            items: [item(vc)],
          }),
        }),
      },
      {
        op: 'deleteInvoice',
        side: vc,
        params: async (c) => ({
          id: await created(c, `/arap/invoice/${vc}`, { ...party(vc, c), invDate: '2026-10-21', items: [item(vc)] }),
        }),
      },
      {
        op: 'downloadInvoiceFile',
        side: vc,
        params: async (c) => {
          const id = await created(c, `/arap/invoice/${vc}`, {
            ...party(vc, c),
            invDate: '2026-10-22',
            items: [item(vc)],
            files: [FILE],
          });
          return { id, fileId: await fileIdOf(c, `/arap/invoice/${vc}/${id}`) };
        },
      },
      { op: 'getInvoicePdf', side: vc, params: (c) => ({ id: c.ids[inv]! }) },
      {
        op: 'createCreditNote',
        side: vc,
        params: (c) => ({ id: c.ids[inv]! }),
        after: (a, c) => {
          c.ids[`cn_${vc}`] = a.id;
        },
      },
      {
        op: 'allocateCreditNote',
        side: vc,
        params: (c) => ({ id: c.ids[`cn_${vc}`]! }),
        body: (ex, c) => ({ ...ex, document_id: c.ids[inv] }),
      },
      { op: 'listDocuments', side: vc },
      { op: 'getDocument', side: vc, params: (c) => ({ id: c.ids[tx]! }) },
    );
  }
  s.push(
    { op: 'listWorkstation' },
    { op: 'emailInvoice', params: (c) => ({ id: c.ids.inv_customer! }) },
    {
      op: 'runDunning',
      params: async (c) => {
        const text = { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' };
        const set = await c.api('POST', '/system/company', { dunning: { levels: [{ days: 5, fee: 0, text }] } });
        if (set.status !== 200) throw new Error(`dunning levels: ${JSON.stringify(set.body)}`);
        return {};
      },
    },
    {
      op: 'listDunningRuns',
      params: async (c) => {
        const run = await c.api('POST', '/arap/dunning/run', { date: '2026-11-25' });
        if (run.status !== 200 || !run.body.id) throw new Error(`dunning run: ${JSON.stringify(run.body)}`);
        c.ids.dunning_run = run.body.id;
        return {};
      },
    },
    { op: 'getDunningRun', params: (c) => ({ id: c.ids.dunning_run! }) },
    {
      op: 'createQuote',
      body: (ex, c) => ({ ...ex, customer_id: c.ids.customer }),
      after: (a, c) => {
        c.ids.quote = a.id;
      },
    },
    { op: 'getQuote', params: (c) => ({ id: c.ids.quote! }) },
    {
      op: 'updateQuote',
      params: (c) => ({ id: c.ids.quote! }),
      body: (ex, c) => ({ ...ex, customer_id: c.ids.customer }),
    },
    { op: 'listQuotes' },
    { op: 'getQuotePdf', params: (c) => ({ id: c.ids.quote! }) },
    { op: 'emailQuote', params: (c) => ({ id: c.ids.quote! }) },
    { op: 'setQuoteStatus', params: (c) => ({ id: c.ids.quote! }) },
    { op: 'invoiceQuote', params: (c) => ({ id: c.ids.quote! }) },
    {
      op: 'deleteQuote',
      params: async (c) => ({
        id: await created(c, '/arap/quote/customer', {
          customer_id: c.ids.customer,
          invDate: '2026-11-02',
          valid_until: '2027-03-31',
          items: [item('customer')],
        }),
      }),
    },
    {
      op: 'createRecurring',
      body: (ex, c) => ({ ...ex, template: { ...ex.template, customer_id: c.ids.customer } }),
      after: (a, c) => {
        c.ids.recurring = a.id;
      },
    },
    { op: 'getRecurring', params: (c) => ({ id: c.ids.recurring! }) },
    {
      op: 'updateRecurring',
      params: (c) => ({ id: c.ids.recurring! }),
      body: (ex, c) => ({ ...ex, template: { ...ex.template, customer_id: c.ids.customer } }),
    },
    { op: 'listRecurring' },
    { op: 'previewRecurring', params: (c) => ({ id: c.ids.recurring! }) },
    { op: 'pauseRecurring', params: (c) => ({ id: c.ids.recurring! }) },
    { op: 'resumeRecurring', params: (c) => ({ id: c.ids.recurring! }) },
    {
      op: 'deleteRecurring',
      params: async (c) => ({
        id: await created(c, '/arap/recurring/customer', {
          template: { customer_id: c.ids.customer, items: [item('customer')] },
          schedule: { every: 1, unit: 'year', day: 'last', start: '2027-01-01' },
          mode: 'draft',
        }),
      }),
    },
    {
      op: 'sendReminder',
      params: async (c) => ({
        id: await created(c, '/arap/invoice/customer', {
          ...party('customer', c),
          invDate: '2026-09-01',
          dueDate: '2026-10-01',
          pending: '0',
          items: [item('customer')],
        }),
      }),
    },
  );
  for (const vc of SIDE_LIST) {
    s.push(
      {
        op: 'createPayment',
        side: vc,
        body: (ex, c) => ({ ...ex, document_id: c.ids[`tx_${vc}`] }),
        after: (a, c) => {
          c.ids[`pay_${vc}`] = a.id;
        },
      },
      { op: 'listPayments', side: vc },
      { op: 'getPayment', side: vc, params: (c) => ({ id: c.ids[`pay_${vc}`]! }) },
      {
        op: 'deletePayment',
        side: vc,
        params: async (c) => ({
          id: await created(c, `/arap/payment/${vc}`, {
            document_id: c.ids[`inv_${vc}`],
            date: '2026-11-03',
            amount: 10,
            account: '1020',
          }),
        }),
      },
      { op: 'agingReport', side: vc },
    );
  }
  const entry = (extra: Json = {}) => ({
    transdate: '2026-10-31',
    lines: [
      { account: '6400', debit: 50 },
      { account: '2300', credit: 50 },
    ],
    ...extra,
  });
  s.push(
    {
      op: 'createJournalEntry',
      after: (a, c) => {
        c.ids.entry = a.id;
      },
    },
    { op: 'getJournalEntry', params: (c) => ({ id: c.ids.entry! }) },
    { op: 'createJournalEntries' },
    {
      op: 'updateJournalEntry',
      params: async (c) => ({ id: await created(c, '/gl/transactions', entry({ reference: 'ACCR-2026-10' })) }),
      after: (a, c) => {
        c.ids.accrual = a.id;
      },
    },
    { op: 'listJournalEntries' },
    { op: 'reverseJournalEntry', params: (c) => ({ id: c.ids.accrual! }) },
    { op: 'deleteJournalEntry', params: async (c) => ({ id: await created(c, '/gl/transactions', entry()) }) },
    {
      op: 'downloadJournalFile',
      params: async (c) => {
        const id = await created(c, '/gl/transactions', entry({ files: [FILE] }));
        return { id, fileId: await fileIdOf(c, `/gl/transactions/${id}`) };
      },
    },
    { op: 'getLedger' },
    { op: 'trialBalance' },
    { op: 'incomeStatement' },
    { op: 'balanceSheet' },
    { op: 'vatReport' },
    {
      op: 'importBankTransactions',
      query: (ex, c) => ({ ...ex, account: c.ids.bank }),
      // the customer's payment names the open customer transaction's number and pays what is open: it is matched
      body: async (ex: string, c: Ctx) => {
        const open = (await c.api('GET', `/arap/transaction/customer/${c.ids.tx_customer}`)).body;
        return ex.replace(
          /^(2026-10-30),[\d.]+,(.*),Payment .*$/m,
          `$1,${Number(open.open).toFixed(2)},$2,Payment ${open.invNumber}`,
        );
      },
      after: async (_a, c) => {
        const list = await c.api('GET', '/bank/transactions?status=unmatched');
        c.ids.bankTx = list.body[0].id;
      },
    },
    { op: 'listBankTransactions' },
    { op: 'getBankTransaction', params: (c) => ({ id: c.ids.bankTx! }) },
    { op: 'bookBankTransaction', params: (c) => ({ id: c.ids.bankTx! }) },
    {
      op: 'createBankRule',
      body: (ex: Json, c: Ctx) => ({ ...ex, action: { ...ex.action, party_id: c.ids.vendor } }),
      after: (a, c) => {
        c.ids.bankRule = a.id;
      },
    },
    { op: 'listBankRules' },
    { op: 'getBankRule', params: (c) => ({ id: c.ids.bankRule! }) },
    {
      op: 'updateBankRule',
      params: (c) => ({ id: c.ids.bankRule! }),
      body: (ex: Json, c: Ctx) => ({ ...ex, action: { ...ex.action, party_id: c.ids.vendor } }),
    },
    { op: 'previewBankRules' },
    {
      op: 'createBankRuleFromTransaction',
      params: (c) => ({ id: c.ids.bankTx! }),
      after: (a, c) => {
        c.ids.bankRule2 = a.id;
      },
    },
    { op: 'orderBankRules', body: (_ex: Json, c: Ctx) => ({ ids: [c.ids.bankRule2, c.ids.bankRule] }) },
    { op: 'getBankReconciliation', params: (c) => ({ id: c.ids.bank! }) },
    {
      op: 'reconcileBankAccount',
      params: (c) => ({ id: c.ids.bank! }),
      // the ledger's own balance on that day: the reconcile succeeds
      body: async (ex: Json, c: Ctx) => {
        const now = await c.api('GET', `/bank/accounts/${c.ids.bank}/reconciliation?date=${ex.date}`);
        return { ...ex, statement_balance: now.body.ledger_balance };
      },
    },
    { op: 'unreconcileBankAccount', params: (c) => ({ id: c.ids.bank! }) },
    { op: 'deleteBankRule', params: (c) => ({ id: c.ids.bankRule2! }) },
    { op: 'deleteBankAccount', params: (c) => ({ id: c.ids.bank2! }) },
    {
      op: 'createPaymentFile',
      body: async (ex: Json, c: Ctx) => {
        const payee = await created(c, `/arap/vendor/${c.ids.vendor}/bank_accounts`, {
          iban: 'CH93 0076 2011 6238 5295 7',
        });
        const bill = await created(c, '/arap/transaction/vendor', {
          ...party('vendor', c),
          invDate: '2026-10-25',
          pending: '0',
          payment_file: 1,
          vc_bank_id: payee,
          lines: [line('vendor')],
        });
        return { ...ex, bank_account_id: c.ids.bank, document_ids: [bill] };
      },
      after: (a, c) => {
        c.ids.paymentFile = a.id;
      },
    },
    { op: 'listPaymentFiles' },
    { op: 'getPaymentFile', params: (c) => ({ id: c.ids.paymentFile! }) },
    {
      op: 'listStoredDocuments',
      after: (a, c) => {
        c.ids.storedDocument = a[0].id;
      },
    },
    { op: 'getStoredDocument', params: (c) => ({ id: c.ids.storedDocument! }) },
    { op: 'getDocumentContent', params: (c) => ({ id: c.ids.storedDocument! }) },
    {
      op: 'uploadToInbox',
      after: (a, c) => {
        c.ids.upload = a.id;
      },
    },
    { op: 'getInboxEntry', params: (c) => ({ id: c.ids.upload! }) },
    {
      op: 'listInbox',
      // a QR-bill whose extraction has run, for the list and the booking
      params: async (c) => {
        const form = new FormData();
        form.append(
          'file',
          new Blob([new Uint8Array(fixture(VECTOR.file))], { type: 'application/pdf' }),
          'muster-treuhand.pdf',
        );
        const res = await fetch(c.api.url('/documents/inbox'), { method: 'POST', headers: c.api.headers, body: form });
        const id = ((await res.json()) as { id: number }).id;
        for (let i = 0; i < 600 && (await c.api('GET', `/documents/inbox/${id}`)).body.status === 'new'; i++)
          await new Promise((r) => setTimeout(r, 100));
        c.ids.extracted = id;
        return {};
      },
    },
    { op: 'bookInboxEntry', params: (c) => ({ id: c.ids.extracted! }) },
    { op: 'discardInboxEntry', params: (c) => ({ id: c.ids.upload! }) },
    { op: 'listApiKeys' },
    {
      op: 'createApiKey',
      // the key is shown once, here: the recorded example shows a made-up one
      after: (a, c) => {
        const made = `ak_${'Ex4mpleKeyShownOnlyInThisAnswer'.padEnd(43, '0')}`;
        c.aliases.set(a.key, made);
        c.aliases.set(a.prefix, made.slice(0, a.prefix.length));
      },
    },
    { op: 'deleteApiKey', params: async (c) => ({ id: await created(c, '/system/api_keys', { label: 'left over' }) }) },
    { op: 'listAudit' },
    { op: 'listEvents', query: () => ({ after: 0, limit: 1 }) },
    { op: 'getEvent', params: () => ({ id: 1 }) },
    {
      op: 'createWebhook',
      // a public address literal: the example's host name would be resolved (and this machine may have no DNS)
      body: (ex: Json) => ({ ...ex, url: 'https://1.1.1.1/hooks/ledger', events: ['party.*'] }),
      after: async (a, c) => {
        c.ids.webhook = a.id;
        c.aliases.set(a.secret, 'whsec_RXhhbXBsZVNlY3JldE9ubHlTaG93bk9uY2U=');
        await created(c, '/arap/customer', { name: 'Webhook example AG' });
      },
    },
    { op: 'listWebhooks' },
    { op: 'getWebhook', params: (c) => ({ id: c.ids.webhook! }) },
    {
      op: 'listWebhookDeliveries',
      params: (c) => ({ id: c.ids.webhook! }),
      after: (a, c) => {
        c.ids.delivery = a[0].id;
      },
    },
    {
      op: 'redeliverWebhookDelivery',
      params: (c) => ({ id: c.ids.webhook!, deliveryId: c.ids.delivery! }),
    },
    { op: 'replayWebhook', params: (c) => ({ id: c.ids.webhook! }) },
    {
      op: 'deleteWebhook',
      params: async (c) => ({
        id: await created(c, '/system/webhooks', { url: 'https://1.1.1.1/other', events: ['invoice.*'] }),
      }),
    },
    { op: 'listMembers' },
    {
      op: 'createInvitation',
      body: async (ex: Json, c: Ctx) => ({ ...ex, email: await c.newUser(ex.email) }),
      after: (a, c) => {
        c.ids.invitation = a.id;
      },
    },
    { op: 'listInvitations' },
    { op: 'getInvitation', params: (c) => ({ id: c.ids.invitation! }) },
    { op: 'withdrawInvitation', params: (c) => ({ id: c.ids.invitation! }) },
    {
      op: 'updateMember',
      params: async (c) => {
        c.ids.member = await c.newMember('accountant');
        return { userId: c.ids.member };
      },
    },
    { op: 'removeMember', params: (c) => ({ userId: c.ids.member! }) },
    {
      op: 'prepareVatReturn',
      // a sale and a purchase of the quarter
      body: async (ex: Json, c: Ctx) => {
        for (const vc of SIDE_LIST) {
          await created(c, `/arap/transaction/${vc}`, {
            ...party(vc, c),
            invDate: '2025-02-15',
            pending: '0',
            lines: [line(vc)],
          });
        }
        return ex;
      },
      after: (a, c) => {
        c.ids.vatReturn = a.id;
      },
    },
    { op: 'listVatReturns' },
    { op: 'getVatReturn', params: (c) => ({ id: c.ids.vatReturn! }) },
    { op: 'getVatReturnFigure', params: (c) => ({ id: c.ids.vatReturn!, figure: '303_tax' }) },
    { op: 'settleVatReturn', params: (c) => ({ id: c.ids.vatReturn! }) },
    {
      op: 'deleteVatReturn',
      params: async (c) => ({
        id: await created(c, '/reports/vat/returns', { from: '2025-01-01', to: '2025-03-31', type: 'correction' }),
      }),
    },
    {
      op: 'createDimension',
      after: (a, c) => {
        c.ids.dimension = a.id;
      },
    },
    { op: 'listDimensions' },
    { op: 'getDimension', params: (c) => ({ id: c.ids.dimension! }) },
    { op: 'updateDimension', params: (c) => ({ id: c.ids.dimension! }) },
    {
      op: 'createDimensionValue',
      params: (c) => ({ id: c.ids.dimension! }),
      after: (a, c) => {
        c.ids.dimensionValue = a.id;
      },
    },
    {
      op: 'updateDimensionValue',
      params: (c) => ({ id: c.ids.dimension!, valueId: c.ids.dimensionValue! }),
    },
    {
      op: 'createAsset',
      after: (a, c) => {
        c.ids.asset = a.id;
      },
    },
    { op: 'listAssets' },
    { op: 'getAsset', params: (c) => ({ id: c.ids.asset! }) },
    { op: 'updateAsset', params: (c) => ({ id: c.ids.asset! }) },
    {
      op: 'deleteAsset',
      params: async (c) => ({
        id: await created(c, '/assets', {
          name: 'Left over',
          asset_account: '1520',
          expense_account: '6800',
          acquired: '2026-02-01',
          cost: 1000,
          method: 'linear',
          life_months: 36,
          frequency: 'month',
        }),
      }),
    },
    { op: 'runDepreciation' },
    { op: 'assetSchedule' },
    { op: 'disposeAsset', params: (c) => ({ id: c.ids.asset! }) },
    {
      op: 'revalue',
      // an open EUR invoice to revalue
      params: async (c) => {
        await created(c, '/arap/transaction/customer', {
          customer_id: c.ids.customer,
          invDate: '2026-11-10',
          curr: 'EUR',
          exchangerate: 0.95,
          lines: [{ account: '3400', amount: 1000 }],
          pending: '0',
        });
        return {};
      },
    },
    { op: 'getClosingDate' },
    { op: 'listFiscalYears' },
    {
      op: 'closeFiscalYear',
      // a year with a posted line, over by now
      params: async (c) => {
        await created(c, '/gl/transactions', {
          transdate: '2025-12-31',
          pending: '0',
          lines: [
            { account: '1020', debit: 1000 },
            { account: '2800', credit: 1000 },
          ],
        });
        return { year: 2025 };
      },
    },
    { op: 'closeBooks' },
  );
  return s;
}

// --- shapes and recording ---------------------------------------------------------------

/** The keys of an answer, nested (arrays by their first element): what an example must show. */
function shapeOf(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.length > 0 && depth < 3 ? [shapeOf(value[0], depth + 1)] : [];
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, depth < 3 ? shapeOf((value as Json)[k], depth + 1) : '…']),
    );
  }
  return value === null ? 'null' : typeof value;
}

/** Keys whose integer values are ids of the test database. */
const ID_KEY = /^(id|ids|[a-z_]+_ids?|fileId|bankId|userId|reversed_by|reversal_of|account)$/;

class Recorder {
  readonly examples = new Map<string, Partial<Record<Side | 'both', ContractExample>>>();
  readonly #ids = new Map<number, number>();

  #small(id: number): number {
    if (!this.#ids.has(id)) this.#ids.set(id, this.#ids.size + 1);
    return this.#ids.get(id)!;
  }

  /** `shorten`: long lists of an answer keep their first three rows, enough to show a row's shape */
  normalize(value: unknown, aliases: Map<string, string>, shorten = false, key = ''): unknown {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0 && ID_KEY.test(key))
      return this.#small(value);
    if (typeof value === 'string') {
      const text = [...aliases].reduce((s, [real, example]) => s.replaceAll(real, example), value);
      // ids inside URLs (`…/documents/237/content`) and payment file messages (`PF-25-1`)
      return text
        .replace(/^https?:\/\/\S+$/, (url) =>
          url.replace(/\/(\d+)(?=[/?#]|$)/g, (_, id: string) => `/${this.#small(Number(id))}`),
        )
        .replace(/\bPF-(\d+)/g, (_, id: string) => `PF-${this.#small(Number(id))}`);
    }
    if (Array.isArray(value))
      return (shorten && value.length > 3 ? value.slice(0, 3) : value).map((v) =>
        this.normalize(v, aliases, shorten, key),
      );
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          this.normalize(v, aliases, shorten, k === 'id' && key ? `${key}_id` : k),
        ]),
      );
    }
    return value;
  }

  add(contract: Contract, side: Side | undefined, example: ContractExample): void {
    const entry = this.examples.get(contract.name) ?? {};
    entry[side ?? 'both'] = example;
    this.examples.set(contract.name, entry);
  }

  write(): void {
    const head = [
      '/**',
      ' * One example call per contract: what an integration sends (path parameters, query, body)',
      " * and what the ledger answers. The OpenAPI document shows them as the operations' examples;",
      ' * ledger-service/src/kernel/openapiExamples.test.ts validates them against the schemas and',
      " * sends every one to a real ledger, where the answer must have the example answer's shape.",
      ' * The answers were recorded from that run (EXAMPLES_RECORD=1 rewrites this file), with the',
      ' * ids of the test database replaced by small ones.',
      ' */',
      "import type { ContractExample, PerSide } from './contract.ts';",
      '',
      'export const examples = {',
    ];
    const body = [...this.examples].map(([name, bySide]) => {
      const value =
        bySide.both ?? (JSON.stringify(bySide.vendor) === JSON.stringify(bySide.customer) ? bySide.vendor : bySide);
      return `  ${name}: ${toTs(value, 1)},`;
    });
    writeFileSync(
      EXAMPLES_FILE,
      [...head, ...body, '} satisfies Record<string, ContractExample | PerSide<ContractExample>>;', ''].join('\n'),
    );
  }
}

/** A value as a TypeScript literal: single quotes, bare keys, short objects on one line. */
function toTs(value: unknown, level: number): string {
  const pad = '  '.repeat(level);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Array.isArray(value)
    ? value.map((v) => toTs(v, level + 1))
    : Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${toTs(v, level + 1)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const flat = `${open}${entries.join(', ')}${close}`;
  if (flat.length + pad.length < 110 && !flat.includes('\n')) return flat;
  return `${open.trim()}\n${entries.map((e) => `${pad}  ${e},`).join('\n')}\n${pad}${close.trim()}`;
}

// --- the test ---------------------------------------------------------------------------

t.test('every operation: summary, description and examples, valid against its schemas', async (t) => {
  // no webhook sender: a delivery stays as queued, so its answer has the example's shape (an attempt,
  // made or not by the time of the list, would add a log entry)
  const ledger = await startInboxLedger(t, {}, { webhooks: false });
  const doc = (await (await fetch(`${ledger.url}/openapi.json`)).json()) as Json;
  const resolved = (schema: Json): Json =>
    schema.$ref
      ? (schema.$ref as string)
          .slice(2)
          .split('/')
          .reduce((n: Json, k) => n[k], doc)
      : schema;
  let operations = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'servers') continue;
      operations++;
      const name = `${method.toUpperCase()} ${path}`;
      t.ok(
        typeof op.summary === 'string' && op.summary.length > 0 && op.summary.length <= 60,
        `${name}: summary of at most 60 characters`,
      );
      t.ok(typeof op.description === 'string' && op.description.length >= 20, `${name}: a description`);
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
        if (type === 'multipart/form-data') continue; // the same document as the JSON body, with files
        if (media.example === undefined) continue;
        const validate = ajv.compile(resolved(media.schema));
        t.ok(
          validate(media.example),
          `${name}: the ${type} request example is valid ${ajv.errorsText(validate.errors)}`,
        );
      }
      const bodies = Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>).filter(
        ([, m]) => m.example !== undefined,
      );
      if (op.requestBody) t.ok(bodies.length > 0, `${name}: a request example`);
      const [status, success] = Object.entries(op.responses as Record<string, Json>).find(([s]) => s.startsWith('2'))!;
      // every media type of every success answer, files included, shows an example
      for (const [code, answer] of Object.entries(op.responses as Record<string, Json>)) {
        if (!code.startsWith('2')) continue;
        for (const [type, media] of Object.entries((answer.content ?? {}) as Record<string, Json>)) {
          t.ok(media.example !== undefined || media.examples !== undefined, `${name}: a ${code} ${type} example`);
          if (typeof media.example === 'string' && media.schema?.type === 'string') {
            t.ok(media.example.length > 0, `${name}: the ${type} example is a file's text or first bytes`);
          }
        }
      }
      const json = success.content?.['application/json'] as Json | undefined;
      if (json) {
        t.not(json.example, undefined, `${name}: a ${status} answer example`);
        const validate = ajv.compile(resolved(json.schema));
        t.ok(validate(json.example), `${name}: the answer example is valid ${ajv.errorsText(validate.errors)}`);
      }
    }
  }
  t.ok(operations >= CONTRACTS.length, `${operations} operations`);
});

t.test(
  "every example request, sent to a real ledger, gets the documented status and an answer of the example's shape",
  async (t) => {
    // no webhook sender: a delivery stays as queued, so its answer has the example's shape (an attempt,
    // made or not by the time of the list, would add a log entry)
    const ledger = await startInboxLedger(t, {}, { webhooks: false });
    const co = await createTestCompany(ledger, { swissInvoicing: true });
    const base = `${ledger.url}/client/${co.dataset}`;
    const call = apiClient(ledger.url, co.dataset, co.apiKey);
    const api = Object.assign(call, { url: (path: string) => `${base}${path}`, headers: { 'X-API-Key': co.apiKey } });
    const doc = (await (await fetch(`${ledger.url}/openapi.json`)).json()) as Json;
    const key = loadEncryptionKey(ledger.config);
    const c: Ctx = {
      api,
      ids: {},
      aliases: new Map(),
      async newUser(example) {
        const [local, domain] = example.split('@');
        const email = `${local}-${randomBytes(4).toString('hex')}@${domain}`;
        await createUser(ledger.db, key, {
          email,
          name: 'Anna Muster',
          password: `pw-${randomBytes(8).toString('hex')}`,
        });
        c.aliases.set(email, example);
        return email;
      },
      async newMember(role) {
        const member = await co.addMember(role, '5000');
        c.aliases.set(member.email, 'anna@muster-treuhand.example');
        c.aliases.set(`${role} user`, 'Anna Muster');
        return member.userId;
      },
    };
    // the test company's names, as the demo's would read
    c.aliases.set(co.email, 'owner@muster-treuhand.example');
    c.aliases.set(co.apiKey.slice(0, 7), 'ak_D3mo');
    c.aliases.set(`billing@${co.dataset}.test`, 'billing@muster-treuhand.example');
    c.aliases.set(`Test ${co.dataset}`, 'Muster Treuhand AG');
    c.aliases.set(co.dataset, 'demo');
    c.aliases.set(ledger.url, 'http://localhost:3000');
    const recorder = new Recorder();
    const all = steps();

    // every operation of the document has its step, once
    const covered = all.map((s) => `${s.op}/${s.side ?? ''}`);
    const expected = CONTRACTS.flatMap((contract) => sidesOf(contract).map((side) => `${contract.name}/${side ?? ''}`));
    t.same([...covered].sort(), [...expected].sort(), 'one step per operation');

    for (const step of all) {
      const contract = CONTRACTS.find((x) => x.name === step.op);
      if (!contract) throw new Error(`no contract ${step.op}`);
      const example: ContractExample = forSide(contract.example, step.side);
      const params = { ...(example.params ?? {}), ...((await step.params?.(c)) ?? {}) };
      const query = step.query ? step.query({ ...(example.query ?? {}) }, c) : { ...(example.query ?? {}) };
      const body =
        example.body === undefined
          ? undefined
          : step.body
            ? await step.body(structuredClone(example.body), c)
            : example.body;
      const path = (step.side ? contract.path.replace(':vc', step.side) : contract.path).replace(
        /:([A-Za-z]+)/g,
        (_, name: string) => {
          if (params[name] === undefined) throw new Error(`${step.op}: no value for :${name}`);
          return encodeURIComponent(String(params[name]));
        },
      );
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      const text = typeof body === 'string';
      const res = await fetch(`${base}${path}${search ? `?${search}` : ''}`, {
        method: contract.method,
        headers: {
          'X-API-Key': co.apiKey,
          ...(body === undefined ? {} : { 'Content-Type': text ? 'text/csv' : 'application/json' }),
        },
        body: body === undefined ? undefined : text ? body : JSON.stringify(body),
      });
      const raw = Buffer.from(await res.arrayBuffer());
      const isJson = res.headers.get('content-type')?.includes('application/json') ?? false;
      const answer = isJson ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
      const name = `${step.op}${step.side ? ` (${step.side})` : ''}`;
      const status = contract.status ?? 200;
      if (res.status !== status) {
        t.fail(`${name}: ${res.status} instead of ${status}: ${raw.toString('utf8').slice(0, 400)}`);
        continue;
      }
      const operation = doc.paths[openApiPath(contract, step.side)][contract.method.toLowerCase()] as Json;
      const documented = operation.responses[String(status)].content?.['application/json'] as Json | undefined;
      if (isJson && documented) {
        const validate = ajv.compile(documented.schema);
        t.ok(
          validate(answer),
          `${name}: the answer is valid against the documented schema ${ajv.errorsText(validate.errors)}`,
        );
      }
      if (contract.response && !RECORD) {
        t.same(
          shapeOf(answer),
          shapeOf(example.response),
          `${name}: ${status}, an answer of the example answer's shape`,
        );
      } else if (contract.download && !RECORD) {
        t.ok(raw.length > 0, `${name}: ${status}, ${raw.length} bytes of ${res.headers.get('content-type')}`);
      } else if (!RECORD) {
        t.equal(raw.length, 0, `${name}: ${status} without a body`);
      }
      // each file type's example is what the ledger answers in that type: its first bytes (up to the …), or a
      // text file's first line (the CSV's column titles; the figures are the test company's)
      for (const [type, file] of Object.entries(example.files ?? {})) {
        if (RECORD || type === '*/*') continue; // a stored file's own type: whatever was stored
        const got = await fetch(`${base}${path}${search ? `?${search}` : ''}`, {
          headers: { 'X-API-Key': co.apiKey, Accept: type },
        });
        const text = Buffer.from(await got.arrayBuffer()).toString('latin1');
        const start = file.includes('…') ? file.slice(0, file.indexOf('…')) : file.split('\n')[0]!;
        t.equal(got.status, status, `${name}: ${type} answered`);
        t.match(got.headers.get('content-type'), type, `${name}: as ${type}`);
        t.equal(text.slice(0, start.length), start, `${name}: the ${type} answer starts as its example`);
      }
      await step.after?.(answer, c);
      if (RECORD) {
        const recorded: ContractExample = {
          ...(Object.keys(params).length > 0 ? { params: recorder.normalize(params, c.aliases) as Params } : {}),
          ...(Object.keys(query).length > 0
            ? { query: recorder.normalize(query, c.aliases) as ContractExample['query'] }
            : {}),
          ...(body !== undefined ? { body: recorder.normalize(body, c.aliases) } : {}),
          ...(contract.response || (contract.download?.[0]?.includes('xml') && !isJson)
            ? { response: recorder.normalize(answer, c.aliases, true) }
            : {}),
          ...(example.files ? { files: example.files } : {}),
        };
        recorder.add(contract, step.side, recorded);
      }
    }
    if (RECORD) recorder.write();
  },
);
