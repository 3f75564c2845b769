/**
 * Quotes (docs/invoices.md "Quotes") over HTTP on real Postgres: created and checked like an
 * invoice without touching the ledger, read with computed amounts, listed by status, printed in
 * the customer's language, their status set, turned into a draft invoice once, and the refusals
 * (a declined or expired quote, a last day before the date) that write nothing.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';
import { pdfText } from '../../../test/support/pdf.ts';

async function setup(t: { teardown(fn: () => unknown): void }) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', { name: 'Client SA', language: 'fr' });
  if (customer.status !== 201) throw new Error(JSON.stringify(customer.body));
  const quote = (extra: Record<string, unknown> = {}) => ({
    customer_id: customer.body.id,
    invDate: '2026-01-10',
    valid_until: '2099-12-31',
    notes: 'Merci de votre confiance.',
    items: [
      { description: 'Conseil', quantity: 4, unit: 'h', price: 180, account: CHART.customer.line, taxAccount: '2200' },
    ],
    ...extra,
  });
  const ledgerLines = async () => {
    const res = await api('GET', '/reports/trial_balance?from=2000-01-01&to=2100-12-31');
    return JSON.stringify(res.body);
  };
  const pdf = async (id: number, query = '') => {
    const res = await fetch(`${ledger.url}/client/${co.dataset}/arap/quote/customer/${id}/pdf${query}`, {
      headers: { 'X-API-Key': co.apiKey },
    });
    if (res.status !== 200) throw new Error(`pdf ${res.status}`);
    return pdfText(Buffer.from(await res.arrayBuffer()));
  };
  return { api, quote, ledgerLines, pdf, customerId: customer.body.id as number };
}

t.test(
  'a quote is checked and computed like an invoice, printed in French, and never touches the ledger',
  async (t) => {
    const s = await setup(t);
    const before = await s.ledgerLines();
    const created = await s.api('POST', '/arap/quote/customer', s.quote());
    t.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;
    const read = (await s.api('GET', `/arap/quote/customer/${id}`)).body;
    t.match(read, {
      id,
      status: 'draft',
      customer_id: s.customerId,
      name: 'Client SA',
      invDate: '2026-01-10',
      valid_until: '2099-12-31',
      netAmount: 720,
      taxAmount: 58.32,
      grossAmount: 778.32,
      currency: 'CHF',
      invoice_id: null,
      notes: 'Merci de votre confiance.',
    });
    t.match(read.number, /^QT-\d+$/);
    t.match(read.items[0], { description: 'Conseil', amount: 720, tax: 58.32 });
    t.equal(await s.ledgerLines(), before, 'no ledger line');

    const text = await s.pdf(id);
    t.match(text, `Offre ${read.number}`);
    t.match(text, 'Valable jusqu');
    t.notMatch(text, 'Section paiement', 'a quote has no payment part');
    t.match(await s.pdf(id, '?language=de'), `Offerte ${read.number}`);

    const list = await s.api('GET', '/arap/quotes/customer?status=draft');
    t.equal(list.status, 200);
    t.same(
      list.body.map((q: { id: number }) => q.id),
      [id],
    );

    const updated = await s.api('POST', `/arap/quote/customer/${id}`, s.quote({ valid_until: '2099-06-30' }));
    t.equal(updated.status, 200, JSON.stringify(updated.body));
    t.equal(updated.body.valid_until, '2099-06-30');

    const accepted = await s.api('POST', `/arap/quote/customer/${id}/status`, { status: 'accepted' });
    t.equal(accepted.status, 200, JSON.stringify(accepted.body));
    t.equal(accepted.body.status, 'accepted');

    const invoiced = await s.api('POST', `/arap/quote/customer/${id}/invoice`, { invDate: '2026-02-01' });
    t.equal(invoiced.status, 201, JSON.stringify(invoiced.body));
    const invoice = (await s.api('GET', `/arap/invoice/customer/${invoiced.body.id}`)).body;
    t.match(invoice, { status: 'draft', grossAmount: 778.32, invDate: '2026-02-01', customer_id: s.customerId });
    t.equal(invoice.items[0].description, 'Conseil');
    const after = (await s.api('GET', `/arap/quote/customer/${id}`)).body;
    t.match(after, { status: 'invoiced', invoice_id: invoiced.body.id });
    const twice = await s.api('POST', `/arap/quote/customer/${id}/invoice`, {});
    t.equal(twice.status, 409, 'an invoiced quote becomes no second invoice');
    t.equal((await s.api('DELETE', `/arap/quote/customer/${id}`)).status, 409);
  },
);

t.test('refusals write nothing: declined and expired quotes, bad dates and items', async (t) => {
  const s = await setup(t);
  const declined = (await s.api('POST', '/arap/quote/customer', s.quote())).body.id as number;
  t.equal((await s.api('POST', `/arap/quote/customer/${declined}/status`, { status: 'declined' })).status, 200);
  const refused = await s.api('POST', `/arap/quote/customer/${declined}/invoice`, {});
  t.equal(refused.status, 409);
  t.match(refused.body.error.message, /declined/);

  const expired = (await s.api('POST', '/arap/quote/customer', s.quote({ valid_until: '2026-01-31' }))).body
    .id as number;
  t.equal((await s.api('GET', `/arap/quote/customer/${expired}`)).body.status, 'expired');
  t.equal((await s.api('POST', `/arap/quote/customer/${expired}/invoice`, {})).status, 409);
  t.equal((await s.api('POST', `/arap/quote/customer/${expired}/status`, { status: 'accepted' })).status, 409);
  const expiredList = await s.api('GET', '/arap/quotes/customer?status=expired');
  t.same(
    expiredList.body.map((q: { id: number }) => q.id),
    [expired],
  );
  const invoices = await s.api('GET', '/arap/invoices/customer');
  t.equal(invoices.body.length, 0, 'no invoice was made');

  const backwards = await s.api('POST', '/arap/quote/customer', s.quote({ valid_until: '2025-12-31' }));
  t.equal(backwards.status, 400);
  t.equal(backwards.body.error.field, '/valid_until');
  const badAccount = await s.api(
    'POST',
    '/arap/quote/customer',
    s.quote({ items: [{ description: 'x', quantity: 1, price: 1, account: '9999' }] }),
  );
  t.equal(badAccount.status, 400, JSON.stringify(badAccount.body));
  t.match(badAccount.body.error.field, /^\/items\/0/);
  t.equal((await s.api('GET', '/arap/quotes/customer')).body.length, 2, 'the refused quotes were not stored');
  t.equal((await s.api('GET', '/arap/quote/customer/999999')).status, 404);

  const deletable = (await s.api('POST', '/arap/quote/customer', s.quote())).body.id as number;
  t.equal((await s.api('DELETE', `/arap/quote/customer/${deletable}`)).status, 204);
  t.equal((await s.api('GET', `/arap/quote/customer/${deletable}`)).status, 404);
});
