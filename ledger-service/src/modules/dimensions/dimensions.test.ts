/**
 * Dimensions over HTTP on a real ledger: the catalogue (create, rename, deactivate, values),
 * journal lines naming them (refused when unknown or inactive, nothing written), and the
 * trial balance and income statement narrowed to a value or in columns by value.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('dimensions: catalogue, postings and reports', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { currency: 'CHF' });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);

  const created = await api('POST', '/system/dimensions', {
    code: 'cc',
    name: 'Cost centre',
    values: [
      { code: 'admin', name: 'Administration' },
      { code: 'sales', name: 'Sales' },
    ],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  t.match(created.headers.get('location'), new RegExp(`/system/dimensions/${id}$`));
  t.equal((await api('POST', '/system/dimensions', { code: 'cc', name: 'Again' })).status, 409, 'code taken');

  const value = await api('POST', `/system/dimensions/${id}/values`, { code: 'it', name: 'IT' });
  t.equal(value.status, 201);
  t.equal((await api('POST', `/system/dimensions/${id}/values`, { code: 'it', name: 'x' })).status, 409);
  const renamed = await api('POST', `/system/dimensions/${id}`, { name: 'Cost centres' });
  t.equal(renamed.status, 200);
  t.equal(renamed.body.name, 'Cost centres');
  t.equal(renamed.body.code, 'cc');
  t.same(
    renamed.body.values.map((v: any) => v.code),
    ['admin', 'it', 'sales'],
  );
  const off = await api('POST', `/system/dimensions/${id}/values/${value.body.id}`, { active: false });
  t.same(off.body, { id: value.body.id, code: 'it', name: 'IT', active: false });
  t.equal((await api('POST', `/system/dimensions/${id}/values/999999`, { active: false })).status, 404);
  t.equal((await api('GET', '/system/dimensions/999999')).status, 404);
  const list = await api('GET', '/system/dimensions');
  t.equal(list.body.length, 1);

  const entry = (dims: Record<string, string> | undefined, amount: number, date = '2026-03-10') => ({
    transdate: date,
    pending: '0',
    lines: [
      { account: '6000', debit: amount, ...(dims ? { dimensions: dims } : {}) },
      { account: '1020', credit: amount },
    ],
  });
  const before = await api('GET', '/gl/transactions');
  for (const [dims, field] of [
    [{ project: 'x' }, '/lines/0/dimensions/project'],
    [{ cc: 'nope' }, '/lines/0/dimensions/cc'],
    [{ cc: 'it' }, '/lines/0/dimensions/cc'],
  ] as const) {
    const res = await api('POST', '/gl/transactions', entry(dims, 10));
    t.equal(res.status, 400, JSON.stringify(dims));
    t.equal(res.body.error.field, field, res.body.error.message);
  }
  t.equal((await api('GET', '/gl/transactions')).body.length, before.body.length, 'the refusals wrote nothing');

  const posted = await api('POST', '/gl/transactions', entry({ cc: 'sales' }, 100));
  t.equal(posted.status, 201, JSON.stringify(posted.body));
  t.equal((await api('POST', '/gl/transactions', entry({ cc: 'admin' }, 30))).status, 201);
  t.equal((await api('POST', '/gl/transactions', entry(undefined, 7))).status, 201);
  const read = await api('GET', `/gl/transactions/${posted.body.id}`);
  t.same(read.body.lines[0].dimensions, { cc: 'sales' });
  t.notOk('dimensions' in read.body.lines[1], 'a line without dimensions shows none');

  // a reversal keeps the dimensions: sales nets to zero
  const reversed = await api('POST', `/gl/transactions/${posted.body.id}/reverse`, { date: '2026-03-11' });
  t.equal(reversed.status, 201, JSON.stringify(reversed.body));
  t.equal((await api('POST', '/gl/transactions', entry({ cc: 'sales' }, 55))).status, 201);

  const q = 'from=2026-01-01&to=2026-12-31';
  const sales = await api('GET', `/reports/income_statement?${q}&dimension=cc&value=sales`);
  t.equal(sales.status, 200, JSON.stringify(sales.body));
  t.equal(sales.body.net_income, -55);
  t.same(sales.body.dimension, { code: 'cc', name: 'Cost centres', value: 'sales' });

  const columns = await api('GET', `/reports/income_statement?${q}&dimension=cc`);
  t.equal(columns.status, 200);
  t.same(
    columns.body.dimension.columns.map((c: any) => c.value),
    ['admin', 'it', 'sales', null],
  );
  t.equal(columns.body.net_income, -92);
  t.same(
    columns.body.columns.map((c: any) => c.net_income),
    [-30, 0, -55, -7],
  );
  const expense = columns.body.expenses.accounts.find((a: any) => a.accno === '6000');
  t.same(
    expense.columns.map((c: any) => c.amount),
    [30, 0, 55, 7],
  );

  const tb = await api('GET', `/reports/trial_balance?${q}&dimension=cc`);
  t.equal(tb.status, 200);
  const bank = tb.body.accounts.find((a: any) => a.accno === '1020');
  t.same(
    bank.columns.map((c: any) => c.closing),
    [0, 0, 0, -92],
    'the bank lines carry no cost centre',
  );

  // AR/AP lines and invoice items: stored, read back, refused when unknown (nothing written)
  const customer = (await api('POST', '/arap/customer', { name: 'Globex' })).body.id;
  const line = (dimensions: Record<string, string>) => ({
    customer_id: customer,
    invDate: '2026-04-01',
    lines: [{ account: '3400', amount: 200, dimensions }],
    pending: '0',
  });
  const refused = await api('POST', '/arap/transaction/customer', line({ cc: 'nope' }));
  t.equal(refused.status, 400);
  t.equal(refused.body.error.field, '/lines/0/dimensions/cc');
  const doc = await api('POST', '/arap/transaction/customer', line({ cc: 'sales' }));
  t.equal(doc.status, 201, JSON.stringify(doc.body));
  t.same((await api('GET', `/arap/transaction/customer/${doc.body.id}`)).body.lines[0].dimensions, { cc: 'sales' });
  const invoice = await api('POST', '/arap/invoice/customer', {
    customer_id: customer,
    invDate: '2026-04-02',
    items: [{ description: 'Advice', quantity: 2, price: 50, account: '3400', dimensions: { cc: 'admin' } }],
    pending: '0',
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  t.same((await api('GET', `/arap/invoice/customer/${invoice.body.id}`)).body.items[0].dimensions, { cc: 'admin' });
  const badItem = await api('POST', '/arap/invoice/customer', {
    customer_id: customer,
    invDate: '2026-04-02',
    items: [{ description: 'Advice', quantity: 1, price: 50, account: '3400', dimensions: { project: 'x' } }],
  });
  t.equal(badItem.status, 400);
  t.equal(badItem.body.error.field, '/items/0/dimensions/project');
  const revenue = await api('GET', `/reports/income_statement?${q}&dimension=cc`);
  const income = revenue.body.income.accounts.find((a: any) => a.accno === '3400');
  t.same(
    income.columns.map((c: any) => c.amount),
    [-100, 0, -200, 0],
    'the receivable and the revenue split by the lines',
  );

  for (const bad of ['dimension=project', 'dimension=cc&value=nope', 'value=sales']) {
    const res = await api('GET', `/reports/trial_balance?${q}&${bad}`);
    t.equal(res.status, 400, bad);
  }
});
