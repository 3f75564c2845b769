import t from 'tap';
import { withTenant, type Tx } from '../../db/knex.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

/** Fiscal years: the list, closing a year to retained earnings, reopening it through close_books. */

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function setup(t: Teardown) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);
  /**
   * Σ ledger lines per account from `from` to `to`; `closing: false` leaves closing entries out (as the income
   * statement).
   */
  const balances = (from: string, to: string, opts: { closing?: boolean } = {}) =>
    q(async (tx) => {
      const query = tx('ledger_entries as e')
        .join('accounts as a', 'a.id', 'e.account_id')
        .whereBetween('e.date', [from, to]);
      if (opts.closing === false) query.where('e.closing', false);
      const rows = (await query.groupBy('a.accno').select('a.accno', tx.raw('sum(e.amount)::text as s'))) as {
        accno: string;
        s: string;
      }[];
      return Object.fromEntries(rows.map((r) => [r.accno, Number(r.s)]));
    });
  const customer = (await api('POST', '/arap/customer', { name: 'Globex' })).body;
  const vendor = (await api('POST', '/arap/vendor', { name: 'Acme' })).body;
  /** 2023: revenue 1000 (3400), expenses 300 (6000) + 120 (journal on 6500), a balance-sheet-only entry */
  const book2023 = async () => {
    for (const r of [
      await api('POST', '/arap/transaction/customer', {
        customer_id: customer.id,
        invDate: '2023-05-10',
        pending: '0',
        lines: [{ account: '3400', amount: 1000 }],
      }),
      await api('POST', '/arap/transaction/vendor', {
        vendor_id: vendor.id,
        invDate: '2023-06-10',
        pending: '0',
        lines: [{ account: '6000', amount: 300 }],
      }),
      await api('POST', '/gl/transactions', {
        transdate: '2023-12-31',
        pending: '0',
        lines: [
          { account: '6500', debit: 120 },
          { account: '1020', credit: 120 },
        ],
      }),
      await api('POST', '/gl/transactions', {
        transdate: '2023-03-01',
        pending: '0',
        lines: [
          { account: '1020', debit: 5000 },
          { account: '2800', credit: 5000 },
        ],
      }),
    ]) {
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  };
  return { ledger, co, api, q, balances, book2023, customer, vendor };
}

const thisYear = new Date().getUTCFullYear();

t.test(
  'closing a year books its result to retained earnings with one closing entry and closes the books',
  async (t) => {
    const s = await setup(t);
    const empty = await s.api('GET', '/system/fiscal_years');
    t.same(
      empty.body,
      [{ year: thisYear, start: `${thisYear}-01-01`, end: `${thisYear}-12-31`, closed: false }],
      'the current year without postings',
    );
    await s.book2023();
    // a posting in the next year, which closing 2023 must not touch
    await s.api('POST', '/gl/transactions', {
      transdate: '2024-01-05',
      pending: '0',
      lines: [
        { account: '6000', debit: 50 },
        { account: '1020', credit: 50 },
      ],
    });

    const years = await s.api('GET', '/system/fiscal_years');
    t.equal(years.status, 200);
    t.same(
      years.body.map((y: { year: number }) => y.year),
      Array.from({ length: thisYear - 2023 + 1 }, (_, i) => 2023 + i),
      'from the first posted year to the current one',
    );
    t.equal(years.headers.get('x-total-count'), String(thisYear - 2023 + 1));
    t.match(years.body[0], { year: 2023, start: '2023-01-01', end: '2023-12-31', closed: false });

    const closed = await s.api('POST', '/system/fiscal_years/2023/close');
    t.equal(closed.status, 200, JSON.stringify(closed.body));
    t.match(closed.body, { year: 2023, start: '2023-01-01', end: '2023-12-31', closed: true });
    const entry = (await s.api('GET', `/gl/transactions/${closed.body.closing_entry_id}`)).body;
    t.match(entry, {
      reference: 'CLOSE-2023',
      transdate: '2023-12-31',
      status: 'posted',
      closing: true,
      fiscalYear: 2023,
      currency: 'CHF',
    });
    t.same(
      entry.lines.map((l: { account: string; debit: number; credit: number }) => [l.account, l.debit, l.credit]),
      [
        ['3400', 1000, 0],
        ['6000', 0, 300],
        ['6500', 0, 120],
        ['2970', 0, 580],
      ],
      'income and expense accounts cleared, the profit of 580 credited to retained earnings',
    );

    const year = await s.balances('2023-01-01', '2023-12-31');
    t.equal(year['3400'], 0, 'income nets to zero for the closed year');
    t.equal(year['6000'], 0);
    t.equal(year['6500'], 0);
    t.equal(year['2970'], -580);
    t.equal(year['1020'], 4880, 'balance-sheet accounts untouched');
    const withoutClosing = await s.balances('2023-01-01', '2023-12-31', { closing: false });
    t.equal(
      withoutClosing['3400'],
      -1000,
      'without the closing entry (the income statement) the result is still there',
    );
    t.notOk('2970' in withoutClosing);
    t.equal((await s.balances('2024-01-01', '2024-12-31'))['6000'], 50, 'the next year untouched');

    t.same(
      (await s.api('GET', '/system/close_books')).body,
      { date: '2023-12-31' },
      'the books are closed up to the year end',
    );
    const late = await s.api('POST', '/gl/transactions', {
      transdate: '2023-12-31',
      lines: [
        { account: '6000', debit: 1 },
        { account: '1020', credit: 1 },
      ],
    });
    t.equal(late.status, 422);
    t.match((await s.api('GET', '/system/fiscal_years')).body[0], {
      year: 2023,
      closed: true,
      closing_entry_id: closed.body.closing_entry_id,
    });

    const again = await s.api('POST', '/system/fiscal_years/2023/close');
    t.equal(again.status, 409, 'an already closed year');
    t.match(again.body.error.message, /already closed/);
    const future = await s.api('POST', `/system/fiscal_years/${thisYear + 1}/close`);
    t.equal(future.status, 409, 'a year not over yet');
    t.equal((await s.api('POST', '/system/fiscal_years/12/close')).status, 404, 'not a year');

    const closingLines = (await s.api('GET', '/gl/ledger?account=3400&from=2023-12-31&to=2023-12-31')).body.lines;
    t.match(closingLines, [{ closing: true, debit: 1000, source: { kind: 'journal_entry', number: 'CLOSE-2023' } }]);

    // the closing entry is changed only by reopening
    for (const [method, path] of [
      ['POST', `/gl/transactions/${entry.id}`],
      ['DELETE', `/gl/transactions/${entry.id}`],
      ['POST', `/gl/transactions/${entry.id}/reverse`],
    ] as const) {
      const r = await s.api(
        method,
        path,
        method === 'POST' && !path.endsWith('reverse')
          ? {
              transdate: '2023-12-31',
              lines: [
                { account: '6000', debit: 1 },
                { account: '1020', credit: 1 },
              ],
            }
          : undefined,
      );
      t.equal(r.status, 409, `${method} ${path}`);
    }
    const audit = await s.q((tx) =>
      tx('audit_log').where({ entity: 'fiscal_year', entity_id: '2023' }).select('action', 'details'),
    );
    t.match(audit, [
      {
        action: 'close',
        details: { closing_entry_id: entry.id, result: 580, closed_until: '2023-12-31', previous: null },
      },
    ]);
  },
);

t.test(
  'reopening (close_books back with reopen) reverses the closing entry; closing again books a new one',
  async (t) => {
    const s = await setup(t);
    await s.book2023();
    const first = (await s.api('POST', '/system/fiscal_years/2023/close')).body;
    const back = await s.api('POST', '/system/close_books', { date: '2023-06-30', reopen: true });
    t.equal(back.status, 200, JSON.stringify(back.body));
    const original = (await s.api('GET', `/gl/transactions/${first.closing_entry_id}`)).body;
    t.equal(original.status, 'reversed');
    const reversal = (await s.api('GET', `/gl/transactions/${original.reversedBy}`)).body;
    t.match(reversal, {
      transdate: '2023-12-31',
      status: 'posted',
      closing: true,
      fiscalYear: 2023,
      reversalOf: first.closing_entry_id,
    });
    t.match((await s.api('GET', '/system/fiscal_years')).body[0], { year: 2023, closed: false });
    t.notOk('closing_entry_id' in (await s.api('GET', '/system/fiscal_years')).body[0]);
    const year = await s.balances('2023-01-01', '2023-12-31');
    t.equal(year['3400'], -1000, 'the result is back on the income accounts');
    t.equal(year['2970'], 0, 'and off retained earnings');
    t.equal(
      (
        await s.api('POST', '/gl/transactions', {
          transdate: '2023-07-01',
          pending: '0',
          lines: [
            { account: '6000', debit: 20 },
            { account: '1020', credit: 20 },
          ],
        })
      ).status,
      201,
      'the reopened days take postings',
    );
    const audit = await s.q((tx) =>
      tx('audit_log').where({ entity: 'fiscal_year', entity_id: '2023' }).orderBy('id').select('action'),
    );
    t.same(
      audit.map((a: { action: string }) => a.action),
      ['close', 'reopen'],
    );
    const reopenBooks = await s.q((tx) =>
      tx('audit_log').where({ entity: 'company', action: 'reopen_books' }).first('details'),
    );
    t.same((reopenBooks?.details as { reopened_fiscal_years?: unknown } | undefined)?.reopened_fiscal_years, [2023]);

    const second = await s.api('POST', '/system/fiscal_years/2023/close');
    t.equal(second.status, 200);
    const e2 = (await s.api('GET', `/gl/transactions/${second.body.closing_entry_id}`)).body;
    t.equal(e2.reference, 'CLOSE-2023-2');
    t.same(
      e2.lines.map((l: { account: string; debit: number; credit: number }) => [l.account, l.debit, l.credit]),
      [
        ['3400', 1000, 0],
        ['6000', 0, 320],
        ['6500', 0, 120],
        ['2970', 0, 560],
      ],
      'the new closing entry includes the posting made while reopened',
    );
    const closedYear = await s.balances('2023-01-01', '2023-12-31');
    t.ok(
      ['3400', '6000', '6500'].every((a) => closedYear[a] === 0),
      'income and expenses net to zero again',
    );
    t.equal(closedYear['2970'], -560);

    // moving the date back within the year after its end does not reopen it
    await s.api('POST', '/system/close_books', { date: '2024-03-31' });
    t.equal((await s.api('POST', '/system/close_books', { date: '2023-12-31', reopen: true })).status, 200);
    t.match((await s.api('GET', '/system/fiscal_years')).body[0], {
      year: 2023,
      closed: true,
      closing_entry_id: second.body.closing_entry_id,
    });
  },
);

t.test(
  'a year without income or expenses is closed with an empty closing entry; closing never moves the date back',
  async (t) => {
    const s = await setup(t);
    await s.api('POST', '/gl/transactions', {
      transdate: '2022-02-01',
      pending: '0',
      lines: [
        { account: '1020', debit: 10 },
        { account: '2800', credit: 10 },
      ],
    });
    await s.api('POST', '/system/close_books', { date: '2023-06-30' });
    const r = await s.api('POST', '/system/fiscal_years/2022/close');
    t.equal(r.status, 200, JSON.stringify(r.body));
    const entry = (await s.api('GET', `/gl/transactions/${r.body.closing_entry_id}`)).body;
    t.same(entry.lines, []);
    t.equal(entry.transdate, '2022-12-31', 'booked into the already closed period');
    t.same((await s.api('GET', '/system/close_books')).body, { date: '2023-06-30' }, 'the later closing date stays');
    const years = (await s.api('GET', '/system/fiscal_years')).body;
    t.match(
      years.slice(0, 2),
      [
        { year: 2022, closed: true },
        { year: 2023, closed: false },
      ],
      'years between are listed',
    );
  },
);

t.test('a loss without a retained-earnings account is refused; permissions', async (t) => {
  const s = await setup(t);
  await s.api('POST', '/gl/transactions', {
    transdate: '2023-02-01',
    pending: '0',
    lines: [
      { account: '6000', debit: 10 },
      { account: '1020', credit: 10 },
    ],
  });
  const accountant = apiClient(s.ledger.url, s.co.dataset, (await s.co.addMember('accountant')).apiKey);
  const denied = await accountant('POST', '/system/fiscal_years/2023/close');
  t.equal(denied.status, 403);
  t.match(denied.body.error.message, /system\.close_books/);
  t.equal((await accountant('GET', '/system/fiscal_years')).status, 200, 'accountants read the years');

  await s.q((tx) =>
    tx('companies')
      .where({ id: s.co.company.id })
      .update({ settings: tx.raw(`settings - 'retained_earnings_account'`) }),
  );
  const none = await s.api('POST', '/system/fiscal_years/2023/close');
  t.equal(none.status, 400);
  t.match(none.body.error.message, /retained_earnings_account/);
  t.match((await s.api('GET', '/system/fiscal_years')).body[0], { year: 2023, closed: false }, 'nothing written');
  t.same((await s.api('GET', '/system/close_books')).body, { date: null });
});
