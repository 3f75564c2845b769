/**
 * Idempotency-Key on the newer POST route families (issue 14: "idempotency is tested for every
 * POST route family"; the older families are in idempotency.test.ts): payments, journal entries
 * (create, update, reverse), fiscal year close, bank statement import (raw XML and CSV bodies),
 * booking a bank transaction by hand, payment files, the inbox (JSON and multipart upload,
 * booking) and invoice e-mail and reminders.
 *
 * For each: the same key and request → the same status and body with `Idempotent-Replayed:
 * true` and not one row more in the tables the request writes (including its pg-boss jobs:
 * a replay must not queue a second e-mail or extraction); the same key with another request
 * → 409 `conflict`, writing nothing. Each first request must really have written (the
 * expected row deltas), so a count that never moves cannot pass for "no second write".
 */
import t, { type Test } from 'tap';
import { randomBytes } from 'node:crypto';
import { withTenant, type Tx } from '../db/knex.ts';
import type { LedgerConfig } from '../config.ts';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, testConfig, type ApiResponse } from '../../test/helpers.ts';
import { assertAnswerMatchesContract } from '../../test/support/answerContract.ts';
import { bankSetup } from '../../test/fixtures/bank/setup.ts';
import { fixture as bankFixture } from '../../test/fixtures/bank/support.ts';
import { fixture as inboxFixture, IMAGE_PDF, VECTOR } from '../../test/fixtures/inbox/fixtures.ts';
import { startMailScenario } from '../../test/support/mailLedger.ts';
import { CHART } from '../../test/arapHelpers.ts';
import { dropQueue } from '../db/queue.ts';

const KEY = 'Idempotency-Key';
let serial = 0;
const freshKey = () => `families-${process.pid}-${Date.now()}-${++serial}`;

/** Named row counts; each a function, read before and after every request. */
type Counters = Record<string, () => Promise<number>>;
/** The rows a first request must add per counter: an exact number, or '+' for "some". */
type Deltas = Record<string, number | '+'>;

async function snapshot(counters: Counters): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, count] of Object.entries(counters)) out[name] = await count();
  return out;
}

/** Rows of a company table, under its RLS scope. */
const tableCounter = (db: Parameters<typeof withTenant>[0], companyId: number, table: string) => () =>
  withTenant(db, companyId, async (tx: Tx) => Number(((await tx(table).count({ n: '*' }).first()) as { n: string }).n));

/** Jobs of one pg-boss queue (the queue tables are outside the tenant schema; a test queue is the test's own). */
const jobCounter = (db: Parameters<typeof withTenant>[0], queue: string) => async () =>
  Number(
    ((await db.raw('select count(*)::int as n from pgboss.job where name = ?', [queue])) as { rows: { n: number }[] })
      .rows[0]!.n,
  );

/**
 * Sends `same` twice with one key and then `other` with that key: the first writes `deltas`,
 * the second is the first answer replayed without writing, the third is a 409 without writing.
 */
async function replays(
  t: Test,
  label: string,
  opts: {
    same: (key: string) => Promise<ApiResponse>;
    other: (key: string) => Promise<ApiResponse>;
    status: number;
    counters: Counters;
    deltas: Deltas;
  },
): Promise<ApiResponse> {
  const key = freshKey();
  const before = await snapshot(opts.counters);
  const first = await opts.same(key);
  t.equal(first.status, opts.status, `${label}: first answer ${JSON.stringify(first.body)}`);
  t.equal(first.headers.get('idempotent-replayed'), null, `${label}: the first answer is no replay`);
  const written = await snapshot(opts.counters);
  for (const [name, delta] of Object.entries(opts.deltas)) {
    const grew = written[name]! - before[name]!;
    if (delta === '+') t.ok(grew > 0, `${label}: the first request wrote ${name} (+${grew})`);
    else t.equal(grew, delta, `${label}: the first request wrote ${delta} ${name}`);
  }

  const again = await opts.same(key);
  t.equal(again.status, first.status, `${label}: same status`);
  t.same(again.body, first.body, `${label}: same body`);
  t.equal(again.headers.get('idempotent-replayed'), 'true', `${label}: marked as replay`);
  t.equal(again.headers.get('content-type'), first.headers.get('content-type'), `${label}: same Content-Type`);
  t.equal(again.headers.get('location'), first.headers.get('location'), `${label}: same Location`);
  t.same(await snapshot(opts.counters), written, `${label}: the replay wrote nothing`);

  const conflict = await opts.other(key);
  t.equal(conflict.status, 409, `${label}: same key, other request`);
  t.equal((conflict.body as { error?: { code?: string } }).error?.code, 'conflict', `${label}: conflict`);
  t.match((conflict.body as { error: { message: string } }).error.message, /another request/);
  t.equal(conflict.headers.get('idempotent-replayed'), null);
  t.same(await snapshot(opts.counters), written, `${label}: the conflict wrote nothing`);
  return first;
}

/** A JSON-bodied family: `path` with `body`, then with `otherBody`. */
function jsonFamily(api: ReturnType<typeof apiClient>, path: string, body: unknown, otherBody: unknown) {
  return {
    same: (key: string) => api('POST', path, body, { [KEY]: key }),
    other: (key: string) => api('POST', path, otherBody, { [KEY]: key }),
  };
}

t.test('payments, journal entries (create, update, reverse) and fiscal year close', async (t) => {
  const s = await bankSetup(t);
  const count = (table: string) => tableCounter(s.ledger.db, s.co.company.id, table);

  const invoice = await s.postInvoice(100); // 108.10
  const payment = await replays(t, 'payment', {
    ...jsonFamily(
      s.api,
      '/arap/payment/customer',
      { document_id: invoice.id, amount: 50, account: '1020', date: '2024-03-20', memo: 'first half' },
      { document_id: invoice.id, amount: 50.05, account: '1020', date: '2024-03-20', memo: 'first half' },
    ),
    status: 201,
    counters: { arap_payments: count('arap_payments'), ledger_entries: count('ledger_entries') },
    deltas: { arap_payments: 1, ledger_entries: 2 },
  });
  t.equal((await s.api('GET', `/arap/invoice/customer/${invoice.id}`)).body.open, 58.1, 'paid once: 108.10 − 50');
  t.type(payment.body.id, 'number');

  const gl = {
    gl_transactions: count('gl_transactions'),
    gl_lines: count('gl_lines'),
    ledger_entries: count('ledger_entries'),
  };
  const rent = (extra: Record<string, unknown> = {}) => ({
    transdate: '2024-03-15',
    description: 'March rent',
    lines: [
      { account: '6000', debit: 1500 },
      { account: '1020', credit: 1500 },
    ],
    ...extra,
  });
  const draft = await replays(t, 'journal entry', {
    ...jsonFamily(s.api, '/gl/transactions', rent(), rent({ description: 'April rent' })),
    status: 201,
    counters: gl,
    deltas: { gl_transactions: 1, gl_lines: 2, ledger_entries: 0 },
  });
  const id = draft.body.id as number;
  await replays(t, 'journal entry update (posting it)', {
    ...jsonFamily(
      s.api,
      `/gl/transactions/${id}`,
      rent({ pending: '0' }),
      rent({ pending: '0', transdate: '2024-03-16' }),
    ),
    status: 200,
    counters: gl,
    deltas: { gl_transactions: 0, ledger_entries: 2 },
  });
  t.equal(
    (await s.api('POST', `/gl/transactions/${id}`, rent({ pending: '0' }))).status,
    409,
    'without a key the same update is refused (posted entries do not change): the replay above was no second run',
  );
  const reversal = await replays(t, 'journal entry reverse', {
    ...jsonFamily(s.api, `/gl/transactions/${id}/reverse`, { date: '2024-03-31' }, { date: '2024-03-30' }),
    status: 201,
    counters: gl,
    deltas: { gl_transactions: 1, gl_lines: 2, ledger_entries: 2 },
  });
  t.not(reversal.body.id, id);

  // 2023 has a result to close: revenue 1000 against the bank
  const revenue = await s.api('POST', '/gl/transactions', {
    transdate: '2023-06-30',
    pending: '0',
    lines: [
      { account: '1020', debit: 1000 },
      { account: '3400', credit: 1000 },
    ],
  });
  t.equal(revenue.status, 201, JSON.stringify(revenue.body));
  const closed = await replays(t, 'fiscal year close', {
    same: (key) => s.api('POST', '/system/fiscal_years/2023/close', undefined, { [KEY]: key }),
    // no body of its own: any body makes another request
    other: (key) => s.api('POST', '/system/fiscal_years/2023/close', { note: 'again' }, { [KEY]: key }),
    status: 200,
    counters: gl,
    deltas: { gl_transactions: 1, ledger_entries: '+' },
  });
  t.match(closed.body, { year: 2023, closed: true });
  t.equal(
    (await s.api('POST', '/system/fiscal_years/2023/close')).status,
    409,
    'a second close without a key: already closed',
  );
  const closings = await withTenant(s.ledger.db, s.co.company.id, async (tx) =>
    Number(
      ((await tx('gl_transactions').where({ reference: 'CLOSE-2023' }).count({ n: '*' }).first()) as { n: string }).n,
    ),
  );
  t.equal(closings, 1, 'one closing entry');
});

t.test('bank: statement import (camt XML and CSV bodies), booking by hand, payment files', async (t) => {
  const s = await bankSetup(t);
  const count = (table: string) => tableCounter(s.ledger.db, s.co.company.id, table);
  const bank = {
    bank_transactions: count('bank_transactions'),
    arap_payments: count('arap_payments'),
    ledger_entries: count('ledger_entries'),
    gl_transactions: count('gl_transactions'),
  };
  const importWith =
    (body: string, type: string, query = '') =>
    (key: string) =>
      s.api('POST', `/bank/transactions/import${query}`, body, { 'Content-Type': type, [KEY]: key });

  // camt.054: three credits, one of them pays the invoice by its QR reference (a payment is booked)
  const invoice = await s.postInvoice(100);
  const notification = bankFixture('camt.054.001.08.xml').replace('000000000000000000000000011', invoice.qr_reference);
  const imported = await replays(t, 'camt import', {
    same: importWith(notification, 'application/xml'),
    other: importWith(bankFixture('camt.053.001.08.xml'), 'application/xml'),
    status: 200,
    counters: bank,
    deltas: { bank_transactions: 3, arap_payments: 1, ledger_entries: 2, gl_transactions: 0 },
  });
  t.match(
    imported.body,
    { imported: 3, duplicates: 0, matched: 1 },
    'the replay is the first answer, not "3 duplicates"',
  );
  const plain = await s.api('POST', '/bank/transactions/import', notification, { 'Content-Type': 'application/xml' });
  t.match(
    plain.body,
    { imported: 0, duplicates: 3 },
    'the same file without a key runs, and finds the three entries already there',
  );

  // CSV: the account is in the query, which is part of the request; so is the body's media type
  const csv = bankFixture('transactions.csv');
  const account = `?account=${s.bankAccountId}`;
  const csvKey = freshKey();
  const csvFirst = await replays(t, 'CSV import', {
    same: importWith(csv, 'text/csv', account),
    other: importWith(csv.replace('540.00', '541.00'), 'text/csv', account),
    status: 200,
    counters: bank,
    deltas: { bank_transactions: 4, arap_payments: 0, ledger_entries: 0 },
  });
  t.match(csvFirst.body, { imported: 4 });
  t.equal((await importWith(csv, 'text/csv', account)(csvKey)).status, 200, 'a key of its own');
  const otherQuery = await importWith(csv, 'text/csv', `?account=${s.bankAccountId + 1000}`)(csvKey);
  t.equal(otherQuery.status, 409, 'same key and file, another query → another request');
  const otherType = await importWith(csv, 'application/xml', account)(csvKey);
  t.equal(
    otherType.status,
    409,
    'same key and text, another media type → another request (the file would be read otherwise)',
  );
  t.equal(
    (await importWith(csv, 'text/csv; charset=utf-8', account)(csvKey)).headers.get('idempotent-replayed'),
    'true',
    'a charset parameter that reads the text the same is the same request',
  );

  // booking an unmatched transaction by hand: a journal entry bank against the account
  const unmatched = (await s.api('GET', '/bank/transactions?status=unmatched')).body as {
    id: number;
    amount: number;
  }[];
  const credit = unmatched.find((b) => b.amount > 0)!;
  const booked = await replays(t, 'bank booking', {
    ...jsonFamily(
      s.api,
      `/bank/transactions/${credit.id}/book`,
      { account: '3400', description: 'Cash sale' },
      { account: '3000', description: 'Cash sale' },
    ),
    status: 200,
    counters: bank,
    deltas: { gl_transactions: 1, ledger_entries: 2, bank_transactions: 0 },
  });
  t.match(booked.body, { id: credit.id, status: 'booked' });
  t.equal(
    (await s.api('POST', `/bank/transactions/${credit.id}/book`, { account: '3400', description: 'Cash sale' })).status,
    409,
    'without a key: already booked',
  );

  // a payment file of the open bill flagged for it
  const bill = await s.postBill(500);
  const files = { payment_files: count('payment_files'), payment_file_items: count('payment_file_items') };
  const file = await replays(t, 'payment file', {
    ...jsonFamily(
      s.api,
      '/bank/payment_files',
      { bank_account_id: s.bankAccountId, execution_date: '2024-04-02' },
      { bank_account_id: s.bankAccountId, execution_date: '2024-04-03' },
    ),
    status: 201,
    counters: files,
    deltas: { payment_files: 1, payment_file_items: 1 },
  });
  t.match(file.body, { count: 1, total: 500 });
  const listed = (await s.api('GET', '/bank/payment_files')).body as { id: number }[];
  t.same(
    listed.map((f) => f.id),
    [file.body.id],
    'one file holds the bill',
  );
  t.type(bill.id, 'number');
});

/** A ledger whose inbox worker takes jobs from its own queue (removed at teardown). */
async function inboxScenario(t: Test) {
  const config: LedgerConfig = testConfig({ inboxQueue: `inbox_idem_${randomBytes(6).toString('hex')}` });
  const queue = config.inboxQueue!;
  const ledger = await startLedger({ config, mail: false, inbox: { pollingIntervalSeconds: 0.5 } });
  await ledger.workersReady;
  t.teardown(async () => {
    await dropQueue(ledger.db, queue);
    await ledger.close();
  });
  const co = await createTestCompany({ ...ledger, config });
  return { ledger, config, queue, co, api: apiClient(ledger.url, co.dataset, co.apiKey) };
}

t.test('inbox: JSON and multipart upload (no second entry, document or extraction job), booking', async (t) => {
  const s = await inboxScenario(t);
  const count = (table: string) => tableCounter(s.ledger.db, s.co.company.id, table);
  const inbox = {
    inbox_entries: count('inbox_entries'),
    documents: count('documents'),
    jobs: jobCounter(s.ledger.db, s.queue),
  };

  const pdf = inboxFixture(VECTOR.file);
  const dataUri = (b: Buffer) => `data:application/pdf;base64,${b.toString('base64')}`;
  const uploaded = await replays(t, 'inbox upload (JSON)', {
    ...jsonFamily(
      s.api,
      '/documents/inbox',
      { name: 'muster.pdf', data: dataUri(pdf) },
      { name: 'muster-2.pdf', data: dataUri(pdf) },
    ),
    status: 201,
    counters: inbox,
    deltas: { inbox_entries: 1, documents: 1, jobs: 1 },
  });
  t.equal(uploaded.body.status, 'new');

  // multipart: every retry is a new FormData, so a new boundary
  const url = `${s.ledger.url}/client/${s.co.dataset}/documents/inbox`;
  const multipart =
    (bytes: Buffer, name: string) =>
    async (key: string): Promise<ApiResponse> => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
      const res = await fetch(url, { method: 'POST', headers: { 'X-API-Key': s.co.apiKey, [KEY]: key }, body: form });
      const body: unknown = await res.json();
      assertAnswerMatchesContract({
        method: 'POST',
        url: res.url,
        status: res.status,
        contentType: res.headers.get('content-type'),
        body,
      });
      return { status: res.status, body, headers: res.headers };
    };
  const image = inboxFixture(IMAGE_PDF.file);
  const changed = Buffer.from(image);
  changed[changed.length - 1] ^= 1;
  await replays(t, 'inbox upload (multipart)', {
    same: multipart(image, 'meier.pdf'),
    other: multipart(changed, 'meier.pdf'),
    status: 201,
    counters: inbox,
    deltas: { inbox_entries: 1, documents: 1, jobs: 1 },
  });

  // booking the extracted entry: one draft bill with the file
  const id = uploaded.body.id as number;
  let entry: { status: string } = { status: 'new' };
  for (let i = 0; i < 600 && entry.status === 'new'; i++) {
    entry = (await s.api('GET', `/documents/inbox/${id}`)).body;
    if (entry.status === 'new') await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(entry.status, 'extracted');
  const vendor = await s.api('POST', '/arap/vendor', { name: 'Muster Treuhand AG' });
  const overrides = (documentNumber: string) => ({
    overrides: { vendor_id: vendor.body.id, documentNumber, lines: [{ account: '6500', amount: 2493.99 }] },
  });
  const booked = await replays(t, 'inbox booking', {
    ...jsonFamily(s.api, `/documents/inbox/${id}/book`, overrides('RE-000042'), overrides('RE-000043')),
    status: 201,
    counters: {
      arap_transactions: count('arap_transactions'),
      arap_files: count('arap_files'),
      vendor_bank_accounts: count('vendor_bank_accounts'),
    },
    deltas: { arap_transactions: 1, arap_files: 1, vendor_bank_accounts: 1 },
  });
  t.match(booked.body, { id, vendor_id: vendor.body.id });
  t.equal(
    (await s.api('POST', `/documents/inbox/${id}/book`, overrides('RE-000042'))).status,
    409,
    'without a key: already booked',
  );
});

t.test('invoice e-mail and reminder: a replay queues no second message, fee or level', async (t) => {
  const s = await startMailScenario(t);
  const count = (table: string) => tableCounter(s.ledger.db, s.co.company.id, table);
  const mail = { messages: count('messages'), jobs: jobCounter(s.ledger.db, s.ledger.config.mailQueue) };
  const created = await s.api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: s.customerId,
    invDate: '2024-03-15',
    terms: 30,
    pending: '0',
    items: [
      {
        description: 'Bookkeeping March',
        quantity: 2,
        price: 150,
        account: CHART.customer.line,
        taxAccount: CHART.customer.tax,
      },
    ],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const invoiceId = created.body.id as number;

  const emailed = await replays(t, 'invoice e-mail', {
    ...jsonFamily(s.api, `/arap/invoice/customer/${invoiceId}/email`, {}, { subject: 'Your invoice' }),
    status: 202,
    counters: mail,
    deltas: { messages: 1, jobs: 1 },
  });
  t.equal(emailed.body.status, 'queued');

  t.equal((await s.api('POST', '/system/company', { reminder_fee_account: CHART.customer.line2 })).status, 200);
  const reminder = await replays(t, 'reminder', {
    ...jsonFamily(s.api, `/arap/invoice/customer/${invoiceId}/reminder`, { fee: 20 }, { fee: 25 }),
    status: 202,
    counters: { ...mail, arap_transactions: count('arap_transactions'), ledger_entries: count('ledger_entries') },
    deltas: { messages: 1, jobs: 1, arap_transactions: 1, ledger_entries: '+' },
  });
  t.match(reminder.body, { status: 'queued', level: 1 });
  t.type(reminder.body.fee_transaction_id, 'number');
  t.equal(
    (await s.api('GET', `/arap/invoice/customer/${invoiceId}`)).body.reminder_level,
    1,
    'the replay did not count as a second reminder',
  );
  const second = await s.api('POST', `/arap/invoice/customer/${invoiceId}/reminder`, {}, { [KEY]: freshKey() });
  t.match(second.body, { level: 2 }, 'the next reminder (a new key) is level 2');

  // three jobs, three messages: exactly these three e-mails arrive
  while (s.smtp.received.length < 3) await new Promise((r) => setTimeout(r, 100));
  const ids = s.smtp.received.map((m) => m.parsed.messageId).sort();
  t.same(ids, [emailed.body.message_id, reminder.body.message_id, second.body.message_id].sort());
  t.equal(await mail.jobs(), 3);
});
