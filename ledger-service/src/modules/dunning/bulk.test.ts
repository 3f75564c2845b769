/**
 * A sent dunning run written set-based (docs/invoices.md "Dunning runs", issue 33), over HTTP on real
 * Postgres: the fees of many invoices booked as one batch tie out (the aging equals the control account,
 * the books balance, each fee its own posted transaction in the invoice's currency); a run of 3,500 fees
 * goes beyond what one statement's parameters can carry; runs at the same time send each invoice's level
 * once; a run refused in the middle (a fee in a closed period after the e-mails are queued, the mail
 * queue missing after the levels are claimed) writes nothing.
 */
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { Money } from '@ledger/shared';
import { arapSetup, CHART, type ArapSetup } from '../../../test/arapHelpers.ts';
import { apiClient, createTestCompany, startTestLedger, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';
import { withTenant } from '../../db/knex.ts';

const text = { de: 'Bitte zahlen.', fr: 'Veuillez payer.', it: 'Vi preghiamo di pagare.', en: 'Please pay.' };
const LEVELS = [
  { days: 5, fee: 5, text },
  { days: 30, fee: 20, text },
];

/** The control account's balance (base currency) on `date`, from the ledger lines. */
async function controlBalance(s: ArapSetup, date: string): Promise<string> {
  return s.q(async (tx) => {
    const row = await tx('ledger_entries as e')
      .join('accounts as a', function () {
        this.on('a.id', '=', 'e.account_id').andOn('a.company_id', '=', 'e.company_id');
      })
      .where('a.accno', CHART.customer.control)
      .where('e.date', '<=', date)
      .sum({ s: 'e.amount' })
      .first();
    return new Money(String(row?.s ?? '0')).toFixed(2);
  });
}

async function agingTotal(s: ArapSetup, date: string): Promise<string> {
  const res = await s.api('GET', `/arap/aging/customer?date=${date}`);
  return new Money(res.body.totals.total).toFixed(2);
}

/** The fee transactions the runs booked (their description names the level and invoice). */
const feeTransactions = (s: Pick<ArapSetup, 'q'>) =>
  s.q((tx) =>
    tx('arap_transactions')
      .where({ vc: 'customer', type: 'transaction' })
      .whereLike('description', 'Reminder fee, level %')
      .orderBy('id')
      .select('id', 'inv_number', 'status', 'currency', 'amount', 'inv_date'),
  );

async function setLevels(api: ArapSetup['api']) {
  const set = await api('POST', '/system/company', {
    dunning: { levels: LEVELS },
    reminder_fee_account: CHART.customer.line2,
  });
  if (set.status !== 200) throw new Error(JSON.stringify(set.body));
}

async function invoice(api: ArapSetup['api'], customerId: number, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invDate: '2024-03-01',
    terms: 30,
    pending: '0',
    items: [{ description: 'Work', quantity: 1, price: 100, account: CHART.customer.line }],
    ...extra,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

t.test('a run books every fee as its own posted transaction in one batch; aging = control account', async (t) => {
  const s = await arapSetup(t);
  const withMail = await s.api('POST', '/arap/customer', {
    name: 'Muster AG',
    email: 'ar@muster.test',
    language: 'de',
  });
  const customers = [s.parties.customer.id, withMail.body.id as number];
  const ids: number[] = [];
  for (let i = 0; i < 12; i++) {
    const foreign = i % 4 === 3 ? { curr: 'EUR', exchangerate: 0.95 } : {};
    ids.push(await invoice(s.api, customers[i % 2]!, { ...foreign, items: [{ ...itemOf(100 + i) }] }));
  }
  await setLevels(s.api);

  for (const [date, level, fee] of [
    ['2024-04-10', 1, 5],
    ['2024-05-15', 2, 20],
  ] as const) {
    const run = await s.api('POST', '/arap/dunning/run', { date });
    t.equal(run.status, 200, JSON.stringify(run.body));
    t.equal(run.body.items.length, 12, `${date}: every invoice reminded`);
    t.same(
      run.body.items.map((i: { invoice_id: number }) => i.invoice_id),
      ids,
      'in the order of the due dates',
    );
    for (const item of run.body.items) {
      t.match(item, { level, fee });
      t.equal(item.message_id === null, item.customer_id === s.parties.customer.id, 'e-mailed where an address is');
    }
    const feeIds = run.body.items.map((i: { fee_transaction_id: number }) => i.fee_transaction_id);
    t.equal(new Set(feeIds).size, 12, 'a transaction of its own per fee');
    const one = (await s.api('GET', `/arap/transaction/customer/${feeIds[3]}`)).body;
    t.match(one, { status: 'posted', grossAmount: fee, invDate: date, currency: 'EUR' }, "in the invoice's currency");
    t.equal(await agingTotal(s, date), await controlBalance(s, date), `aging = control account on ${date}`);
  }
  const fees = await feeTransactions(s);
  t.equal(fees.length, 24);
  t.ok(
    fees.every((f) => f.status === 'posted'),
    'all posted',
  );
  t.equal(new Set(fees.map((f) => f.inv_number)).size, 24, 'numbered from the sequence, each its own number');
  t.equal(await s.companySum(), '0.000000', 'the books balance');
  const audits = await s.q((tx) =>
    tx('audit_log').where({ entity: 'customer_transaction', action: 'create_posted' }).count({ n: '*' }).first(),
  );
  t.equal(Number(audits?.n), 24, 'each fee audited as a single posting is');
  const events = await s.q((tx) =>
    tx('events')
      .whereIn(
        'resource_id',
        fees.map((f) => String(f.id)),
      )
      .select('type'),
  );
  t.equal(events.filter((e) => e.type === 'invoice.posted').length, 24, 'and its events recorded');
});

function itemOf(price: number) {
  return { description: 'Work', quantity: 1, price, account: CHART.customer.line };
}

t.test('a run of 3,500 fees: more rows than one statement could bind as parameters, booked and tied out', async (t) => {
  const s = await arapSetup(t);
  await setLevels(s.api);
  const COUNT = 3_500;
  const id = s.co.company.id;
  // the invoices' headers and ledger lines in SQL (as bench/dunning.ts makes them), so that the test is quick
  await s.q(async (tx) => {
    const ar = (await tx('accounts').where({ company_id: id, accno: CHART.customer.control }).first('id'))!.id;
    const revenue = (await tx('accounts').where({ company_id: id, accno: CHART.customer.line }).first('id'))!.id;
    await tx.raw(
      `insert into arap_transactions (company_id, vc, type, party_id, inv_number, inv_date, due_date, currency,
         exchangerate, record_account_id, status, net_amount, tax_amount, amount, posted_at)
       select ?, 'customer', 'invoice', ?, 'BULK-' || g, date '2024-03-01', date '2024-03-31', 'CHF', 1, ?,
              'posted', 100, 0, 100, now()
         from generate_series(1, ?) g`,
      [id, s.parties.customer.id, ar, COUNT],
    );
    for (const [account, sign] of [
      [ar, 1],
      [revenue, -1],
    ] as const) {
      await tx.raw(
        `insert into ledger_entries (company_id, transaction_id, account_id, date, amount, fx_amount, currency, kind)
         select ?, t.id, ?, t.inv_date, ? * t.amount, ? * t.amount, 'CHF', ?
           from arap_transactions t where t.company_id = ? and t.inv_number like 'BULK-%'`,
        [id, account, sign, sign, account === ar ? 'control' : 'amount', id],
      );
    }
  });
  t.equal(await agingTotal(s, '2024-04-10'), await controlBalance(s, '2024-04-10'), 'tied out before');

  const run = await s.api('POST', '/arap/dunning/run', { date: '2024-04-10' });
  t.equal(run.status, 200, JSON.stringify(run.body).slice(0, 500));
  t.equal(run.body.items.length, COUNT);
  const feeIds = new Set(run.body.items.map((i: { fee_transaction_id: number }) => i.fee_transaction_id));
  t.equal(feeIds.size, COUNT, 'every fee booked, each once');
  t.equal((await feeTransactions(s)).length, COUNT);
  t.equal(await controlBalance(s, '2024-04-10'), new Money(COUNT * 100 + COUNT * 5).toFixed(2), 'the fees on AR');
  t.equal(await agingTotal(s, '2024-04-10'), await controlBalance(s, '2024-04-10'), 'aging = control account');
  t.equal(await s.companySum(), '0.000000', 'the books balance');
  const again = await s.api('POST', '/arap/dunning/run', { date: '2024-04-10' });
  t.same(again.body.items, [], 'the same day again sends nothing');
});

t.test('runs at the same time, on two ledger processes, send each invoice its level once', async (t) => {
  const s = await arapSetup(t);
  const replica = await startTestLedger(t);
  const other = apiClient(replica.url, s.co.dataset, s.co.apiKey);
  const customer = await s.api('POST', '/arap/customer', { name: 'Muster AG', email: 'ar@muster.test' });
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) ids.push(await invoice(s.api, customer.body.id as number));
  await setLevels(s.api);
  const run = (api: ArapSetup['api']) => api('POST', '/arap/dunning/run', { date: '2024-04-10' });
  const answers = await Promise.all([run(s.api), run(other), run(s.api), run(other)]);
  for (const a of answers) t.equal(a.status, 200, JSON.stringify(a.body));
  const sent = answers.flatMap((a) => a.body.items as { invoice_id: number; fee_transaction_id: number }[]);
  t.same(
    sent.map((i) => i.invoice_id).sort((a, b) => a - b),
    ids,
    'every invoice once, across the runs',
  );
  t.equal((await feeTransactions(s)).length, 8, 'each fee booked once');
  const runs = (await s.api('GET', '/arap/dunning/runs')).body as { count: number }[];
  t.equal(runs.length, answers.filter((a) => a.body.id !== undefined).length, 'only runs that sent are listed');
  t.equal(
    runs.reduce((n, r) => n + r.count, 0),
    8,
  );
  for (const id of ids) {
    const read = (await s.api('GET', `/arap/invoice/customer/${id}`)).body;
    t.equal(read.reminder_level, 1, `invoice ${id}: one reminder`);
  }
  t.equal(await agingTotal(s, '2024-04-10'), await controlBalance(s, '2024-04-10'), 'aging = control account');
});

t.test('a run waits for a level another run holds, and leaves it to that run', async (t) => {
  const s = await arapSetup(t);
  const [first, second] = [await invoice(s.api, s.parties.customer.id), await invoice(s.api, s.parties.customer.id)];
  await setLevels(s.api);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let claimed!: () => void;
  const held = new Promise<void>((resolve) => {
    claimed = resolve;
  });
  // another run, not committed yet, holding the first invoice's level 1
  const other = s.q(async (tx) => {
    const [r] = await tx('dunning_runs').insert({ company_id: s.co.company.id, date: '2024-04-10' }).returning('id');
    await tx('dunning_items').insert({
      company_id: s.co.company.id,
      run_id: r!.id,
      invoice_id: first,
      level: 1,
      fee: '5',
      open: '100',
    });
    claimed();
    await released;
  });
  await held;
  let answered = false;
  const running = s.api('POST', '/arap/dunning/run', { date: '2024-04-10' }).then((r) => {
    answered = true;
    return r;
  });
  await new Promise((r) => setTimeout(r, 500));
  t.notOk(answered, 'the run waits for the other to commit');
  release();
  await other;
  const run = await running;
  t.equal(run.status, 200, JSON.stringify(run.body));
  t.same(
    run.body.items.map((i: { invoice_id: number }) => i.invoice_id),
    [second],
    'the level the other run holds is left to it',
  );
  t.equal((await feeTransactions(s)).length, 1, 'one fee: the second invoice');
});

/** What a refused run must leave as it found it. */
async function nothingWritten(t: Test, q: ArapSetup['q'], invoiceId: number) {
  const counts = await q(async (tx) => ({
    runs: Number((await tx('dunning_runs').count({ n: '*' }).first())?.n),
    items: Number((await tx('dunning_items').count({ n: '*' }).first())?.n),
    messages: Number((await tx('messages').where({ transaction_id: invoiceId }).count({ n: '*' }).first())?.n),
    audit: Number((await tx('audit_log').where({ entity: 'dunning_run' }).count({ n: '*' }).first())?.n),
  }));
  t.same(counts, { runs: 0, items: 0, messages: 0, audit: 0 }, 'no run, level, message or audit entry');
  t.same(await feeTransactions({ q }), [], 'no fee booked');
}

t.test(
  'a run refused in the middle writes nothing: a fee in a closed period, after the e-mails are queued',
  async (t) => {
    const s = await arapSetup(t);
    const customer = await s.api('POST', '/arap/customer', { name: 'Muster AG', email: 'ar@muster.test' });
    const id = await invoice(s.api, customer.body.id as number);
    await setLevels(s.api);
    t.equal((await s.api('POST', '/system/close_books', { date: '2024-04-30' })).status, 200);
    const run = await s.api('POST', '/arap/dunning/run', { date: '2024-04-10' });
    t.equal(run.status, 422, JSON.stringify(run.body));
    t.equal(run.body.error.code, 'closed_period');
    t.equal(run.body.error.field, '/date');
    t.match(run.body.error.message, /reminder fee of invoice AR-\d+ cannot be booked/);
    await nothingWritten(t, s.q, id);
  },
);

t.test('a run refused in the middle writes nothing: the mail queue missing after the levels are claimed', async (t) => {
  // a ledger without mail worker whose mail queue (MAIL_QUEUE) does not exist yet: queueing the e-mails is a 503
  const config = testConfig({ mailQueue: `mail_unmade_${randomBytes(6).toString('hex')}` });
  const ledger = await startLedger({ config, mail: false, inbox: false, webhooks: false });
  t.teardown(() => ledger.close());
  const co = await createTestCompany({ ...ledger, config });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', { name: 'Beispiel GmbH', email: 'billing@beispiel.test' });
  const id = await invoice(api, customer.body.id as number);
  await setLevels(api);
  const q: ArapSetup['q'] = (fn) => withTenant(ledger.db, co.company.id, fn);
  const run = await api('POST', '/arap/dunning/run', { date: '2024-04-10' });
  t.equal(run.status, 503, JSON.stringify(run.body));
  t.equal(run.body.error.code, 'unavailable');
  await nothingWritten(t, q, id);
  const dry = await api('POST', '/arap/dunning/run', { date: '2024-04-10', dry_run: true });
  t.match(dry.body.items, [{ invoice_id: id, level: 1 }], 'the level is still to send');
});
