import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { withTenant } from '../../db/knex.ts';

/** GET /gl/ledger: opening balance, running balance over pages, source documents, closing balance. */

interface LedgerLine {
  id: number;
  date: string;
  description?: string;
  debit: number;
  credit: number;
  balance: number;
  currency: string;
  fx_amount: number;
  closing: boolean;
  source: { kind: string; id: number; number: string | null };
}

const entry = (date: string, account: string, amount: number, extra: Record<string, unknown> = {}) => ({
  transdate: date,
  pending: '0',
  description: `${account} on ${date}`,
  lines:
    amount > 0
      ? [
          { account, debit: amount },
          { account: '2800', credit: amount },
        ]
      : [
          { account: '2800', debit: -amount },
          { account, credit: -amount },
        ],
  ...extra,
});

t.test('opening, running balance, closing and source documents of every kind', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);

  // 1020 Bank: 1000 before the period, then journal entries, a customer payment and a vendor payment in it
  const opening = await api('POST', '/gl/transactions', entry('2024-01-10', '1020', 1000, { reference: 'OPEN' }));
  t.equal(opening.status, 201);
  const customer = await api('POST', '/arap/customer', { name: 'Globex' });
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme' });
  const invoice = await api('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2024-02-01',
    invNumber: 'AR-77',
    description: 'consulting',
    pending: '0',
    lines: [{ account: '3400', amount: 500 }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  const bill = await api('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2024-02-02',
    invNumber: 'AP-9',
    pending: '0',
    lines: [{ account: '6000', amount: 200 }],
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  const received = await api('POST', '/arap/payment/customer', {
    document_id: invoice.body.id,
    date: '2024-02-05',
    amount: 500,
    account: '1020',
  });
  t.equal(received.status, 201, JSON.stringify(received.body));
  const paid = await api('POST', '/arap/payment/vendor', {
    document_id: bill.body.id,
    date: '2024-02-05',
    amount: 200,
    account: '1020',
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));
  const j1 = await api('POST', '/gl/transactions', entry('2024-02-03', '1020', -150, { reference: 'JE-1' }));
  const j2 = await api('POST', '/gl/transactions', entry('2024-02-28', '1020', 75.5, { reference: 'JE-2' }));
  await api('POST', '/gl/transactions', entry('2024-03-01', '1020', 999, { reference: 'LATER' }));
  await api('POST', '/gl/transactions', {
    ...entry('2024-02-10', '1020', 5000),
    pending: undefined,
    reference: 'DRAFT',
  });

  const r = await api('GET', '/gl/ledger?account=1020&from=2024-02-01&to=2024-02-29');
  t.equal(r.status, 200, JSON.stringify(r.body));
  const l = r.body;
  t.match(l, {
    account: '1020',
    description: 'Bank',
    category: 'A',
    from: '2024-02-01',
    to: '2024-02-29',
    opening: 1000,
    debit: 575.5,
    credit: 350,
    closing: 1225.5,
    page_opening: 1000,
    total: 4,
  });
  t.equal(r.headers.get('x-total-count'), '4');
  t.same(
    l.lines.map((x: LedgerLine) => [x.date, x.debit, x.credit, x.balance, x.source.kind, x.source.number]),
    [
      ['2024-02-03', 0, 150, 850, 'journal_entry', 'JE-1'],
      ['2024-02-05', 500, 0, 1350, 'payment', 'AR-77'],
      ['2024-02-05', 0, 200, 1150, 'payment', 'AP-9'],
      ['2024-02-28', 75.5, 0, 1225.5, 'journal_entry', 'JE-2'],
    ],
    'ordered by date then id; drafts and other periods left out',
  );
  t.equal(l.lines[0].source.id, j1.body.id);
  t.equal(l.lines[1].source.id, received.body.id, 'a payment line names the payment');
  t.equal(l.lines[3].source.id, j2.body.id);
  t.equal(l.lines[0].description, '1020 on 2024-02-03');
  t.equal(l.lines[1].description, 'Payment of AR-77');

  const revenue = (await api('GET', '/gl/ledger?account=3400')).body;
  t.same(
    revenue.lines.map((x: LedgerLine) => [x.source.kind, x.source.id, x.source.number, x.credit, x.description]),
    [['customer_transaction', invoice.body.id, 'AR-77', 500, 'consulting']],
  );
  t.match(revenue, { from: null, to: null, opening: 0, closing: -500 });
  const expense = (await api('GET', '/gl/ledger?account=6000')).body;
  t.same(
    expense.lines.map((x: LedgerLine) => [x.source.kind, x.source.number, x.debit]),
    [['vendor_transaction', 'AP-9', 200]],
  );

  // pages: the running balance continues across pages, page_opening is the balance before the page
  const p2 = await api('GET', '/gl/ledger?account=1020&from=2024-02-01&to=2024-02-29&limit=2&offset=2');
  t.same(
    p2.body.lines.map((x: LedgerLine) => x.balance),
    [1150, 1225.5],
  );
  t.equal(p2.body.page_opening, 1350);
  t.equal(p2.body.opening, 1000, 'the period opening stays');
  t.equal(p2.body.closing, 1225.5);
  t.match(p2.headers.get('link'), /offset=0.*rel="prev"/);
  const p1 = await api('GET', '/gl/ledger?account=1020&from=2024-02-01&to=2024-02-29&limit=2');
  t.match(p1.headers.get('link'), /offset=2.*rel="next"/);
  const beyond = await api('GET', '/gl/ledger?account=1020&from=2024-02-01&to=2024-02-29&limit=2&offset=10');
  t.same(beyond.body.lines, []);
  t.equal(beyond.body.page_opening, 1225.5, 'past the last page: the closing balance');

  const all = (await api('GET', '/gl/ledger?account=1020')).body;
  t.equal(all.total, 6);
  t.equal(all.opening, 0);
  t.equal(all.closing, 2224.5);
  t.equal(all.lines.at(-1).balance, 2224.5);
  const onlyTo = (await api('GET', '/gl/ledger?account=1020&to=2024-01-31')).body;
  t.match(onlyTo, { opening: 0, closing: 1000, total: 1 });
  const onlyFrom = (await api('GET', '/gl/ledger?account=1020&from=2024-03-01')).body;
  t.match(onlyFrom, { opening: 1225.5, closing: 2224.5, total: 1 });

  // a reversed payment shows both lines; the document's number stays the source number
  t.equal((await api('DELETE', `/arap/payment/customer/${received.body.id}`)).status, 200);
  const afterReversal = (await api('GET', '/gl/ledger?account=1020&from=2024-02-05&to=2024-02-05')).body;
  t.same(
    afterReversal.lines.map((x: LedgerLine) => [x.source.kind, x.source.id, x.debit, x.credit]),
    [
      ['payment', received.body.id, 500, 0],
      ['payment', paid.body.id, 0, 200],
      ['payment', received.body.id, 0, 500],
    ],
  );

  const unknown = await api('GET', '/gl/ledger?account=9999');
  t.equal(unknown.status, 400);
  t.equal(unknown.body.error.field, '/account');
  const backwards = await api('GET', '/gl/ledger?account=1020&from=2024-03-01&to=2024-02-01');
  t.equal(backwards.status, 400);
  t.equal(backwards.body.error.field, '/to');
  t.equal((await api('GET', '/gl/ledger')).status, 400, 'account is required');
});

t.test('foreign-currency lines carry their currency and fx amount', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  await api('POST', '/gl/transactions', {
    transdate: '2024-04-01',
    curr: 'EUR',
    exchangerate: 0.95,
    pending: '0',
    lines: [
      { account: '1020', debit: 100 },
      { account: '2800', credit: 100 },
    ],
  });
  const l = (await api('GET', '/gl/ledger?account=1020')).body;
  t.match(l.lines[0], { debit: 95, credit: 0, currency: 'EUR', fx_amount: 100, closing: false, balance: 95 });
});

t.test(
  'the opening balance from the monthly balances equals the sum of every earlier line, merged or not',
  async (t) => {
    const ledger = await startTestLedger(t);
    const co = await createTestCompany(ledger);
    const api = apiClient(ledger.url, co.dataset, co.apiKey);
    // postings on month edges and inside months over four months, one of them reversed
    const dated: [string, number][] = [
      ['2024-01-01', 100],
      ['2024-01-31', -40.25],
      ['2024-02-01', 7.1],
      ['2024-02-15', 300],
      ['2024-02-29', -0.05],
      ['2024-03-01', 12],
      ['2024-03-16', -150],
      ['2024-03-31', 99.99],
      ['2024-04-01', 1],
      ['2024-04-30', 5],
    ];
    const ids: number[] = [];
    for (const [date, amount] of dated) {
      const r = await api('POST', '/gl/transactions', entry(date, '1020', amount));
      t.equal(r.status, 201);
      ids.push(r.body.id);
    }
    const reversed = await api('POST', `/gl/transactions/${ids[3]}/reverse`, { date: '2024-03-10' });
    t.equal(reversed.status, 201, 'the reversal of 2024-02-15 on 2024-03-10');

    // what the opening must be: the sum of the account's lines dated before `from`
    const allLines = async () => {
      const out: LedgerLine[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = (await api('GET', `/gl/ledger?account=1020&limit=1000&offset=${offset}`)).body
          .lines as LedgerLine[];
        out.push(...page);
        if (page.length < 1000) return out;
      }
    };
    const lines = await allLines();
    t.equal(lines.length, dated.length + 1);
    const before = (from: string) =>
      lines.filter((l) => l.date < from).reduce((sum, l) => sum + Math.round((l.debit - l.credit) * 100), 0) / 100;
    const days: string[] = [];
    for (
      let d = new Date('2023-12-31T00:00:00Z');
      d <= new Date('2024-05-02T00:00:00Z');
      d.setUTCDate(d.getUTCDate() + 1)
    )
      days.push(d.toISOString().slice(0, 10));
    const check = async (label: string) => {
      for (const from of days) {
        const l = (await api('GET', `/gl/ledger?account=1020&from=${from}&limit=1`)).body;
        if (l.opening !== before(from))
          return t.fail(`${label}: opening on ${from} is ${l.opening}, the lines say ${before(from)}`);
        if (l.closing !== before('9999-12-31')) return t.fail(`${label}: closing from ${from} is ${l.closing}`);
      }
      t.pass(`${label}: the opening of every day from ${days[0]} to ${days.at(-1)} is the sum of the earlier lines`);
    };
    const balanceRows = () =>
      withTenant(
        ledger.db,
        co.company.id,
        async (tx) =>
          (
            await tx.raw(
              `select count(*) filter (where not compacted)::int as fresh, count(*)::int as total from ledger_balances`,
            )
          ).rows[0] as { fresh: number; total: number },
      );
    t.ok((await balanceRows()).fresh > 0, 'delta rows as the triggers wrote them');
    await check('delta rows');

    // enough delta rows for the merge (2,000): balanced pairs of lines added to the first entry
    // in separate statements (quicker than 1,001 postings); the opening stays right after merging
    await withTenant(ledger.db, co.company.id, async (tx) => {
      const [bank, other] = await Promise.all(
        ['1020', '2800'].map(async (accno) => (await tx('accounts').where({ accno }).first('id'))!.id),
      );
      for (let i = 0; i < 1001; i++) {
        const date = `2024-0${1 + (i % 4)}-${String(1 + (i % 28)).padStart(2, '0')}`;
        await tx('ledger_entries').insert([
          {
            company_id: co.company.id,
            journal_id: ids[0],
            account_id: bank,
            date,
            amount: '0.01',
            fx_amount: '0.01',
            currency: 'CHF',
            kind: 'amount',
          },
          {
            company_id: co.company.id,
            journal_id: ids[0],
            account_id: other,
            date,
            amount: '-0.01',
            fx_amount: '-0.01',
            currency: 'CHF',
            kind: 'amount',
          },
        ]);
      }
    });
    lines.splice(0, lines.length, ...(await allLines()));
    t.equal(lines.length, dated.length + 1 + 1001);
    await check('merged rows');
    const merged = await balanceRows();
    t.equal(merged.fresh, 0, 'the ledger merged the delta rows as the reports do');
  },
);
