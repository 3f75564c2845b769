/**
 * Recurring invoices (docs/invoices.md "Recurring invoices") over HTTP on real Postgres, with
 * two ledger processes on one database running the job: with the clock (LEDGER_CLOCK) moved three months,
 * exactly three invoices exist, each dated on its own day, posted, e-mailed once and naming its period in the
 * customer's language; a changed template changes only later invoices; draft and post modes; pause skips
 * the dates that pass, resume goes on from today; the refusals write nothing; another company sees none of it.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';

type Ledger = Awaited<ReturnType<typeof startTestLedger>>;

async function setup(t: Parameters<typeof startTestLedger>[0]) {
  const clock = '2026-01-01T06:00:00Z';
  const a = await startTestLedger(t, { clock });
  const b = await startTestLedger(t, { clock });
  const co = await createTestCompany(a, { swissInvoicing: true });
  const api = apiClient(a.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', {
    name: 'Client SA',
    language: 'fr',
    email: 'compta@client.example',
  });
  if (customer.status !== 201) throw new Error(JSON.stringify(customer.body));
  const body = (extra: Record<string, unknown> = {}) => ({
    template: {
      customer_id: customer.body.id,
      description: 'Loyer bureau 2',
      items: [
        {
          description: 'Loyer {month} {year}',
          quantity: 1,
          price: 1500,
          account: CHART.customer.line,
          taxAccount: '2200',
        },
      ],
    },
    schedule: { every: 1, unit: 'month', day: 1, start: '2026-01-01' },
    mode: 'post_and_email',
    ...extra,
  });
  const setClock = (at: string) => {
    a.config.clock = at;
    b.config.clock = at;
  };
  // both processes run a round at once, as two replicas do
  const bothRun = () => Promise.all([a, b].map((l: Ledger) => l.recurring.runDue({ companyIds: [co.company.id] })));
  const invoices = async (recurringId: number) => {
    const list = await api('GET', '/arap/invoices/customer?limit=1000');
    const ids = (list.body as { id: number }[]).map((r) => r.id);
    const reads = await Promise.all(ids.map(async (id) => (await api('GET', `/arap/invoice/customer/${id}`)).body));
    return reads
      .filter((r) => r.recurring_id === recurringId)
      .sort((x, y) => String(x.invDate).localeCompare(String(y.invDate)));
  };
  return { a, b, co, api, body, setClock, bothRun, invoices, customerId: customer.body.id as number };
}

t.test('two processes, the clock moved three months: three invoices, each made and e-mailed once', async (t) => {
  const s = await setup(t);
  const created = await s.api('POST', '/arap/recurring/customer', s.body());
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const read = (await s.api('GET', `/arap/recurring/customer/${id}`)).body;
  t.match(read, {
    id,
    status: 'active',
    customer_id: s.customerId,
    name: 'Client SA',
    mode: 'post_and_email',
    next_date: '2026-01-01',
    last_date: null,
    invoice_count: 0,
    grossAmount: 1621.5,
    currency: 'CHF',
  });
  const preview = await s.api('GET', `/arap/recurring/customer/${id}/preview?count=3`);
  t.equal(preview.status, 200);
  t.same(preview.body, [
    { date: '2026-01-01', grossAmount: 1621.5 },
    { date: '2026-02-01', grossAmount: 1621.5 },
    { date: '2026-03-01', grossAmount: 1621.5 },
  ]);

  await s.bothRun();
  t.equal((await s.invoices(id)).length, 1, 'the first date, made by one of the two');
  s.setClock('2026-03-15T06:00:00Z');
  const made = await s.bothRun();
  t.equal(made[0]! + made[1]!, 2, 'the two missed dates, between both processes');
  await s.bothRun();
  const invoices = await s.invoices(id);
  t.same(
    invoices.map((i) => i.invDate),
    ['2026-01-01', '2026-02-01', '2026-03-01'],
    'exactly three, each on its own day',
  );
  for (const invoice of invoices) {
    t.equal(invoice.status, 'posted');
    t.equal(invoice.grossAmount, 1621.5);
    t.equal(invoice.emails.length, 1, `invoice of ${invoice.invDate} e-mailed once`);
  }
  t.same(
    invoices.map((i) => i.items[0].description),
    ['Loyer janvier 2026', 'Loyer février 2026', 'Loyer mars 2026'],
    "the period in the customer's language",
  );
  t.match((await s.api('GET', `/arap/recurring/customer/${id}`)).body, {
    next_date: '2026-04-01',
    last_date: '2026-03-01',
    invoice_count: 3,
    last_error: null,
  });

  // a new price: only the invoices made from now on follow it
  const changed = s.body();
  (changed.template.items[0] as { price: number }).price = 1600;
  const updated = await s.api('POST', `/arap/recurring/customer/${id}`, changed);
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.match(updated.body, { next_date: '2026-04-01', grossAmount: 1729.6 });
  s.setClock('2026-04-01T00:30:00Z');
  await s.bothRun();
  const after = await s.invoices(id);
  t.same(
    after.map((i) => i.grossAmount),
    [1621.5, 1621.5, 1621.5, 1729.6],
    `earlier invoices unchanged: ${JSON.stringify(after.map((i) => [i.invDate, i.grossAmount]))} ${JSON.stringify(
      (await s.api('GET', `/arap/recurring/customer/${id}`)).body,
    )}`,
  );

  // deleting it keeps the invoices, which no longer name it
  t.equal((await s.api('DELETE', `/arap/recurring/customer/${id}`)).status, 204);
  t.equal((await s.api('GET', `/arap/recurring/customer/${id}`)).status, 404);
  const kept = await s.api('GET', `/arap/invoice/customer/${after[0].id}`);
  t.equal(kept.status, 200);
  t.equal(kept.body.recurring_id, undefined);
});

t.test('draft and post modes; quarterly on the last day', async (t) => {
  const s = await setup(t);
  const draft = await s.api('POST', '/arap/recurring/customer', s.body({ mode: 'draft' }));
  const post = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ mode: 'post', schedule: { every: 1, unit: 'quarter', day: 'last', start: '2026-01-01' } }),
  );
  t.equal(post.status, 201, JSON.stringify(post.body));
  s.setClock('2026-07-01T12:00:00Z');
  await s.bothRun();
  const drafts = await s.invoices(draft.body.id);
  t.equal(drafts.length, 7, 'January to July');
  t.ok(
    drafts.every((i) => i.status === 'draft' && i.emails.length === 0),
    'drafts, not e-mailed',
  );
  const posted = await s.invoices(post.body.id);
  t.same(
    posted.map((i) => [i.invDate, i.status, i.emails.length]),
    [
      ['2026-01-31', 'posted', 0],
      ['2026-04-30', 'posted', 0],
    ],
    "quarters counted from the start's month",
  );
});

t.test('pause skips the dates that pass; resume goes on from today', async (t) => {
  const s = await setup(t);
  const id = (await s.api('POST', '/arap/recurring/customer', s.body({ mode: 'draft' }))).body.id as number;
  await s.bothRun();
  const paused = await s.api('POST', `/arap/recurring/customer/${id}/pause`);
  t.equal(paused.status, 200, JSON.stringify(paused.body));
  t.equal(paused.body.status, 'paused');
  t.same((await s.api('GET', `/arap/recurring/customer/${id}/preview`)).body, [], 'no dates while paused');
  t.same(
    (await s.api('GET', '/arap/recurring/customer?status=paused')).body.map((r: { id: number }) => r.id),
    [id],
  );
  s.setClock('2026-05-10T08:00:00Z');
  await s.bothRun();
  t.equal((await s.invoices(id)).length, 1, 'nothing made while paused');
  t.equal((await s.api('POST', `/arap/recurring/customer/${id}/pause`)).status, 200, 'pausing twice is harmless');
  const resumed = await s.api('POST', `/arap/recurring/customer/${id}/resume`);
  t.equal(resumed.status, 200, JSON.stringify(resumed.body));
  t.match(resumed.body, { status: 'active', next_date: '2026-06-01' });
  t.equal((await s.api('POST', `/arap/recurring/customer/${id}/resume`)).status, 409, 'only a paused one resumes');
  s.setClock('2026-06-01T08:00:00Z');
  await s.bothRun();
  t.same(
    (await s.invoices(id)).map((i) => i.invDate),
    ['2026-01-01', '2026-06-01'],
  );
});

t.test('refusals write nothing: day 31, an end before the start, a bad template, unknown ids', async (t) => {
  const s = await setup(t);
  const day31 = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ schedule: { every: 1, unit: 'month', day: 31, start: '2026-01-01' } }),
  );
  t.equal(day31.status, 400, JSON.stringify(day31.body));
  t.match(day31.body.error.field, /^\/schedule\/day/);
  const backwards = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ schedule: { every: 1, unit: 'month', day: 1, start: '2026-05-01', end: '2026-04-01' } }),
  );
  t.equal(backwards.status, 400);
  t.equal(backwards.body.error.field, '/schedule/end');
  const badUnit = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ schedule: { every: 1, unit: 'week', day: 1, start: '2026-01-01' } }),
  );
  t.equal(badUnit.status, 400);
  const template = s.body().template;
  const badAccount = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ template: { ...template, items: [{ description: 'x', quantity: 1, price: 1, account: '9999' }] } }),
  );
  t.equal(badAccount.status, 400, JSON.stringify(badAccount.body));
  t.match(badAccount.body.error.field, /^\/template\/items\/0/);
  const noCustomer = await s.api(
    'POST',
    '/arap/recurring/customer',
    s.body({ template: { ...template, customer_id: 999999 } }),
  );
  t.ok(noCustomer.status >= 400 && noCustomer.status < 500, `unknown customer: ${noCustomer.status}`);
  t.equal((await s.api('GET', '/arap/recurring/customer')).body.length, 0, 'nothing stored');
  t.equal((await s.api('GET', '/arap/invoices/customer')).body.length, 0, 'no invoice left behind');
  t.equal((await s.api('GET', '/arap/recurring/customer/999999')).status, 404);
  t.equal((await s.api('POST', '/arap/recurring/customer/999999/pause')).status, 404);
  t.equal((await s.api('GET', '/arap/recurring/customer/999999/preview?count=100')).status, 400, 'count ≤ 60');
});

t.test("another company neither sees nor runs a company's recurring invoices", async (t) => {
  const s = await setup(t);
  const id = (await s.api('POST', '/arap/recurring/customer', s.body({ mode: 'post' }))).body.id as number;
  const other = await createTestCompany(s.a, { swissInvoicing: true });
  const otherApi = apiClient(s.a.url, other.dataset, other.apiKey);
  t.equal((await otherApi('GET', `/arap/recurring/customer/${id}`)).status, 404);
  t.equal((await otherApi('POST', `/arap/recurring/customer/${id}/pause`)).status, 404);
  t.equal((await otherApi('DELETE', `/arap/recurring/customer/${id}`)).status, 404);
  t.same((await otherApi('GET', '/arap/recurring/customer')).body, []);
  t.equal(await s.a.recurring.runDue({ companyIds: [other.company.id] }), 0, "the other company's round makes none");
  t.equal((await s.invoices(id)).length, 0);
  await s.bothRun();
  t.equal((await s.invoices(id)).length, 1);
  t.same((await otherApi('GET', '/arap/invoices/customer')).body, []);
});

t.test('a date in a closed period makes nothing and says why; a later start goes on', async (t) => {
  const s = await setup(t);
  const id = (await s.api('POST', '/arap/recurring/customer', s.body({ mode: 'post' }))).body.id as number;
  t.equal((await s.api('POST', '/system/close_books', { date: '2026-01-31' })).status, 200);
  s.setClock('2026-02-15T06:00:00Z');
  await s.bothRun();
  t.equal((await s.invoices(id)).length, 0, 'no invoice in the closed January, and none after it');
  const stuck = (await s.api('GET', `/arap/recurring/customer/${id}`)).body;
  t.match(stuck, { next_date: '2026-01-01', invoice_count: 0 });
  t.match(stuck.last_error, /closed/);
  const moved = await s.api(
    'POST',
    `/arap/recurring/customer/${id}`,
    s.body({ mode: 'post', schedule: { every: 1, unit: 'month', day: 1, start: '2026-02-01' } }),
  );
  t.equal(moved.status, 200, JSON.stringify(moved.body));
  t.match(moved.body, { next_date: '2026-02-01', last_error: null });
  await s.bothRun();
  t.same(
    (await s.invoices(id)).map((i) => i.invDate),
    ['2026-02-01'],
  );
});
