import t from 'tap';
import { arapSetup, CHART, memberApi } from '../../../test/arapHelpers.ts';
import { journalVisible } from './workstation.ts';

t.test('GET /arap/workstation: drafts of both sides and kinds, oldest first, with who created them', async (t) => {
  const s = await arapSetup(t);
  const clerk = await memberApi(s, s.co, 'clerk');
  const item = (vc: 'vendor' | 'customer') => ({
    description: 'Work',
    quantity: 1,
    price: 50,
    account: CHART[vc].line,
  });
  const a = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  const b = await clerk('POST', '/arap/invoice/customer', {
    customer_id: s.parties.customer.id,
    invDate: '2024-03-01',
    items: [item('customer')],
  });
  const c = await s.api('POST', '/arap/invoice/vendor', {
    vendor_id: s.parties.vendor.id,
    invDate: '2024-03-02',
    items: [item('vendor')],
    pending: '0',
  });
  const d = await s.api('POST', '/arap/transaction/customer', s.doc('customer'));
  t.equal(c.status, 201, 'posted: not on the workstation');

  const all = await s.api('GET', '/arap/workstation');
  t.equal(all.status, 200, JSON.stringify(all.body));
  t.same(
    all.body.map((r: { id: number }) => r.id),
    [a.body.id, b.body.id, d.body.id],
    'oldest first',
  );
  t.equal(all.headers.get('x-total-count'), '3');
  t.match(all.body[0], { vc: 'vendor', kind: 'transaction', createdBy: { via: 'api_key', email: s.co.email } });
  t.match(all.body[1], {
    vc: 'customer',
    kind: 'invoice',
    grossAmount: 50,
    name: 'Globex Corp',
    createdBy: { via: 'api_key' },
  });
  t.not(all.body[1].createdBy.email, s.co.email, 'the clerk created it');
  t.match(all.body[1].createdBy.via_text, /via API key/);

  t.same(
    (await s.api('GET', '/arap/workstation?kind=invoice')).body.map((r: { id: number }) => r.id),
    [b.body.id],
  );
  t.same(
    (await s.api('GET', '/arap/workstation?vc=customer')).body.map((r: { id: number }) => r.id),
    [b.body.id, d.body.id],
  );
  const page = await s.api('GET', '/arap/workstation?limit=1&offset=5');
  t.same(page.body, []);
  t.equal(page.headers.get('x-total-count'), '3');

  await s.api('POST', `/arap/transaction/vendor/${a.body.id}/approve`, s.doc('vendor'));
  t.same(
    (await s.api('GET', '/arap/workstation')).body.map((r: { id: number }) => r.id),
    [b.body.id, d.body.id],
    'approved drafts leave it',
  );
});

t.test('GET /arap/workstation: journal-entry drafts too, for members who read journal entries', async (t) => {
  const s = await arapSetup(t);
  const bill = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  const entry = await s.api('POST', '/gl/transactions', {
    reference: 'RENT-1',
    transdate: '2024-03-05',
    lines: [
      { account: CHART.vendor.line, debit: 1200.5 },
      { account: '1020', credit: 1200.5 },
    ],
  });
  t.equal(entry.status, 201, JSON.stringify(entry.body));
  await s.api('POST', '/gl/transactions', {
    transdate: '2024-03-05',
    pending: '0',
    lines: [
      { account: CHART.vendor.line, debit: 1 },
      { account: '1020', credit: 1 },
    ],
  });

  const all = await s.api('GET', '/arap/workstation');
  t.same(
    all.body.map((r: { kind: string; id: number }) => [r.kind, r.id]),
    [
      ['transaction', bill.body.id],
      ['journal', entry.body.id],
    ],
    'the journal draft after the older bill; the posted entry is not listed',
  );
  t.equal(all.headers.get('x-total-count'), '2');
  const row = all.body[1];
  t.match(row, {
    kind: 'journal',
    invNumber: 'RENT-1',
    invDate: '2024-03-05',
    currency: 'CHF',
    grossAmount: 1200.5,
    createdBy: { via: 'api_key', email: s.co.email },
  });
  t.notOk('vc' in row || 'party_id' in row || 'name' in row, 'no side, no party');

  const only = await s.api('GET', '/arap/workstation?kind=journal');
  t.same(
    only.body.map((r: { id: number }) => r.id),
    [entry.body.id],
  );
  t.same((await s.api('GET', '/arap/workstation?vc=vendor')).body.length, 1, 'a side leaves journal entries out');
  const past = await s.api('GET', '/arap/workstation?limit=1&offset=5');
  t.equal(past.headers.get('x-total-count'), '2', 'counted past the last page');

  await s.api('POST', `/gl/transactions/${entry.body.id}`, {
    reference: 'RENT-1',
    transdate: '2024-03-05',
    pending: '0',
    lines: [
      { account: CHART.vendor.line, debit: 1200.5 },
      { account: '1020', credit: 1200.5 },
    ],
  });
  t.same((await s.api('GET', '/arap/workstation?kind=journal')).body, [], 'a posted entry leaves it');
});

t.test('journalVisible: members who read journal entries; AI connections only with accounting:read', async (t) => {
  const ai = (scopes: string[]) => ({ kind: 'ai_connection' as const, id: 'c', label: 'Claude', scopes });
  const key = { kind: 'api_key' as const, id: 1, label: 'erp' };
  t.equal(journalVisible({ role: 'viewer', via: key }), true, 'every role reads journal entries');
  t.equal(journalVisible({ role: 'accountant', via: ai(['invoices:read']) }), false, 'invoices:read is not enough');
  t.equal(journalVisible({ role: 'accountant', via: ai(['invoices:read', 'accounting:read']) }), true);
  t.equal(journalVisible({ role: 'owner', via: { kind: 'app', id: null, label: 'app' } }), true);
});
