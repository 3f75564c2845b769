import t from 'tap';
import { arapSetup, CHART, isZero, memberApi, SIDES, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';

/** A valid invoice of a side: two items, one with a discount. */
function invoice(s: ArapSetup, vc: Vc, extra: Record<string, unknown> = {}) {
  return {
    type: 'invoice',
    [`${vc}_id`]: s.parties[vc].id,
    invDate: '2024-03-15',
    items: [
      {
        description: 'Consulting',
        quantity: 2.5,
        unit: 'h',
        price: 120,
        account: CHART[vc].line,
        taxAccount: CHART[vc].tax,
      },
      {
        description: 'Licence',
        quantity: 3,
        price: 33.333333,
        discount: 10,
        account: CHART[vc].line,
        taxAccount: CHART[vc].tax,
      },
    ],
    ...extra,
  };
}

t.test('create, read, approve, list and reverse an invoice (both sides)', async (t) => {
  const s = await arapSetup(t);
  for (const vc of SIDES) {
    const body = invoice(s, vc);
    const created = await s.api('POST', `/arap/invoice/${vc}`, body);
    t.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;

    const draft = await s.api('GET', `/arap/invoice/${vc}/${id}`);
    t.equal(draft.status, 200);
    t.equal(draft.body.kind, 'invoice');
    t.equal(draft.body.type, 'invoice');
    t.equal(draft.body.status, 'draft');
    t.equal(draft.body.currency, 'CHF');
    t.notOk('lines' in draft.body, 'items, not lines');
    // 2.5 × 120 = 300.00; 3 × 33.333333 × 0.9 = 89.9999991 → 90.00
    t.same(
      draft.body.items.map((i: { amount: number }) => i.amount),
      [300, 90],
    );
    t.same(
      draft.body.items.map((i: { tax: number }) => i.tax),
      [24.3, 7.29],
      'tax per item at 8.1 %',
    );
    t.match(draft.body.items[0], {
      description: 'Consulting',
      quantity: 2.5,
      unit: 'h',
      price: 120,
      account: CHART[vc].line,
      taxAccount: CHART[vc].tax,
    });
    t.equal(draft.body.items[1].discount, 10);
    t.equal(draft.body.items[1].price, 33.333333, 'price with 6 decimals kept exactly');
    t.equal(draft.body.netAmount, 390);
    t.equal(draft.body.taxAmount, 31.59);
    t.equal(draft.body.grossAmount, 421.59);
    t.same(draft.body.taxes, [{ taxAccount: CHART[vc].tax, rate: 0.081, base: 390, amount: 31.59 }]);
    t.equal(draft.body.paid, 0);
    t.equal(draft.body.open, 421.59);
    t.equal(draft.body.payment_status, 'open');
    t.equal(draft.body.reminder_level, 0);
    t.same(draft.body.emails, []);
    t.same(draft.body.postings, [], 'a draft is not in the books');
    if (vc === 'customer') t.equal(draft.body.qr_reference, null);
    else t.notOk('qr_reference' in draft.body);
    t.equal(await s.entryCount(id), 0);

    t.equal((await s.api('GET', `/arap/transaction/${vc}/${id}`)).status, 404, 'an invoice is not a transaction');

    const approved = await s.api('POST', `/arap/invoice/${vc}/${id}/approve`, body);
    t.equal(approved.status, 200, JSON.stringify(approved.body));
    t.equal(approved.body.status, 'posted');
    t.equal(approved.body.invNumber, draft.body.invNumber, 'number kept');
    t.equal(approved.body.grossAmount, 421.59);
    t.ok(isZero(await s.documentSum(id)), 'posted lines sum to zero');
    t.equal(await s.entryCount(id), 4, 'one per item, tax, control');

    const list = await s.api('GET', `/arap/invoices/${vc}?status=posted`);
    t.equal(list.status, 200);
    t.same(
      list.body.map((r: { id: number }) => r.id),
      [id],
    );
    t.equal(list.headers.get('x-total-count'), '1');
    t.match(list.body[0], { kind: 'invoice', payment_status: 'open', open: 421.59, grossAmount: 421.59 });

    const reversed = await s.api('POST', `/arap/invoice/${vc}/${id}/reverse`, { date: '2024-03-20' });
    t.equal(reversed.status, 201);
    const reversal = (await s.api('GET', `/arap/invoice/${vc}/${reversed.body.id}`)).body;
    t.equal(reversal.kind, 'invoice');
    t.equal(reversal.reversalOf, id);
    t.same(
      reversal.items.map((i: { quantity: number; amount: number }) => [i.quantity, i.amount]),
      [
        [-2.5, -300],
        [-3, -90],
      ],
    );
    t.equal(reversal.grossAmount, -421.59);
    t.equal((await s.api('GET', `/arap/invoice/${vc}/${id}`)).body.status, 'reversed');
    t.same(
      (await s.audit(id)).map((a: { action: string }) => a.action),
      [],
      'transaction audit entries are not invoice entries',
    );
    const audit = await s.q((tx) =>
      tx('audit_log')
        .where({ entity: `${vc}_invoice`, entity_id: String(id) })
        .orderBy('id')
        .pluck('action'),
    );
    t.same(audit, ['create', 'approve', 'reverse']);
  }
  t.ok(isZero(await s.companySum()));
});

t.test('customer fields, terms from the customer, due date, posted at once', async (t) => {
  const s = await arapSetup(t);
  await s.api('POST', `/arap/customer/${s.parties.customer.id}`, { name: 'Globex Corp', terms: 30 });
  const body = invoice(s, 'customer', {
    pending: '0',
    notes: 'Thank you',
    shippingpoint: 'Zurich',
    ordNumber: 'O-1',
    poNumber: 'PO-9',
    documentNumber: 'X-1',
  });
  const created = await s.api('POST', '/arap/invoice/customer', body);
  t.equal(created.status, 201, JSON.stringify(created.body));
  const read = (await s.api('GET', `/arap/invoice/customer/${created.body.id}`)).body;
  t.match(read, {
    status: 'posted',
    notes: 'Thank you',
    shippingpoint: 'Zurich',
    ordNumber: 'O-1',
    poNumber: 'PO-9',
    terms: 30,
    dueDate: '2024-04-14',
  });
  t.ok(isZero(await s.documentSum(created.body.id)));

  const own = await s.api('POST', '/arap/invoice/customer', invoice(s, 'customer', { terms: 10 }));
  t.match((await s.api('GET', `/arap/invoice/customer/${own.body.id}`)).body, { terms: 10, dueDate: '2024-03-25' });
  const due = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { terms: 10, dueDate: '2024-05-01' }),
  );
  t.match(
    (await s.api('GET', `/arap/invoice/customer/${due.body.id}`)).body,
    { terms: 10, dueDate: '2024-05-01' },
    'a dueDate sent wins',
  );

  const vendorNotes = await s.api('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { notes: 'x' }));
  t.equal(vendorNotes.status, 400, 'notes are customer-only');
});

t.test('foreign currency: items in the document currency, posted balanced in the base currency', async (t) => {
  const s = await arapSetup(t);
  const r = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { curr: 'EUR', exchangerate: 0.937, pending: '0' }),
  );
  t.equal(r.status, 201, JSON.stringify(r.body));
  const read = (await s.api('GET', `/arap/invoice/customer/${r.body.id}`)).body;
  t.equal(read.currency, 'EUR');
  t.equal(read.grossAmount, 421.59);
  t.equal(read.baseGrossAmount, 395.03);
  t.ok(isZero(await s.documentSum(r.body.id)));
  const bad = await s.api('POST', '/arap/invoice/customer', { ...invoice(s, 'customer'), currency: 'EUR' });
  t.equal(bad.body.error.code, 'invalid_currency');
});

t.test('item rules: 400 with the item field, nothing written', async (t) => {
  const s = await arapSetup(t);
  const item = invoice(s, 'vendor').items[0]!;
  const cases: [Record<string, unknown>, string][] = [
    [{ ...item, quantity: 0 }, '/items/0/quantity'],
    [{ ...item, quantity: 1.0000001 }, '/items/0/quantity'],
    [{ ...item, price: 0.0000001 }, '/items/0/price'],
    [{ ...item, discount: 101 }, '/items/0/discount'],
    [{ ...item, discount: -1 }, '/items/0/discount'],
    [{ ...item, description: undefined }, '/items/0/description'],
    [{ ...item, account: undefined }, '/items/0/account'],
    [{ ...item, price: undefined }, '/items/0/price'],
    [{ ...item, account: CHART.vendor.wrongLine }, '/items/0/account'],
    [{ ...item, taxAccount: CHART.vendor.wrongTax }, '/items/0/taxAccount'],
    [{ ...item, service_id: 999999 }, '/items/0/service_id'],
    [{ ...item, partnumber: 'NOPE' }, '/items/0/partnumber'],
    [{ ...item, amount: 5 }, '/items/0'],
    [{ ...item, quantity: 1e12, price: 10 }, '/items/0/quantity'],
  ];
  for (const [bad, field] of cases) {
    const r = await s.api(
      'POST',
      '/arap/invoice/vendor',
      invoice(s, 'vendor', { items: [JSON.parse(JSON.stringify(bad))] }),
    );
    t.equal(r.status, 400, `${JSON.stringify(bad)} → 400`);
    t.equal(r.body.error.code, 'invalid_request');
    t.equal(
      r.body.error.field?.startsWith(field),
      true,
      `${JSON.stringify(bad)}: field ${r.body.error.field} starts with ${field}`,
    );
  }
  t.equal(
    (await s.api('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { items: [] }))).status,
    400,
    'at least one item',
  );
  t.equal(
    (await s.api('POST', '/arap/invoice/vendor', { ...invoice(s, 'vendor'), lines: [] })).status,
    400,
    'lines are not an invoice field',
  );
  const noParty = await s.api('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { vendor_id: 999999 }));
  t.equal(noParty.body.error.code, 'vc_not_found');
  t.equal(Number((await s.q((tx) => tx('arap_transactions').count({ n: '*' }).first()))?.n), 0, 'nothing written');
  t.equal(Number((await s.q((tx) => tx('invoice_items').count({ n: '*' }).first()))?.n), 0);
});

t.test('items from the services catalogue', async (t) => {
  const s = await arapSetup(t);
  const accounts = await s.q((tx) => tx('accounts').whereIn('accno', ['3400', '2200']).select('id', 'accno'));
  const idOf = (accno: string) => accounts.find((a: { accno: string }) => a.accno === accno)!.id;
  const [service] = await s.q((tx) =>
    tx('services')
      .insert({
        company_id: s.co.company.id,
        partnumber: 'SRV-1',
        description: 'Support hour',
        unit: 'h',
        price: '150.5',
        currency: 'CHF',
        income_account_id: idOf('3400'),
        tax_account_id: idOf('2200'),
      })
      .returning('id'),
  );
  const serviceId = Number(service.id);
  const r = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', {
      items: [
        { service_id: serviceId, quantity: 2 },
        { partnumber: 'SRV-1', quantity: 1, price: 100, description: 'Discounted hour' },
      ],
    }),
  );
  t.equal(r.status, 201, JSON.stringify(r.body));
  const read = (await s.api('GET', `/arap/invoice/customer/${r.body.id}`)).body;
  t.match(read.items[0], {
    service_id: serviceId,
    partnumber: 'SRV-1',
    description: 'Support hour',
    unit: 'h',
    price: 150.5,
    account: '3400',
    taxAccount: '2200',
    amount: 301,
  });
  t.match(read.items[1], { service_id: serviceId, description: 'Discounted hour', price: 100, amount: 100 });
  const eur = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { curr: 'EUR', exchangerate: 0.9, items: [{ service_id: serviceId, quantity: 1 }] }),
  );
  t.equal(eur.status, 400, 'a CHF price is not taken for an EUR invoice');
  t.equal(eur.body.error.field, '/items/0/price');
  const vendorSide = await s.api(
    'POST',
    '/arap/invoice/vendor',
    invoice(s, 'vendor', { items: [{ service_id: serviceId, quantity: 1 }] }),
  );
  t.equal(vendorSide.body.error.field, '/items/0/account', 'no expense account on the service');
});

t.test('update replaces the items; delete drafts only; closed period; files', async (t) => {
  const s = await arapSetup(t);
  const body = invoice(s, 'vendor', { files: [{ name: 'bill.txt', data: 'data:text/plain;base64,aGVsbG8=' }] });
  const created = await s.api('POST', '/arap/invoice/vendor', body);
  const id = created.body.id as number;
  const updated = await s.api('POST', `/arap/invoice/vendor/${id}`, {
    ...body,
    items: [{ description: 'One', quantity: 1, price: 10, account: CHART.vendor.line }],
  });
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.equal(updated.body.items.length, 1);
  t.equal(updated.body.grossAmount, 10);
  t.equal(updated.body.files.length, 1, 'the same file is not attached twice');
  const file = await fetch(updated.body.files[0].url, { headers: { 'X-API-Key': s.co.apiKey } });
  t.equal(file.status, 200);
  t.equal(await file.text(), 'hello');
  const incomplete = await s.api('POST', `/arap/invoice/vendor/${id}`, {
    vendor_id: s.parties.vendor.id,
    invDate: '2024-03-15',
  });
  t.equal(incomplete.status, 400);
  t.match(incomplete.body.error.message, /items/);

  t.equal((await s.api('POST', '/system/close_books', { date: '2024-03-31' })).status, 200);
  const closed = await s.api('POST', '/arap/invoice/vendor', body);
  t.equal(closed.body.error.code, 'closed_period');
  t.equal((await s.api('DELETE', `/arap/invoice/vendor/${id}`)).body.error.code, 'closed_period');
  t.equal((await s.api('POST', '/system/close_books', { date: '2024-01-31', reopen: true })).status, 200);

  t.equal((await s.api('DELETE', `/arap/invoice/vendor/${id}`)).status, 204);
  t.equal((await s.api('GET', `/arap/invoice/vendor/${id}`)).status, 404);
  t.equal(
    Number((await s.q((tx) => tx('invoice_items').count({ n: '*' }).first()))?.n),
    0,
    'items deleted with the invoice',
  );
  const posted = await s.api('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { pending: '0' }));
  t.equal((await s.api('DELETE', `/arap/invoice/vendor/${posted.body.id}`)).status, 409);
  t.equal(
    (await s.api('POST', `/arap/invoice/customer/${posted.body.id}/approve`, invoice(s, 'customer'))).status,
    404,
    'not on the other side',
  );
});

t.test('permissions and approval limit', async (t) => {
  const s = await arapSetup(t);
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('POST', '/arap/invoice/customer', invoice(s, 'customer'))).status, 403);
  const clerk = await memberApi(s, s.co, 'clerk');
  const draft = await clerk('POST', '/arap/invoice/vendor', invoice(s, 'vendor'));
  t.equal(draft.status, 201, JSON.stringify(draft.body));
  t.equal(
    (await clerk('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { pending: '0' }))).status,
    403,
    'posting needs approve',
  );
  t.equal((await viewer('GET', `/arap/invoice/vendor/${draft.body.id}`)).status, 200, 'viewers read');
  const limited = await memberApi(s, s.co, 'accountant', '400');
  const over = await limited('POST', '/arap/invoice/vendor', invoice(s, 'vendor', { pending: '0' }));
  t.equal(over.body.error.code, 'amount_exceeded');
});

t.test('list filters, numbering shared with transactions, paging', async (t) => {
  const s = await arapSetup(t);
  const a = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { invDate: '2024-01-10', dueDate: '2024-01-20', pending: '0', documentNumber: 'D-A' }),
  );
  const b = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { invDate: '2024-02-10', dueDate: '2099-01-01', pending: '0' }),
  );
  const c = await s.api(
    'POST',
    '/arap/invoice/customer',
    invoice(s, 'customer', { invDate: '2024-03-10', invNumber: 'OWN-1' }),
  );
  const tx = await s.api('POST', '/arap/transaction/customer', s.doc('customer'));
  const ids = async (q: string) =>
    (await s.api('GET', `/arap/invoices/customer${q}`)).body.map((r: { id: number }) => r.id);
  t.same(await ids(''), [a.body.id, b.body.id, c.body.id], 'only invoices, by invDate');
  t.same(await ids('?sort=-inv_date'), [c.body.id, b.body.id, a.body.id]);
  t.same(await ids('?status=draft'), [c.body.id]);
  t.same(await ids('?overdue=true'), [a.body.id]);
  t.same(await ids('?overdue=false'), [b.body.id, c.body.id]);
  t.same(await ids('?payment_status=open'), [a.body.id, b.body.id, c.body.id]);
  t.same(await ids('?payment_status=paid'), []);
  t.same(await ids('?from=2024-02-01&to=2024-02-28'), [b.body.id]);
  t.same(await ids('?document_number=D-A'), [a.body.id]);
  t.same(await ids('?inv_number=OWN-1'), [c.body.id]);
  t.same(await ids(`?customer_id=${s.parties.customer.id}&limit=1&offset=1`), [b.body.id]);
  t.same(await ids('?customer_id=999999'), []);
  t.equal((await s.api('GET', '/arap/invoices/customer?payment_status=bogus')).status, 400);
  const numbers = [a, b, tx].map((r) => r.body.id);
  const invNumbers = await s.q((q) => q('arap_transactions').whereIn('id', numbers).orderBy('id').pluck('inv_number'));
  t.same(invNumbers, ['AR-000001', 'AR-000002', 'AR-000003'], 'one sequence for transactions and invoices');
  t.equal(
    (await s.api('POST', '/arap/invoice/customer', invoice(s, 'customer', { invNumber: 'OWN-1' }))).status,
    409,
    'taken number',
  );
  const txList = await s.api('GET', '/arap/transactions/customer');
  t.same(
    txList.body.map((r: { id: number }) => r.id),
    [tx.body.id],
    'the transaction list has no invoices',
  );
});
