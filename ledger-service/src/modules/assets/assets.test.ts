/**
 * Fixed assets over HTTP on a real ledger: the register's rules, depreciation runs (the 40 %
 * declining case: 6,000.00, 3,600.00, 2,160.00; a repeated run books nothing; a closed period
 * is refused and writes nothing), linear monthly depreciation, disposal with its loss, and the
 * asset schedule tying to the ledger.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('fixed assets: register, runs, disposal, schedule', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { currency: 'CHF' });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);

  // the purchase, booked as any purchase is
  const bought = await api('POST', '/gl/transactions', {
    transdate: '2024-01-10',
    pending: '0',
    lines: [
      { account: '1500', debit: 10000 },
      { account: '1020', credit: 10000 },
    ],
  });
  t.equal(bought.status, 201);
  const van = {
    name: 'Delivery van',
    asset_account: '1500',
    expense_account: '6800',
    accumulated_account: '1509',
    acquired: '2024-01-10',
    cost: 10000,
    method: 'declining',
    rate: 0.4,
    frequency: 'year',
  };
  for (const [bad, field] of [
    [{ ...van, method: 'linear' }, '/life_months'],
    [{ ...van, rate: undefined }, '/rate'],
    [{ ...van, residual: 10000 }, '/residual'],
    [{ ...van, expense_account: '1020' }, '/expense_account'],
    [{ ...van, asset_account: '9999' }, '/asset_account'],
  ] as const) {
    const res = await api('POST', '/assets', bad);
    t.equal(res.status, 400, field);
    t.equal(res.body.error.field, field);
  }
  t.equal((await api('GET', '/assets')).body.length, 0, 'the refusals wrote nothing');
  const created = await api('POST', '/assets', van);
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;

  const before = await api('POST', '/assets/depreciation_run', { to: '2024-06-30' });
  t.same(before.body, { journal_id: null, assets: [] }, 'no year ended yet');

  const bookValues = [];
  for (const year of [2024, 2025, 2026]) {
    const run = await api('POST', '/assets/depreciation_run', { to: `${year}-12-31` });
    t.equal(run.status, 200, JSON.stringify(run.body));
    t.ok(run.body.journal_id);
    bookValues.push((await api('GET', `/assets/${id}`)).body.book_value);
  }
  t.same(bookValues, [6000, 3600, 2160]);
  const again = await api('POST', '/assets/depreciation_run', { to: '2026-12-31' });
  t.same(again.body, { journal_id: null, assets: [] }, 'the third run again posts nothing');

  const schedule = await api('GET', '/reports/assets?from=2026-01-01&to=2026-12-31');
  t.equal(schedule.status, 200, JSON.stringify(schedule.body));
  t.same(
    schedule.body.totals,
    { opening: 3600, additions: 0, depreciation: 1440, disposals: 0, closing: 2160 },
    'the year 2026',
  );
  t.same(schedule.body.accounts, [{ account: '1500', schedule: 2160, ledger: 2160, difference: 0 }], 'ties');
  t.equal((await api('POST', `/assets/${id}`, { cost: 9000 })).status, 409, 'booked: terms fixed');
  t.equal((await api('POST', `/assets/${id}`, { name: 'Van' })).body.name, 'Van');
  t.equal((await api('DELETE', `/assets/${id}`)).status, 409);

  // closed period: refused, nothing written
  t.equal((await api('POST', '/system/close_books', { date: '2027-03-31' })).status, 200);
  const closed = await api('POST', '/assets/depreciation_run', { to: '2027-03-31' });
  t.equal(closed.status, 422);
  t.equal(closed.body.error.field, '/to');

  // a linear asset depreciated monthly, disposed of at a loss
  const laptop = await api('POST', '/assets', {
    name: 'Laptop',
    asset_account: '1520',
    expense_account: '6800',
    acquired: '2027-04-15',
    cost: 3600,
    method: 'linear',
    life_months: 36,
    frequency: 'month',
  });
  t.equal(laptop.status, 201);
  await api('POST', '/gl/transactions', {
    transdate: '2027-04-15',
    pending: '0',
    lines: [
      { account: '1520', debit: 3600 },
      { account: '1020', credit: 3600 },
    ],
  });
  const june = await api('POST', '/assets/depreciation_run', { to: '2027-06-30' });
  t.same(june.body.assets, [{ id: laptop.body.id, amount: 300 }], 'April to June, 100.00 a month');
  const sold = await api('POST', `/assets/${laptop.body.id}/dispose`, {
    date: '2027-06-30',
    proceeds: 3000,
    account: '1020',
  });
  t.equal(sold.status, 200, JSON.stringify(sold.body));
  t.same([sold.body.book_value, sold.body.proceeds, sold.body.gain], [3300, 3000, -300]);
  t.equal(
    (await api('POST', `/assets/${laptop.body.id}/dispose`, { date: '2027-07-01', proceeds: 1, account: '1020' }))
      .status,
    409,
  );
  const entry = await api('GET', `/gl/transactions/${sold.body.journal_id}`);
  t.same(
    entry.body.lines.map((l: any) => [l.account, l.debit, l.credit]),
    [
      ['1520', 0, 3300],
      ['1020', 3000, 0],
      ['6800', 300, 0],
    ],
    'direct depreciation: the book value leaves the asset account, the loss is an expense',
  );
  const later = await api('GET', '/reports/assets?from=2027-01-01&to=2027-12-31');
  const row = later.body.assets.find((a: any) => a.id === laptop.body.id);
  t.same([row.opening, row.additions, row.depreciation, row.disposals, row.closing], [0, 3600, 300, 3300, 0]);
  for (const a of later.body.accounts) t.equal(a.difference, 0, `${a.account} ties`);
  t.equal((await api('POST', '/assets/depreciation_run', { to: '2027-12-31' })).body.assets.length, 1, 'only the van');
});
