import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

/**
 * Fiscal years of any shape (docs/year-end.md "Fiscal years"): a July–June company with a short first year, a long
 * first year, and the settings' refusals. The years, closing, the reports' default periods and the depreciation
 * periods follow the company's year.
 */

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function setup(t: Teardown) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const post = async (transdate: string, debit: string, credit: string, amount: number) => {
    const r = await api('POST', '/gl/transactions', {
      transdate,
      pending: '0',
      lines: [
        { account: debit, debit: amount },
        { account: credit, credit: amount },
      ],
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body;
  };
  return { api, post };
}

t.test('a July–June company closes its short first year and opens the next with the right balances', async (t) => {
  const { api, post } = await setup(t);
  await post('2025-02-01', '1020', '2800', 5000);
  await post('2025-03-10', '1020', '3400', 1000);
  await post('2025-06-20', '6000', '1020', 300);
  await post('2025-08-01', '1020', '3400', 200);

  const misfit = await api('POST', '/system/company', {
    fiscal_year_start: '07-01',
    first_fiscal_year_end: '2025-05-31',
  });
  t.equal(misfit.status, 400, 'a first year that does not end before a fiscal year start');
  t.equal(misfit.body.error.field, '/first_fiscal_year_end');
  t.equal((await api('POST', '/system/company', { fiscal_year_start: '07-15' })).status, 400, 'not MM-01');
  t.equal((await api('GET', '/system/company')).body.fiscal_year_start, '01-01', 'nothing written');

  const set = await api('POST', '/system/company', { fiscal_year_start: '07-01', first_fiscal_year_end: '2025-06-30' });
  t.equal(set.status, 200, JSON.stringify(set.body));
  t.match(set.body, { fiscal_year_start: '07-01', first_fiscal_year_end: '2025-06-30' });

  const years = (await api('GET', '/system/fiscal_years')).body;
  t.same(years.slice(0, 2), [
    { year: 2025, start: '2025-02-01', end: '2025-06-30', closed: false },
    { year: 2026, start: '2025-07-01', end: '2026-06-30', closed: false },
  ]);
  t.equal(years.length >= 2, true);

  const first = (await api('GET', '/reports/income_statement?to=2025-06-30')).body;
  t.match(first, { from: '2025-02-01', to: '2025-06-30', net_income: 700 }, 'the first year to date');
  const second = (await api('GET', '/reports/income_statement?to=2025-08-31')).body;
  t.match(second, { from: '2025-07-01', to: '2025-08-31', net_income: 200 }, 'the second year starts in July');
  t.match((await api('GET', '/reports/trial_balance?to=2025-12-31')).body, { from: '2025-07-01' });

  const closed = await api('POST', '/system/fiscal_years/2025/close');
  t.equal(closed.status, 200, JSON.stringify(closed.body));
  t.match(closed.body, { year: 2025, start: '2025-02-01', end: '2025-06-30', closed: true });
  const entry = (await api('GET', `/gl/transactions/${closed.body.closing_entry_id}`)).body;
  t.match(entry, { reference: 'CLOSE-2025', transdate: '2025-06-30', closing: true, fiscalYear: 2025 });
  t.same(
    entry.lines.map((l: { account: string; debit: number; credit: number }) => [l.account, l.debit, l.credit]),
    [
      ['3400', 1000, 0],
      ['6000', 0, 300],
      ['2970', 0, 700],
    ],
  );
  t.same((await api('GET', '/system/close_books')).body, { date: '2025-06-30' });

  const sheet = (await api('GET', '/reports/balance_sheet?date=2025-08-31')).body;
  t.match(sheet, {
    fiscal_year_start: '2025-07-01',
    total_assets: 5900,
    total_liabilities_and_equity: 5900,
    equity: { current_year_result: -200, earlier_years_result: 0 },
  });
  t.same(
    sheet.equity.accounts.map((a: { accno: string; amount: number }) => [a.accno, a.amount]),
    [
      ['2800', -5000],
      ['2970', -700],
    ],
    'the first year result carried to retained earnings, the new year opens with it',
  );
  const opening = (await api('GET', '/reports/trial_balance?from=2025-07-01&to=2025-07-01')).body;
  const openingOf = (accno: string) => opening.accounts.find((a: { accno: string }) => a.accno === accno)?.opening ?? 0;
  t.equal(openingOf('1020'), 5700);
  t.equal(openingOf('3400'), 0, 'income accounts open the new year at zero');
  t.equal(openingOf('2970'), -700);

  const move = await api('POST', '/system/company', { fiscal_year_start: '01-01', first_fiscal_year_end: null });
  t.equal(move.status, 409, 'closed years keep their shape');

  // the second year ended on 2026-06-30; closing it takes only its own lines
  const next = await api('POST', '/system/fiscal_years/2026/close');
  t.equal(next.status, 200, JSON.stringify(next.body));
  t.match(next.body, { year: 2026, start: '2025-07-01', end: '2026-06-30' });
  const nextEntry = (await api('GET', `/gl/transactions/${next.body.closing_entry_id}`)).body;
  t.match(nextEntry, { transdate: '2026-06-30', reference: 'CLOSE-2026' });
  t.same(
    nextEntry.lines.map((l: { account: string; debit: number; credit: number }) => [l.account, l.debit, l.credit]),
    [
      ['3400', 200, 0],
      ['2970', 0, 200],
    ],
  );

  // reopening goes back year by year with the company's year ends
  const reopen = await api('POST', '/system/close_books', { date: '2025-06-30', reopen: true });
  t.equal(reopen.status, 200, JSON.stringify(reopen.body));
  const after = (await api('GET', '/system/fiscal_years')).body;
  t.match(after.slice(0, 2), [
    { year: 2025, closed: true },
    { year: 2026, closed: false },
  ]);
});

t.test('a long first year: up to 23 months from the first posted line, never more', async (t) => {
  const { api, post } = await setup(t);
  await post('2025-02-10', '1020', '3400', 100);
  await post('2026-03-01', '1020', '3400', 50);

  const long = await api('POST', '/system/company', { first_fiscal_year_end: '2026-12-31' });
  t.equal(long.status, 200, '2025-02 to 2026-12: 23 months');
  const years = (await api('GET', '/system/fiscal_years')).body;
  t.same(years[0], { year: 2026, start: '2025-02-01', end: '2026-12-31', closed: false }, 'one year, no 2025');
  t.equal((await api('POST', '/system/fiscal_years/2025/close')).status, 404, 'no year 2025');
  t.match((await api('GET', '/reports/income_statement?to=2025-12-31')).body, {
    from: '2025-02-01',
    net_income: 100,
  });
  t.match((await api('GET', '/reports/income_statement?to=2026-06-30')).body, {
    from: '2025-02-01',
    net_income: 150,
  });

  const tooLong = await api('POST', '/system/company', { first_fiscal_year_end: '2027-12-31' });
  t.equal(tooLong.status, 400, '35 months');
  t.equal(tooLong.body.error.field, '/first_fiscal_year_end');
  t.match(tooLong.body.error.message, /more than 23/);
  t.equal((await api('GET', '/system/company')).body.first_fiscal_year_end, '2026-12-31', 'nothing written');
});

t.test('depreciation years and the asset schedule follow a July–June year', async (t) => {
  const { api, post } = await setup(t);
  await post('2025-07-15', '1500', '1020', 10000);
  t.equal((await api('POST', '/system/company', { fiscal_year_start: '07-01' })).status, 200);
  const asset = await api('POST', '/assets', {
    name: 'Delivery van',
    asset_account: '1500',
    expense_account: '6800',
    accumulated_account: '1509',
    acquired: '2025-07-15',
    cost: 10000,
    method: 'declining',
    rate: 0.4,
    frequency: 'year',
  });
  t.equal(asset.status, 201, JSON.stringify(asset.body));
  const december = await api('POST', '/assets/depreciation_run', { to: '2025-12-31' });
  t.equal(december.status, 200, JSON.stringify(december.body));
  t.same(december.body, { journal_id: null, assets: [] }, 'the fiscal year is not over in December');
  const june = await api('POST', '/assets/depreciation_run', { to: '2026-06-30' });
  t.match(june.body, { assets: [{ id: asset.body.id, amount: 4000 }] }, 'a whole year at 40 % on 30 June');
  const schedule = (await api('GET', '/reports/assets?to=2026-06-30')).body;
  t.match(schedule, { from: '2025-07-01', to: '2026-06-30' });
});
