import t from 'tap';
import { contracts } from '@ledger/shared';
import { apiClient } from '../../../test/helpers.ts';
import { arapSetup, CHART, memberApi, SIDES, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';

/**
 * GET /arap/documents/{vc} and /arap/document/{vc}/{id}: transactions and invoices with items
 * together, told apart by `kind` (the test client checks every answer against the contract's
 * response schema). The REST lists of each kind stay as they were.
 */

function invoice(s: ArapSetup, vc: Vc, extra: Record<string, unknown> = {}) {
  return {
    type: 'invoice',
    [`${vc}_id`]: s.parties[vc].id,
    invDate: '2024-03-15',
    items: [{ description: 'Consulting', quantity: 2, price: 100, account: CHART[vc].line, taxAccount: CHART[vc].tax }],
    ...extra,
  };
}

const idsOf = (body: { id: number }[]) => body.map((r) => r.id);

t.test('one document of either kind, with kind; 404 for neither', async (t) => {
  const s = await arapSetup(t);
  for (const vc of SIDES) {
    const tx = await s.api('POST', `/arap/transaction/${vc}`, s.doc(vc, { pending: '0' }));
    const inv = await s.api('POST', `/arap/invoice/${vc}`, invoice(s, vc, { pending: '0' }));
    t.equal(tx.status, 201);
    t.equal(inv.status, 201, JSON.stringify(inv.body));

    const asTransaction = await s.api('GET', `/arap/document/${vc}/${tx.body.id}`);
    t.equal(asTransaction.status, 200);
    const restTransaction = await s.api('GET', `/arap/transaction/${vc}/${tx.body.id}`);
    t.same(
      asTransaction.body,
      { kind: 'transaction', ...restTransaction.body },
      `${vc}: the transaction's read shape plus kind`,
    );
    t.ok(Array.isArray(asTransaction.body.lines), 'with lines');

    const asInvoice = await s.api('GET', `/arap/document/${vc}/${inv.body.id}`);
    t.equal(asInvoice.status, 200);
    const restInvoice = await s.api('GET', `/arap/invoice/${vc}/${inv.body.id}`);
    t.same(asInvoice.body, restInvoice.body, `${vc}: the invoice's read shape`);
    t.equal(asInvoice.body.kind, 'invoice');
    t.equal(asInvoice.body.items.length, 1, 'with items');
    t.notOk('kind' in restTransaction.body, 'GET /arap/transaction answers as before, without kind');

    const other: Vc = vc === 'vendor' ? 'customer' : 'vendor';
    const wrongSide = await s.api('GET', `/arap/document/${other}/${tx.body.id}`);
    t.equal(wrongSide.status, 404, 'a document of the other side is not found');
    t.equal(wrongSide.body.error.code, 'not_found');
  }
  const missing = await s.api('GET', '/arap/document/customer/999999999');
  t.equal(missing.status, 404);
  t.match(missing.body.error.message, /No customer document/);
  t.equal((await s.api('GET', '/arap/document/customer/abc')).status, 404, 'a malformed id as elsewhere');
});

t.test('the list: both kinds in one order, filters both lists share, kind, paging headers', async (t) => {
  const s = await arapSetup(t);
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await s.api('POST', path, body);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  // invDate order: i1 (01-10), t1 (01-10, created after i1), t2 (02-01), i2 (03-05), t3 (04-01)
  const i1 = await post(
    '/arap/invoice/customer',
    invoice(s, 'customer', { invDate: '2024-01-10', pending: '0', documentNumber: 'D-I1' }),
  );
  const t1 = await post('/arap/transaction/customer', s.doc('customer', { invDate: '2024-01-10', pending: '0' }));
  const t3 = await post(
    '/arap/transaction/customer',
    s.doc('customer', { invDate: '2024-04-01', invNumber: 'OWN-T3' }),
  );
  const i2 = await post('/arap/invoice/customer', invoice(s, 'customer', { invDate: '2024-03-05' }));
  const t2 = await post(
    '/arap/transaction/customer',
    s.doc('customer', { invDate: '2024-02-01', documentNumber: 'D-T2', pending: '0' }),
  );
  const vendorBill = await post('/arap/transaction/vendor', s.doc('vendor', { invDate: '2024-01-01' }));

  const list = async (q = '') => {
    const res = await s.api('GET', `/arap/documents/customer${q}`);
    t.equal(res.status, 200, JSON.stringify(res.body));
    return res;
  };
  const all = await list();
  t.same(idsOf(all.body), [i1, t1, t2, i2, t3], 'both kinds, by invDate, then id');
  t.same(
    all.body.map((r: { kind: string }) => r.kind),
    ['invoice', 'transaction', 'transaction', 'invoice', 'transaction'],
    'each with its kind',
  );
  t.equal(all.headers.get('x-total-count'), '5');
  const restTransactions = (await s.api('GET', '/arap/transactions/customer')).body;
  const restInvoices = (await s.api('GET', '/arap/invoices/customer')).body;
  t.same(
    all.body[1],
    { kind: 'transaction', ...restTransactions[0] },
    "a transaction row: the transaction list's row plus kind",
  );
  t.same(all.body[0], restInvoices[0], "an invoice row: the invoice list's row");
  t.same(idsOf(restTransactions), [t1, t2, t3], 'the transaction list still shows only transactions');
  t.same(idsOf(restInvoices), [i1, i2], 'the invoice list only invoices');

  t.same(idsOf((await list('?sort=-inv_date')).body), [t3, i2, t2, t1, i1], 'descending, id descending on a tie');
  t.same(idsOf((await list('?sort=id')).body), [i1, t1, t3, i2, t2]);
  t.same(idsOf((await list('?sort=-id')).body), [t2, i2, t3, t1, i1]);
  t.same(idsOf((await list('?kind=invoice')).body), [i1, i2]);
  t.same(idsOf((await list('?kind=transaction')).body), [t1, t2, t3]);
  t.same(idsOf((await list('?status=draft')).body), [i2, t3]);
  t.same(idsOf((await list('?status=posted&kind=invoice')).body), [i1]);
  t.same(idsOf((await list('?from=2024-01-11&to=2024-03-31')).body), [t2, i2]);
  t.same(idsOf((await list('?document_number=D-I1')).body), [i1]);
  t.same(idsOf((await list('?document_number=D-T2')).body), [t2]);
  t.same(idsOf((await list('?inv_number=OWN-T3')).body), [t3]);
  t.same(idsOf((await list(`?customer_id=${s.parties.customer.id}`)).body), [i1, t1, t2, i2, t3]);
  t.same(idsOf((await list(`?customernumber=${s.parties.customer.number}&kind=invoice`)).body), [i1, i2]);
  t.same(idsOf((await list('?customer_id=999999')).body), []);
  t.same(idsOf((await s.api('GET', '/arap/documents/vendor')).body), [vendorBill], 'one side only');

  // pages over the merged order
  const pages: number[] = [];
  for (let offset = 0; offset < 5; offset += 2) {
    const page = await list(`?limit=2&offset=${offset}`);
    t.equal(page.headers.get('x-total-count'), '5', 'X-Total-Count counts both kinds');
    pages.push(...idsOf(page.body));
  }
  t.same(pages, [i1, t1, t2, i2, t3], 'pages of two walk the same order');
  const middle = await list('?limit=1&offset=2');
  t.same(idsOf(middle.body), [t2]);
  t.match(middle.headers.get('link'), /rel="next".*rel="prev"|rel="prev".*rel="next"/, 'Link headers');
  t.same(idsOf((await list('?limit=2&offset=3&sort=-inv_date')).body), [t1, i1]);
  t.same(idsOf((await list('?offset=5')).body), []);

  t.equal(
    (await s.api('GET', '/arap/documents/customer?payment_status=open')).status,
    400,
    'invoice-only filters are not shared',
  );
  t.equal((await s.api('GET', '/arap/documents/customer?kind=bill')).status, 400);
  t.equal((await s.api('GET', '/arap/documents/customer?sort=due_date')).status, 400);
  t.equal(
    (await s.api('GET', '/arap/documents/customer?payment_file=1')).status,
    400,
    'payment_file is a vendor filter',
  );
  t.equal((await s.api('GET', '/arap/documents/vendor?payment_file=0')).status, 200);
});

t.test('permissions and scope: the read permission of each side, invoices:read', async (t) => {
  for (const c of [contracts.listDocuments, contracts.getDocument]) {
    t.same(
      c.permission,
      { vendor: 'vendors.reports.transactions', customer: 'customers.reports.transactions' },
      `${c.name}: per side`,
    );
    t.equal(c.scope, 'invoices:read');
    t.equal(c.method, 'GET', 'read only');
  }
  const s = await arapSetup(t);
  const id = (await s.api('POST', '/arap/invoice/vendor', invoice(s, 'vendor'))).body.id as number;
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('GET', `/arap/document/vendor/${id}`)).status, 200, 'viewers read');
  t.same(idsOf((await viewer('GET', '/arap/documents/vendor')).body), [id]);
  t.equal(
    (await apiClient(s.ledger.url, s.co.dataset, undefined)('GET', '/arap/documents/vendor')).status,
    401,
    'no key, no list',
  );
});
