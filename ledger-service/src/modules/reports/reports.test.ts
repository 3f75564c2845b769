/**
 * The four reports over HTTP on a real ledger: the worked example of docs/reports.md asserted
 * figure by figure, the date rules, permissions, and the CSV / PDF / 406 negotiation.
 */
import t from 'tap';
import { arapSetup, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';
import { pdfText } from '../../../test/support/pdf.ts';

type Line = { account: string; amount: number; taxAccount?: string };

async function post(s: ArapSetup, vc: Vc, invDate: string, lines: Line[], pending = true): Promise<number> {
  const r = await s.api(
    'POST',
    `/arap/transaction/${vc}`,
    s.doc(vc, { invDate, lines, ...(pending ? { pending: '0' } : {}) }),
  );
  if (r.status !== 201) throw new Error(`posting failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

/** The worked example of docs/reports.md, "Worked example". */
async function workedExample(t: Parameters<typeof arapSetup>[0]) {
  const s = await arapSetup(t, { currency: 'CHF' });
  await post(s, 'customer', '2024-12-15', [{ account: '3400', amount: 2000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-01-10', [{ account: '3400', amount: 1000, taxAccount: '2200' }]);
  await post(s, 'customer', '2025-02-05', [{ account: '3000', amount: 500, taxAccount: '2201' }]);
  await post(s, 'customer', '2025-02-20', [{ account: '3400', amount: 200 }]);
  await post(s, 'vendor', '2025-01-20', [{ account: '4000', amount: 400, taxAccount: '1170' }]);
  await post(s, 'vendor', '2025-03-03', [
    { account: '6000', amount: 1500 },
    { account: '6570', amount: 100, taxAccount: '1170' },
  ]);
  const reversed = await post(s, 'customer', '2025-03-10', [{ account: '3400', amount: 300, taxAccount: '2200' }]);
  const rev = await s.api('POST', `/arap/transaction/customer/${reversed}/reverse`, { date: '2025-03-12' });
  if (rev.status !== 200 && rev.status !== 201) throw new Error(`reversal failed: ${JSON.stringify(rev.body)}`);
  // a draft: never counted
  await post(s, 'vendor', '2025-02-01', [{ account: '6500', amount: 999, taxAccount: '1170' }], false);
  return s;
}

t.test('worked example: trial balance', async (t) => {
  const s = await workedExample(t);
  const r = await s.api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-03-31');
  t.equal(r.status, 200);
  t.same(r.body, {
    from: '2025-01-01',
    to: '2025-03-31',
    currency: 'CHF',
    accounts: [
      {
        accno: '1100',
        description: 'Accounts receivable',
        category: 'A',
        opening: 2162,
        debit: 2118.3,
        credit: -324.3,
        closing: 3956,
      },
      {
        accno: '1170',
        description: 'Input VAT standard rate',
        category: 'A',
        opening: 0,
        debit: 40.5,
        credit: 0,
        closing: 40.5,
      },
      {
        accno: '2000',
        description: 'Accounts payable',
        category: 'L',
        opening: 0,
        debit: 0,
        credit: -2040.5,
        closing: -2040.5,
      },
      {
        accno: '2200',
        description: 'Output VAT standard rate',
        category: 'L',
        opening: -162,
        debit: 24.3,
        credit: -105.3,
        closing: -243,
      },
      {
        accno: '2201',
        description: 'Output VAT reduced rate',
        category: 'L',
        opening: 0,
        debit: 0,
        credit: -13,
        closing: -13,
      },
      {
        accno: '3000',
        description: 'Sales of goods',
        category: 'I',
        opening: 0,
        debit: 0,
        credit: -500,
        closing: -500,
      },
      {
        accno: '3400',
        description: 'Revenue from services',
        category: 'I',
        opening: -2000,
        debit: 300,
        credit: -1500,
        closing: -3200,
      },
      {
        accno: '4000',
        description: 'Cost of materials',
        category: 'E',
        opening: 0,
        debit: 400,
        credit: 0,
        closing: 400,
      },
      { accno: '6000', description: 'Rent', category: 'E', opening: 0, debit: 1500, credit: 0, closing: 1500 },
      { accno: '6570', description: 'IT and software', category: 'E', opening: 0, debit: 100, credit: 0, closing: 100 },
    ],
    totals: { opening: 0, debit: 4483.1, credit: -4483.1, closing: 0 },
  });
  // a range inside one month (days only) and one of whole months give the same sums as the lines
  const feb = await s.api('GET', '/reports/trial_balance?from=2025-02-05&to=2025-02-20');
  t.same(
    feb.body.accounts
      .map((a: { accno: string; debit: number; credit: number }) => [a.accno, a.debit, a.credit])
      .filter((x: unknown[]) => x[1] !== 0 || x[2] !== 0),
    [
      ['1100', 713, 0],
      ['2201', 0, -13],
      ['3000', 0, -500],
      ['3400', 0, -200],
    ],
  );
});

t.test('worked example: income statement, balance sheet, VAT', async (t) => {
  const s = await workedExample(t);
  const is = await s.api('GET', '/reports/income_statement?from=2025-01-01&to=2025-03-31');
  t.equal(is.status, 200);
  t.same(is.body, {
    from: '2025-01-01',
    to: '2025-03-31',
    currency: 'CHF',
    income: {
      accounts: [
        { accno: '3000', description: 'Sales of goods', amount: -500 },
        { accno: '3400', description: 'Revenue from services', amount: -1200 },
      ],
      total: -1700,
    },
    expenses: {
      accounts: [
        { accno: '4000', description: 'Cost of materials', amount: 400 },
        { accno: '6000', description: 'Rent', amount: 1500 },
        { accno: '6570', description: 'IT and software', amount: 100 },
      ],
      total: 2000,
    },
    net_income: -300,
  });

  const bs = await s.api('GET', '/reports/balance_sheet?date=2025-03-31');
  t.equal(bs.status, 200);
  t.same(bs.body, {
    date: '2025-03-31',
    currency: 'CHF',
    fiscal_year_start: '2025-01-01',
    assets: {
      accounts: [
        { accno: '1100', description: 'Accounts receivable', amount: 3956 },
        { accno: '1170', description: 'Input VAT standard rate', amount: 40.5 },
      ],
      total: 3996.5,
    },
    liabilities: {
      accounts: [
        { accno: '2000', description: 'Accounts payable', amount: -2040.5 },
        { accno: '2200', description: 'Output VAT standard rate', amount: -243 },
        { accno: '2201', description: 'Output VAT reduced rate', amount: -13 },
      ],
      total: -2296.5,
    },
    equity: { accounts: [], current_year_result: 300, earlier_years_result: -2000, total: -1700 },
    total_assets: 3996.5,
    total_liabilities_and_equity: 3996.5,
  });

  const vat = await s.api('GET', '/reports/vat?from=2025-01-01&to=2025-03-31');
  t.equal(vat.status, 200);
  t.same(vat.body, {
    from: '2025-01-01',
    to: '2025-03-31',
    currency: 'CHF',
    codes: [
      {
        code: 'VAT-OUT-RED',
        description: 'Output VAT 2.6%',
        account: '2201',
        rate: 0.026,
        side: 'output',
        base: 500,
        tax: 13,
      },
      {
        code: 'VAT-OUT-STD',
        description: 'Output VAT 8.1%',
        account: '2200',
        rate: 0.081,
        side: 'output',
        base: 1000,
        tax: 81,
      },
      {
        code: 'VAT-IN-STD',
        description: 'Input VAT 8.1%',
        account: '1170',
        rate: 0.081,
        side: 'input',
        base: 500,
        tax: 40.5,
      },
    ],
    output: { base: 1500, tax: 94 },
    input: { base: 500, tax: 40.5 },
    net_due: 53.5,
    other_movements: [],
    swiss_vat_return: {
      '200': 1700,
      '289': 200,
      '299': 1500,
      '302': { base: 1000, tax: 81 },
      '312': { base: 500, tax: 13 },
      '342': { base: 0, tax: 0 },
      '382': { base: 0, tax: 0 },
      '399': 94,
      '400': 32.4,
      '405': 8.1,
      '479': 40.5,
      '500': 53.5,
      '510': 0,
    },
  });
});

t.test('CSV and PDF when Accept asks for them; 406 when it allows none', async (t) => {
  const s = await workedExample(t);
  const csv = await s.api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-03-31', undefined, {
    Accept: 'text/csv',
  });
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  t.match(csv.headers.get('content-disposition'), /attachment; filename="trial_balance_2025-01-01_2025-03-31.csv"/);
  const lines = (csv.body as string).split('\r\n');
  t.equal(lines[0], 'Account,Description,Category,Opening,Debit,Credit,Closing');
  t.equal(lines[1], '1100,Accounts receivable,A,2162.00,2118.30,-324.30,3956.00');
  t.equal(lines.at(-2), ',Total,,0.00,4483.10,-4483.10,0.00');

  const vatCsv = await s.api('GET', '/reports/vat?from=2025-01-01&to=2025-03-31', undefined, {
    Accept: 'text/csv;q=0.9, application/json;q=0.5',
  });
  t.match(vatCsv.headers.get('content-type'), /^text\/csv/);
  t.match(vatCsv.body, /\r\nswiss,500,Amount payable,,53\.50\r\n/);

  const pdf = await fetch(`${s.ledger.url}/client/${s.co.dataset}/reports/balance_sheet?date=2025-03-31`, {
    headers: { 'X-API-Key': s.co.apiKey, Accept: 'application/pdf' },
  });
  t.equal(pdf.status, 200);
  t.equal(pdf.headers.get('content-type'), 'application/pdf');
  const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
  t.match(text, /Balance sheet/);
  t.match(text, /Total liabilities and equity\s+3996\.50/);
  t.match(text, /Results of earlier years not yet closed\s+-2000\.00/);

  const json = await s.api('GET', '/reports/income_statement?from=2025-01-01&to=2025-03-31', undefined, {
    Accept: '*/*',
  });
  t.match(json.headers.get('content-type'), /^application\/json/, '*/* gets JSON');
  const browser = await s.api('GET', '/reports/income_statement', undefined, {
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  });
  t.match(browser.headers.get('content-type'), /^application\/json/, "a browser's Accept gets JSON");
  const xml = await s.api('GET', '/reports/income_statement', undefined, { Accept: 'application/xml' });
  t.equal(xml.status, 406);
  t.equal(xml.body.error.code, 'not_acceptable');
  t.match(xml.body.error.message, /application\/json, text\/csv, application\/pdf/);
});

t.test('periods: defaults, from after to, bad dates; permission', async (t) => {
  const s = await arapSetup(t, { currency: 'CHF' });
  const today = new Date().toISOString().slice(0, 10);
  const tb = await s.api('GET', '/reports/trial_balance');
  t.equal(tb.status, 200);
  t.same([tb.body.from, tb.body.to], [`${today.slice(0, 4)}-01-01`, today], 'from 1 January of to, to today');
  t.same(tb.body.accounts, [], 'no lines, no accounts');
  const bs = await s.api('GET', '/reports/balance_sheet');
  t.equal(bs.body.date, today);
  const reversed = await s.api('GET', '/reports/vat?from=2025-02-01&to=2025-01-31');
  t.equal(reversed.status, 400);
  t.same(reversed.body.error, {
    code: 'invalid_request',
    message: 'from (2025-02-01) is after to (2025-01-31).',
    field: '/from',
  });
  const bad = await s.api('GET', '/reports/income_statement?to=2025-02-30');
  t.equal(bad.status, 400);
  t.equal(bad.body.error.code, 'invalid_request');
  const unknown = await s.api('GET', '/reports/balance_sheet?from=2025-01-01');
  t.equal(unknown.status, 400, 'the balance sheet takes a date, not a period');
  // a non-CHF company has no Swiss VAT return
  const eur = await arapSetup(t, { currency: 'EUR' });
  const vat = await eur.api('GET', '/reports/vat?from=2025-01-01&to=2025-12-31');
  t.equal(vat.body.swiss_vat_return, null);
});

t.test(
  'ledger_balances: trigger deltas for inserts and deletes, merged by the reports without changing a figure',
  async (t) => {
    const s = await workedExample(t);
    const before = (await s.api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-03-31')).body;
    // 1,100 statements of two lines each: 2,200 delta rows, then a deletion of some of them
    await s.q(async (tx) => {
      const [bank, rent] = await Promise.all(
        ['1020', '6000'].map(async (accno) => (await tx('accounts').where({ accno }).first('id'))!.id),
      );
      for (let i = 0; i < 1100; i++) {
        const date = `2025-0${1 + (i % 3)}-${String(1 + (i % 28)).padStart(2, '0')}`;
        await tx('ledger_entries').insert([
          {
            company_id: s.co.company.id,
            account_id: rent,
            date,
            amount: '1.25',
            fx_amount: '1.25',
            currency: 'CHF',
            kind: 'amount',
          },
          {
            company_id: s.co.company.id,
            account_id: bank,
            date,
            amount: '-1.25',
            fx_amount: '-1.25',
            currency: 'CHF',
            kind: 'amount',
          },
        ]);
      }
      await tx.raw(
        `delete from ledger_entries where id in (select id from ledger_entries where transaction_id is null ` +
          `and amount = 1.25 and date < '2025-01-15')`,
      );
    });
    const count = () =>
      s.q(
        async (tx) =>
          (
            await tx.raw(
              `select count(*) filter (where not compacted)::int as fresh, count(*)::int as total from ledger_balances`,
            )
          ).rows[0],
      );
    t.ok((await count()).fresh > 2000, 'one delta row per statement, account and month');
    const after = (await s.api('GET', '/reports/trial_balance?from=2025-01-01&to=2025-03-31')).body;
    const merged = await count();
    t.equal(merged.fresh, 0, 'the report merged the deltas');
    t.ok(merged.total < 40, `into one row per account, month and closing flag (${merged.total})`);
    // the same figures as a plain sum over the lines
    const plain = await s.q(
      async (tx) =>
        (
          await tx.raw(
            `select a.accno, sum(e.amount) filter (where e.date < '2025-01-01') as opening,
            sum(e.amount) filter (where e.date >= '2025-01-01' and e.amount > 0) as debit,
            sum(e.amount) filter (where e.date >= '2025-01-01' and e.amount < 0) as credit
       from ledger_entries e join accounts a on a.id = e.account_id where e.date <= '2025-03-31' group by a.accno
         order by a.accno`,
          )
        ).rows as { accno: string; opening: string | null; debit: string | null; credit: string | null }[],
    );
    const n = (v: string | null) => Number(v ?? 0);
    t.same(
      after.accounts.map((a: { accno: string; opening: number; debit: number; credit: number }) => [
        a.accno,
        a.opening,
        a.debit,
        a.credit,
      ]),
      plain.map((r) => [r.accno, n(r.opening), n(r.debit), n(r.credit)]),
    );
    const rentBefore = before.accounts.find((a: { accno: string }) => a.accno === '6000').debit;
    const rentAfter = after.accounts.find((a: { accno: string }) => a.accno === '6000').debit;
    t.ok(rentAfter > rentBefore, 'the inserted lines count, the deleted ones not');
  },
);
