import t from 'tap';
import { arapSetup, CHART, memberApi } from '../../../test/arapHelpers.ts';

t.test('GET /arap/workstation: drafts of both sides and kinds, oldest first, with who created them', async (t) => {
  const s = await arapSetup(t);
  const clerk = await memberApi(s, s.co, 'clerk');
  const item = (vc: 'vendor' | 'customer') => ({ description: 'Work', quantity: 1, price: 50, account: CHART[vc].line });
  const a = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  const b = await clerk('POST', '/arap/invoice/customer', { customer_id: s.parties.customer.id, invDate: '2024-03-01', items: [item('customer')] });
  const c = await s.api('POST', '/arap/invoice/vendor', { vendor_id: s.parties.vendor.id, invDate: '2024-03-02', items: [item('vendor')], pending: '0' });
  const d = await s.api('POST', '/arap/transaction/customer', s.doc('customer'));
  t.equal(c.status, 201, 'posted: not on the workstation');

  const all = await s.api('GET', '/arap/workstation');
  t.equal(all.status, 200, JSON.stringify(all.body));
  t.same(all.body.map((r: { id: number }) => r.id), [a.body.id, b.body.id, d.body.id], 'oldest first');
  t.equal(all.headers.get('x-total-count'), '3');
  t.match(all.body[0], { vc: 'vendor', kind: 'transaction', createdBy: { via: 'api_key', email: s.co.email } });
  t.match(all.body[1], { vc: 'customer', kind: 'invoice', grossAmount: 50, name: 'Globex Corp', createdBy: { via: 'api_key' } });
  t.not(all.body[1].createdBy.email, s.co.email, 'the clerk created it');
  t.match(all.body[1].createdBy.via_text, /via API key/);

  t.same((await s.api('GET', '/arap/workstation?kind=invoice')).body.map((r: { id: number }) => r.id), [b.body.id]);
  t.same((await s.api('GET', '/arap/workstation?vc=customer')).body.map((r: { id: number }) => r.id), [b.body.id, d.body.id]);
  const page = await s.api('GET', '/arap/workstation?limit=1&offset=5');
  t.same(page.body, []);
  t.equal(page.headers.get('x-total-count'), '3');

  await s.api('POST', `/arap/transaction/vendor/${a.body.id}/approve`, s.doc('vendor'));
  t.same((await s.api('GET', '/arap/workstation')).body.map((r: { id: number }) => r.id), [b.body.id, d.body.id], 'approved drafts leave it');
});
