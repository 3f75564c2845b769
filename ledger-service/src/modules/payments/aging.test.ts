import t from 'tap';
import { arapSetup, CHART, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';
import { agingBucket, daysPastDue } from './rules.ts';

async function posted(s: ArapSetup, vc: Vc, partyId: number, fields: Record<string, unknown>): Promise<number> {
  const r = await s.api(
    'POST',
    `/arap/transaction/${vc}`,
    s.doc(vc, { [`${vc}_id`]: partyId, pending: '0', ...fields }),
  );
  if (r.status !== 201) throw new Error(`document setup failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}
const net = (vc: Vc, amount: number) => ({ lines: [{ account: CHART[vc].line, amount }] });

t.test('buckets: days past the due date', async (t) => {
  t.equal(daysPastDue('2024-01-31', '2024-04-30'), 90);
  t.equal(daysPastDue('2024-03-31', '2024-03-01'), -30);
  t.same([0, -5, 1, 30, 31, 60, 61, 90, 91, 400].map(agingBucket), [
    'current',
    'current',
    '1-30',
    '1-30',
    '31-60',
    '31-60',
    '61-90',
    '61-90',
    'over_90',
    'over_90',
  ]);
});

t.test(
  'aging as of past dates: documents, payments and reversals after the date do not count; base currency; totals',
  async (t) => {
    const s = await arapSetup(t);
    const vc = 'customer';
    const globex = s.parties.customer;
    const other = await s.api('POST', '/arap/customer', { name: 'Initech' });
    const initech = { id: other.body.id as number, number: other.body.customernumber as string };

    const a = await posted(s, vc, globex.id, { invDate: '2024-01-01', dueDate: '2024-01-31', ...net(vc, 100) });
    await posted(s, vc, globex.id, { invDate: '2024-03-01', dueDate: '2024-03-31', ...net(vc, 200) });
    // 1000 EUR at 0.95 = 950.00 CHF, no due date: due on its date
    const eur = await posted(s, vc, initech.id, {
      invDate: '2024-04-10',
      curr: 'EUR',
      exchangerate: 0.95,
      ...net(vc, 1000),
    });
    const reversedLater = await posted(s, vc, initech.id, {
      invDate: '2024-02-01',
      dueDate: '2024-02-15',
      ...net(vc, 50),
    });
    t.equal(
      (await s.api('POST', `/arap/transaction/${vc}/${reversedLater}/reverse`, { date: '2024-05-10' })).status,
      201,
    );
    await posted(s, vc, initech.id, { invDate: '2024-06-01', ...net(vc, 70) }); // after every report date below

    const pa = await s.api('POST', `/arap/payment/${vc}`, {
      document_id: a,
      amount: 40,
      account: '1020',
      date: '2024-04-20',
    });
    t.equal(pa.status, 201);
    const pe = await s.api('POST', `/arap/payment/${vc}`, {
      document_id: eur,
      amount: 400,
      exchangerate: 0.97,
      account: '1020',
      date: '2024-04-25',
    });
    t.equal(pe.status, 201);

    const aging = async (date: string) => {
      const r = await s.api('GET', `/arap/aging/${vc}?date=${date}`);
      t.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };

    const apr15 = await aging('2024-04-15');
    t.same(
      apr15,
      {
        date: '2024-04-15',
        currency: 'CHF',
        rows: [
          {
            id: globex.id,
            number: globex.number,
            name: 'Globex Corp',
            current: 0,
            '1-30': 200,
            '31-60': 0,
            '61-90': 100,
            over_90: 0,
            total: 300,
          },
          {
            id: initech.id,
            number: initech.number,
            name: 'Initech',
            current: 0,
            '1-30': 950,
            '31-60': 50,
            '61-90': 0,
            over_90: 0,
            total: 1000,
          },
        ],
        totals: { current: 0, '1-30': 1150, '31-60': 50, '61-90': 100, over_90: 0, total: 1300 },
      },
      'A 75 days, B 15 days, the reversed document 60 days (reversed only later), the EUR invoice (950.00 CHF) 5 ' +
        'days past its date',
    );

    const apr30 = await aging('2024-04-30');
    t.same(
      apr30.rows,
      [
        {
          id: globex.id,
          number: globex.number,
          name: 'Globex Corp',
          current: 0,
          '1-30': 200,
          '31-60': 0,
          '61-90': 60,
          over_90: 0,
          total: 260,
        },
        {
          id: initech.id,
          number: initech.number,
          name: 'Initech',
          current: 0,
          '1-30': 570,
          '31-60': 0,
          '61-90': 50,
          over_90: 0,
          total: 620,
        },
      ],
      'payments of 20 and 25 April count: A 100 − 40, the EUR invoice 950.00 − 380.00 (the base amount its payment ' +
        'cleared)',
    );
    t.same(apr30.totals, { current: 0, '1-30': 770, '31-60': 0, '61-90': 110, over_90: 0, total: 880 });

    const may31 = await aging('2024-05-31');
    t.same(
      may31.rows.map((r: { name: string; total: number }) => [r.name, r.total]),
      [
        ['Globex Corp', 260],
        ['Initech', 570],
      ],
      'reversed on 10 May: gone',
    );
    t.equal(may31.rows[0].over_90, 60, '121 days');

    const jan1 = await aging('2024-01-01');
    t.same(
      jan1.rows.map((r: { current: number }) => r.current),
      [100],
      'due later: current',
    );
    t.same(await aging('2023-12-31'), {
      date: '2023-12-31',
      currency: 'CHF',
      rows: [],
      totals: { current: 0, '1-30': 0, '31-60': 0, '61-90': 0, over_90: 0, total: 0 },
    });

    // reversing the payment of 20 April: as of any date it no longer counts
    t.equal((await s.api('DELETE', `/arap/payment/${vc}/${pa.body.id}`)).status, 200);
    t.equal((await aging('2024-04-30')).rows[0].total, 300, 'the reversed payment does not count');

    // pay everything off: the party drops out; the total equals the receivable's balance
    const far = '2030-01-01';
    const before = await aging(far);
    const receivable = await s.q(async (tx) =>
      String(
        (
          await tx('ledger_entries as e')
            .join('accounts as a', 'a.id', 'e.account_id')
            .where('a.accno', CHART.customer.control)
            .sum({ s: 'e.amount' })
            .first()
        )?.s,
      ),
    );
    t.equal(before.totals.total, Number(receivable), 'aging total = receivable balance in the books');

    const today = await s.api('GET', `/arap/aging/${vc}`);
    t.equal(today.body.date, new Date().toISOString().slice(0, 10), 'date defaults to today');
  },
);

t.test('vendor aging: payables as positive open amounts', async (t) => {
  const s = await arapSetup(t);
  const id = await posted(s, 'vendor', s.parties.vendor.id, {
    invDate: '2024-01-10',
    dueDate: '2024-02-09',
    ...net('vendor', 500),
  });
  await s.api('POST', '/arap/payment/vendor', { document_id: id, amount: 120.5, account: '1020', date: '2024-02-01' });
  const r = await s.api('GET', '/arap/aging/vendor?date=2024-03-10');
  t.same(r.body.rows, [
    {
      id: s.parties.vendor.id,
      number: s.parties.vendor.number,
      name: 'Acme Supplies',
      current: 0,
      '1-30': 379.5,
      '31-60': 0,
      '61-90': 0,
      over_90: 0,
      total: 379.5,
    },
  ]);
  const bad = await s.api('GET', '/arap/aging/vendor?date=2024-02-30');
  t.equal(bad.status, 400, 'not a date');
});
