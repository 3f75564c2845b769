import t from 'tap';
import { arapSetup, CHART, isZero, SIDES } from '../../../test/arapHelpers.ts';

t.test('create, read and list on both sides: control line, per-line tax, totals', async (t) => {
  const s = await arapSetup(t);
  for (const vc of SIDES) {
    const c = CHART[vc];
    const created = await s.api(
      'POST',
      `/arap/transaction/${vc}`,
      s.doc(vc, {
        documentNumber: `${vc}-R-1`,
        dueDate: '2024-04-14',
        curr: 'CHF',
        description: 'March',
        pending: '0',
        lines: [
          { account: c.line, amount: 100, taxAccount: c.tax, description: 'standard' },
          { account: c.line2, amount: 33.33, taxAccount: c.taxReduced },
          { account: c.line, amount: 10 },
        ],
      }),
    );
    t.equal(created.status, 201, `${vc} created`);
    t.same(Object.keys(created.body), ['id'], 'create answers { id }');
    t.type(created.body.id, 'number');

    const got = await s.api('GET', `/arap/transaction/${vc}/${created.body.id}`);
    t.equal(got.status, 200);
    const d = got.body;
    t.equal(d.currency, 'CHF', 'read shape has currency');
    t.notOk('curr' in d, 'and not curr');
    t.equal(d[`${vc}_id`], s.parties[vc].id);
    t.equal(d[`${vc}number`], s.parties[vc].number);
    t.equal(d.invNumber, vc === 'vendor' ? 'AP-000001' : 'AR-000001', 'number from the side sequence');
    t.equal(d.documentNumber, `${vc}-R-1`);
    t.equal(d.invDate, '2024-03-15');
    t.equal(d.dueDate, '2024-04-14');
    t.equal(d.recordAccount, c.control, 'default control account of the side');
    t.equal(d.status, 'posted');
    t.equal(d.description, 'March');
    t.same(
      d.lines.map((l: { taxAmount: number }) => l.taxAmount),
      [8.1, 0.87, 0],
      'tax per line, rounded per line',
    );
    t.same(d.lines[1], {
      account: c.line2,
      amount: 33.33,
      taxAccount: c.taxReduced,
      taxRate: 0.026,
      taxAmount: 0.87,
      net: 33.33,
      gross: 34.2,
    });
    t.same(
      d.taxes,
      [
        { taxAccount: c.tax, rate: 0.081, base: 100, amount: 8.1 },
        { taxAccount: c.taxReduced, rate: 0.026, base: 33.33, amount: 0.87 },
      ],
      'per-tax-account totals',
    );
    t.equal(d.netAmount, 143.33);
    t.equal(d.taxAmount, 8.97);
    t.equal(d.grossAmount, 152.3);
    const sign = vc === 'vendor' ? 1 : -1;
    t.same(
      d.postings.map((p: { account: string; amount: number }) => [p.account, p.amount]),
      [
        [c.line, 100 * sign],
        [c.line2, 33.33 * sign],
        [c.line, 10 * sign],
        [c.tax, 8.1 * sign],
        [c.taxReduced, 0.87 * sign],
        [c.control, -152.3 * sign],
      ],
      `${vc}: lines ${sign > 0 ? 'debit' : 'credit'}, control ${sign > 0 ? 'credit' : 'debit'}`,
    );
    t.ok(isZero(await s.documentSum(created.body.id)), 'posted lines sum to zero');

    const list = await s.api('GET', `/arap/transactions/${vc}?document_number=${vc}-R-1`);
    t.equal(list.status, 200);
    t.equal(list.body.length, 1, 'found by the party document number');
    t.equal(list.body[0].id, created.body.id);
    t.equal(list.body[0].grossAmount, 152.3);
  }
});

t.test('taxincluded takes the tax out of gross amounts; taxAmount overrides the calculated tax', async (t) => {
  const s = await arapSetup(t);
  const r = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      taxincluded: true,
      pending: '0',
      lines: [
        { account: '6500', amount: 108.1, taxAccount: '1170' },
        { account: '6500', amount: 10, taxAccount: '1170' },
        { account: '4000', amount: 50, taxAccount: '1170', taxAmount: 3.7 },
      ],
    }),
  );
  t.equal(r.status, 201);
  const d = (await s.api('GET', `/arap/transaction/vendor/${r.body.id}`)).body;
  // 108.10 × 0.081 / 1.081 = 8.10; 10 × 0.081 / 1.081 = 0.749… → 0.75
  t.same(
    d.lines.map((l: { net: number; taxAmount: number; gross: number }) => [l.net, l.taxAmount, l.gross]),
    [
      [100, 8.1, 108.1],
      [9.25, 0.75, 10],
      [46.3, 3.7, 50],
    ],
  );
  t.equal(d.grossAmount, 168.1, 'gross is what was written');
  t.equal(d.netAmount, 155.55);
  t.equal(d.taxAmount, 12.55);
  t.ok(isZero(await s.documentSum(r.body.id)));

  const net = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      lines: [
        { account: '6500', amount: 0.05, taxAccount: '1170' },
        { account: '6500', amount: -19.75, taxAccount: '1170' },
      ],
    }),
  );
  const n = (await s.api('GET', `/arap/transaction/vendor/${net.body.id}`)).body;
  // 0.05 × 0.081 = 0.00405 → 0.00; −19.75 × 0.081 = −1.59975 → −1.60 (half away from zero)
  t.same(
    n.lines.map((l: { taxAmount: number }) => l.taxAmount),
    [0, -1.6],
    'rounding is per line, half away from zero',
  );
  t.equal(n.status, 'draft');
  t.equal(await s.entryCount(net.body.id), 0, 'a draft has no ledger lines');
});

t.test('tax rate valid on invDate applies', async (t) => {
  const s = await arapSetup(t);
  const old = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', { invDate: '2023-12-31', lines: [{ account: '3400', amount: 1000, taxAccount: '2200' }] }),
  );
  const now = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', { invDate: '2024-01-01', lines: [{ account: '3400', amount: 1000, taxAccount: '2200' }] }),
  );
  t.equal((await s.api('GET', `/arap/transaction/customer/${old.body.id}`)).body.taxAmount, 77);
  t.equal((await s.api('GET', `/arap/transaction/customer/${now.body.id}`)).body.taxAmount, 81);
});

t.test('foreign currency: base amounts rounded, difference to the rounding account, lines sum to zero', async (t) => {
  const s = await arapSetup(t);
  const r = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      curr: 'EUR',
      exchangerate: 0.93337,
      pending: '0',
      lines: [
        { account: '6500', amount: 10.01, taxAccount: '1170' },
        { account: '4000', amount: 10.01, taxAccount: '1170' },
        { account: '6000', amount: 10.01, taxAccount: '1170' },
      ],
    }),
  );
  t.equal(r.status, 201, JSON.stringify(r.body));
  const d = (await s.api('GET', `/arap/transaction/vendor/${r.body.id}`)).body;
  t.equal(d.currency, 'EUR');
  t.equal(d.exchangerate, 0.93337);
  // net lines 10.01 × 0.93337 = 9.3430… → 9.34 each; tax 3 × 0.81 = 2.43 → 2.2680… → 2.27; gross 32.46 → 30.2972… →
  // 30.30
  const byAccount = Object.fromEntries(
    d.postings.map((p: { account: string; amount: number }) => [p.account, p.amount]),
  );
  t.same(byAccount, { 6500: 9.34, 4000: 9.34, 6000: 9.34, 1170: 2.27, 2000: -30.3, 6960: 0.01 });
  t.equal(d.baseGrossAmount, 30.3);
  t.ok(isZero(await s.documentSum(r.body.id)), 'exactly zero in the base currency');
  const fx = d.postings
    .filter((p: { account: string }) => p.account !== '6960')
    .map((p: { fxAmount: number }) => p.fxAmount);
  t.same(fx, [10.01, 10.01, 10.01, 2.43, -32.46], 'document-currency amounts kept on each line');

  // the reversal's base amounts carry its sign, like its document-currency amounts
  const rev = await s.api('POST', `/arap/transaction/vendor/${r.body.id}/reverse`, { date: '2024-03-20' });
  t.equal(rev.status, 201, JSON.stringify(rev.body));
  const reversal = (await s.api('GET', `/arap/transaction/vendor/${rev.body.id}`)).body;
  t.equal(reversal.grossAmount, -32.46);
  t.equal(reversal.baseGrossAmount, -30.3, 'base gross negative like the gross');
  const credit = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', {
      curr: 'EUR',
      exchangerate: 0.93337,
      lines: [{ account: '6500', amount: -10.01 }],
    }),
  );
  const creditRead = (await s.api('GET', `/arap/transaction/vendor/${credit.body.id}`)).body;
  t.same(
    [creditRead.grossAmount, creditRead.baseGrossAmount],
    [-10.01, -9.34],
    'a credit note keeps its sign in the base currency',
  );

  const jpy = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      curr: 'JPY',
      exchangerate: 0.0061,
      pending: '0',
      lines: [{ account: '3400', amount: 12345, taxAccount: '2200' }],
    }),
  );
  t.equal(jpy.status, 201, 'JPY with whole amounts');
  t.ok(isZero(await s.documentSum(jpy.body.id)));
});

t.test('numbers: sequence per side, explicit invNumber, duplicates → 409, 50 concurrent creates', async (t) => {
  const s = await arapSetup(t);
  const own = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invNumber: 'AP-000002' }));
  t.equal(own.status, 201);
  const dup = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invNumber: 'AP-000002' }));
  t.equal(dup.status, 409);
  t.equal(dup.body.error.code, 'conflict');
  t.equal(dup.body.error.field, '/invNumber');
  const otherSide = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { invNumber: 'AP-000002' }));
  t.equal(otherSide.status, 201, 'numbers are unique per side');

  const first = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  const second = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal((await s.api('GET', `/arap/transaction/vendor/${first.body.id}`)).body.invNumber, 'AP-000001');
  t.equal(
    (await s.api('GET', `/arap/transaction/vendor/${second.body.id}`)).body.invNumber,
    'AP-000003',
    'a number taken by hand is skipped',
  );

  const results = await Promise.all(
    Array.from({ length: 50 }, () => s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }))),
  );
  t.same(
    results.filter((r) => r.status !== 201).map((r) => r.body),
    [],
    'no errors',
  );
  const numbers = await s.q((tx) =>
    tx('arap_transactions')
      .whereIn(
        'id',
        results.map((r) => r.body.id),
      )
      .pluck('inv_number'),
  );
  t.equal(new Set(numbers).size, 50, '50 distinct numbers');
  t.ok(isZero(await s.companySum()));
});

t.test('company number format applies', async (t) => {
  const s = await arapSetup(t);
  await s.ledger
    .db('companies')
    .where({ id: s.co.company.id })
    .update({ settings: { ...s.co.company.settings, number_formats: { ar_transaction: 'INV-{0000}' } } });
  const r = await s.api('POST', '/arap/transaction/customer', s.doc('customer'));
  t.equal((await s.api('GET', `/arap/transaction/customer/${r.body.id}`)).body.invNumber, 'INV-0001');
});

t.test('list filters: status, dates, party, limit/offset; GET of the other side is 404', async (t) => {
  const s = await arapSetup(t);
  const a = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-01-10' }));
  const b = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-02-10', pending: '0' }));
  const c = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-03-10', pending: '0' }));
  const ids = (r: { body: { id: number }[] }) => r.body.map((x) => x.id);
  t.same(ids(await s.api('GET', '/arap/transactions/vendor')), [a.body.id, b.body.id, c.body.id]);
  t.same(ids(await s.api('GET', '/arap/transactions/vendor?status=draft')), [a.body.id]);
  t.same(ids(await s.api('GET', '/arap/transactions/vendor?status=posted&from=2024-03-01')), [c.body.id]);
  t.same(ids(await s.api('GET', '/arap/transactions/vendor?to=2024-02-10')), [a.body.id, b.body.id]);
  t.same(ids(await s.api('GET', `/arap/transactions/vendor?vendor_id=${s.parties.vendor.id}&limit=1&offset=1`)), [
    b.body.id,
  ]);
  t.same(ids(await s.api('GET', `/arap/transactions/vendor?vendornumber=${s.parties.vendor.number}`)), [
    a.body.id,
    b.body.id,
    c.body.id,
  ]);
  t.same(ids(await s.api('GET', '/arap/transactions/customer')), [], 'sides are separate');
  const bad = await s.api('GET', '/arap/transactions/vendor?status=open');
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, '/status');
  const cross = await s.api('GET', '/arap/transactions/customer?vendor_id=1');
  t.equal(cross.status, 400, 'the other side’s filter is refused');
  t.equal((await s.api('GET', `/arap/transaction/customer/${a.body.id}`)).status, 404);
  t.equal((await s.api('GET', '/arap/transaction/vendor/999999')).status, 404);
  t.equal((await s.api('GET', '/arap/transaction/vendor/abc')).status, 404);
});

t.test('tenancy: another company’s documents, files and bank accounts are not found', async (t) => {
  const s = await arapSetup(t);
  const other = await arapSetup(t);
  const doc = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { pending: '0', files: [{ name: 'a.txt', data: 'data:text/plain;base64,aGk=' }] }),
  );
  const d = (await s.api('GET', `/arap/transaction/vendor/${doc.body.id}`)).body;
  t.equal((await other.api('GET', `/arap/transaction/vendor/${doc.body.id}`)).status, 404);
  t.equal((await other.api('GET', `/arap/transaction/vendor/${doc.body.id}/files/${d.files[0].id}`)).status, 404);
  t.equal((await other.api('POST', `/arap/transaction/vendor/${doc.body.id}/reverse`, {})).status, 404);
  t.equal((await other.api('DELETE', `/arap/transaction/vendor/${doc.body.id}`)).status, 404);
  t.equal(
    (await other.api('POST', `/arap/transaction/vendor/${doc.body.id}/approve`, other.doc('vendor'))).status,
    404,
  );
  const foreignParty = await other.api(
    'POST',
    '/arap/transaction/vendor',
    other.doc('vendor', { vendor_id: s.parties.vendor.id }),
  );
  t.equal(foreignParty.body.error?.code, 'vc_not_found', 'another company’s vendor does not exist here');
  t.same((await other.api('GET', '/arap/transactions/vendor')).body, []);
  t.equal((await other.api('GET', `/arap/vendor/${s.parties.vendor.id}/bank_accounts`)).status, 404);
  const visible = await s.ledger.db.transaction(async (tx) => {
    await tx.raw(`select set_config('role', 'ledger_app', true), set_config('app.company_id', ?, true)`, [
      String(other.co.company.id),
    ]);
    return tx('ledger_entries').where({ transaction_id: doc.body.id }).count({ n: '*' }).first();
  });
  t.equal(Number(visible?.n), 0, 'RLS hides the ledger lines from the other company');
});

t.test('lists: X-Total-Count, Link next/prev with absolute public URLs, sort', async (t) => {
  const s = await arapSetup(t);
  const dates = ['2024-03-05', '2024-03-01', '2024-03-03', '2024-03-02', '2024-03-04'];
  const ids: number[] = [];
  for (const invDate of dates)
    ids.push((await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { invDate }))).body.id);
  const byDate = [...ids].sort((a, b) => dates[ids.indexOf(a)]!.localeCompare(dates[ids.indexOf(b)]!));
  const idsOf = (r: { body: { id: number }[] }) => r.body.map((d) => d.id);

  const all = await s.api('GET', '/arap/transactions/vendor');
  t.equal(all.headers.get('x-total-count'), '5');
  t.same(idsOf(all), byDate, 'default order: invDate, then id');
  t.equal(all.headers.get('link'), null, 'one page: no Link');

  const base = `/client/${s.co.dataset}/arap/transactions/vendor`;
  const first = await s.api('GET', '/arap/transactions/vendor?limit=2&status=draft');
  t.equal(first.headers.get('x-total-count'), '5');
  t.same(idsOf(first), byDate.slice(0, 2));
  t.equal(
    first.headers.get('link'),
    `<${s.ledger.url}${base}?limit=2&status=draft&offset=2>; rel="next"`,
    'first page: next only, filters kept',
  );
  const middle = await s.api('GET', '/arap/transactions/vendor?limit=2&offset=2&status=draft');
  t.equal(
    middle.headers.get('link'),
    `<${s.ledger.url}${base}?limit=2&offset=4&status=draft>; rel="next", <${s.ledger.url}` +
      `${base}?limit=2&offset=0&status=draft>; rel="prev"`,
  );
  const last = await s.api('GET', '/arap/transactions/vendor?limit=2&offset=4');
  t.same(idsOf(last), byDate.slice(4));
  t.equal(last.headers.get('link'), `<${s.ledger.url}${base}?limit=2&offset=2>; rel="prev"`, 'last page: prev only');
  const filtered = await s.api('GET', '/arap/transactions/vendor?from=2024-03-04&limit=1');
  t.equal(filtered.headers.get('x-total-count'), '2', 'the total counts the filtered rows');

  const proxied = await s.api('GET', '/arap/transactions/vendor?limit=2', undefined, {
    'X-Forwarded-Host': 'books.example',
    'X-Forwarded-Proto': 'https',
  });
  t.equal(
    proxied.headers.get('link'),
    `<https://books.example${base}?limit=2&offset=2>; rel="next"`,
    'built from the public URL behind the gateway',
  );

  t.same(
    idsOf(await s.api('GET', '/arap/transactions/vendor?sort=-inv_date')),
    [...byDate].reverse(),
    'sort=-inv_date',
  );
  t.same(idsOf(await s.api('GET', '/arap/transactions/vendor?sort=id')), ids, 'sort=id');
  t.same(idsOf(await s.api('GET', '/arap/transactions/vendor?sort=-id')), [...ids].reverse(), 'sort=-id');
  t.same(idsOf(await s.api('GET', '/arap/transactions/vendor?sort=inv_date')), byDate, 'sort=inv_date');
  const bad = await s.api('GET', '/arap/transactions/vendor?sort=amount');
  t.equal(bad.status, 400, 'unknown sort → 400');
  t.equal(bad.body.error.field, '/sort');
  t.equal(
    (await s.api('GET', '/arap/transactions/customer')).headers.get('x-total-count'),
    '0',
    'an empty list has a total too',
  );
});
