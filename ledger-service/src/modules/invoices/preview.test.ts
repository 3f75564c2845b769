/**
 * POST /arap/invoices/{vc}/preview (docs/invoices.md "Previewing an invoice"): the amounts a
 * createInvoice body would have, by the invoice's own rules, and nothing written: no invoice,
 * no number used, no audit entry; refusals as createInvoice's; the write permission needed.
 */
import t from 'tap';
import { arapSetup, CHART, memberApi, SIDES, type ArapSetup, type Vc } from '../../../test/arapHelpers.ts';

/** Two rates: 2.5 h × 120 at 8.1 %, 3 × 33.333333 less 10 % at 2.6 %. */
const body = (s: ArapSetup, vc: Vc, extra: Record<string, unknown> = {}) => ({
  [`${vc}_id`]: s.parties[vc].id,
  invDate: '2024-03-15',
  items: [
    { description: 'Consulting', quantity: 2.5, price: 120, account: CHART[vc].line, taxAccount: CHART[vc].tax },
    {
      description: 'Books',
      quantity: 3,
      price: 33.333333,
      discount: 10,
      account: CHART[vc].line,
      taxAccount: CHART[vc].taxReduced,
    },
  ],
  ...extra,
});

const count = (s: ArapSetup, table: string) =>
  s.q(async (tx) => Number((await tx(table).count({ n: '*' }).first())?.n ?? 0));

t.test('a preview computes what the invoice would be and writes nothing (both sides)', async (t) => {
  const s = await arapSetup(t);
  for (const vc of SIDES) {
    const before = {
      documents: await count(s, 'arap_transactions'),
      audit: await count(s, 'audit_log'),
      entries: await count(s, 'ledger_entries'),
    };
    const preview = await s.api('POST', `/arap/invoices/${vc}/preview`, body(s, vc, { pending: '0' }));
    t.equal(preview.status, 200, JSON.stringify(preview.body));
    t.same(
      preview.body.items.map((i: { amount: number; tax: number }) => [i.amount, i.tax]),
      [
        [300, 24.3],
        [90, 2.34],
      ],
      'each item by the rules of an invoice: quantity × price less discount, rounded, then its tax',
    );
    t.same(
      preview.body.taxes,
      [
        { taxAccount: CHART[vc].tax, rate: 0.081, base: 300, amount: 24.3 },
        { taxAccount: CHART[vc].taxReduced, rate: 0.026, base: 90, amount: 2.34 },
      ],
      'VAT per rate on its base',
    );
    t.match(preview.body, { netAmount: 390, taxAmount: 26.64, grossAmount: 416.64, currency: 'CHF' });
    t.notOk('id' in preview.body, 'no id');
    t.notOk('invNumber' in preview.body, 'no number');
    t.same(
      {
        documents: await count(s, 'arap_transactions'),
        audit: await count(s, 'audit_log'),
        entries: await count(s, 'ledger_entries'),
      },
      before,
      'no document, no ledger line, no audit entry (the body asked to post: a preview posts nothing)',
    );

    // the next invoice gets the number it would have had without the preview
    const first = await s.api('POST', `/arap/invoice/${vc}`, body(s, vc));
    await s.api('POST', `/arap/invoices/${vc}/preview`, body(s, vc));
    const second = await s.api('POST', `/arap/invoice/${vc}`, body(s, vc));
    const numberOf = async (id: number) => (await s.api('GET', `/arap/invoice/${vc}/${id}`)).body.invNumber as string;
    const [a, b] = [await numberOf(first.body.id), await numberOf(second.body.id)];
    t.equal(Number(b.replace(/\D/g, '')) - Number(a.replace(/\D/g, '')), 1, `no number used between ${a} and ${b}`);
  }
});

t.test('a preview refuses what the invoice would refuse, with the field; the write permission is needed', async (t) => {
  const s = await arapSetup(t);
  const vc: Vc = 'customer';
  const unknown = await s.api(
    'POST',
    `/arap/invoices/${vc}/preview`,
    body(s, vc, { items: [{ description: 'X', quantity: 1, price: 10, account: '9999' }] }),
  );
  t.equal(unknown.status, 400);
  t.match(unknown.body.error, { field: /items.*0.*account/ });
  const noParty = await s.api('POST', `/arap/invoices/${vc}/preview`, body(s, vc, { customer_id: 999999 }));
  t.equal(noParty.status, 400);
  t.equal(noParty.body.error.code, 'vc_not_found');
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('POST', `/arap/invoices/${vc}/preview`, body(s, vc))).status, 403, 'a viewer may not');
  const clerk = await memberApi(s, s.co, 'clerk');
  t.equal(
    (await clerk('POST', `/arap/invoices/${vc}/preview`, body(s, vc))).status,
    200,
    'a clerk who writes invoices may',
  );
});
