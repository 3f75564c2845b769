/**
 * Credit notes (docs/invoices.md "Credit notes") over HTTP on real Postgres: a posted document
 * of type credit_note reversing the invoice's revenue and VAT, its allocation to open documents
 * of the same party and currency, its refund by a payment, and the tie-out: the aging total
 * equals the control account's balance at every date, and the VAT report moves by the credit
 * notes' bases and tax in the period of their dates. Bad input writes nothing.
 */
import t from 'tap';
import { Money } from '@ledger/shared';
import { arapSetup, CHART, type ArapSetup } from '../../../test/arapHelpers.ts';

async function invoice(s: ArapSetup, fields: Record<string, unknown> = {}, customerId = s.parties.customer.id) {
  const res = await s.api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customerId,
    invDate: '2024-03-01',
    dueDate: '2024-03-31',
    pending: '0',
    items: [
      {
        description: 'Beratung',
        quantity: 10,
        price: 100,
        account: CHART.customer.line,
        taxAccount: CHART.customer.tax,
      },
      { description: 'Spesen', quantity: 1, price: 200, account: CHART.customer.line2, taxAccount: CHART.customer.tax },
    ],
    ...fields,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
}

/** The control account's balance (base currency) on `date`, from the ledger lines. */
async function controlBalance(s: ArapSetup, date: string): Promise<string> {
  return s.q(async (tx) => {
    const row = await tx('ledger_entries as e')
      .join('accounts as a', function () {
        this.on('a.id', '=', 'e.account_id').andOn('a.company_id', '=', 'e.company_id');
      })
      .where('a.accno', CHART.customer.control)
      .where('e.date', '<=', date)
      .sum({ s: 'e.amount' })
      .first();
    return new Money(String(row?.s ?? '0')).toFixed(2);
  });
}

async function agingTotal(s: ArapSetup, date: string): Promise<string> {
  const res = await s.api('GET', `/arap/aging/customer?date=${date}`);
  return new Money(res.body.totals.total).toFixed(2);
}

const read = async (s: ArapSetup, id: number) => (await s.api('GET', `/arap/invoice/customer/${id}`)).body;

t.test('a whole credit note reverses revenue and VAT; allocation, refund; aging = control account', async (t) => {
  const s = await arapSetup(t);
  const inv = await invoice(s);
  const invRead = await read(s, inv);
  t.equal(invRead.grossAmount, 1297.2, '1200 + 8.1 % VAT');

  const created = await s.api('POST', `/arap/invoice/customer/${inv}/credit_note`, {
    date: '2024-04-10',
    reason: 'Order cancelled',
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const cn = created.body.id as number;
  const cnRead = await read(s, cn);
  t.match(cnRead, {
    type: 'credit_note',
    credit_of: inv,
    reason: 'Order cancelled',
    status: 'posted',
    grossAmount: -1297.2,
    netAmount: -1200,
    taxAmount: -97.2,
    open: -1297.2,
    invDate: '2024-04-10',
  });
  t.match(cnRead.invNumber, /^CN-\d+$/, 'its own number sequence');
  t.equal(cnRead.items.length, 2);
  t.equal(cnRead.items[0].quantity, -10);
  t.equal(await s.documentSum(cn), '0.000000', 'balanced');

  // the VAT report counts it in the period of its date
  const vat = async (from: string, to: string) => (await s.api('GET', `/reports/vat?from=${from}&to=${to}`)).body;
  t.match((await vat('2024-03-01', '2024-03-31')).output, { base: 1200, tax: 97.2 });
  t.match((await vat('2024-04-01', '2024-04-30')).output, { base: -1200, tax: -97.2 });

  // allocation: 500 of the credit against the invoice
  const alloc = await s.api('POST', `/arap/credit_note/customer/${cn}/allocate`, {
    document_id: inv,
    amount: 500,
    date: '2024-04-15',
  });
  t.equal(alloc.status, 200, JSON.stringify(alloc.body));
  t.match(alloc.body, { credit_note_open: -797.2, document_open: 797.2, amount: 500, date: '2024-04-15' });
  t.equal((await read(s, inv)).open, 797.2);
  t.equal((await read(s, cn)).open, -797.2);

  // refund of 300 by a payment from the bank
  const refund = await s.api('POST', '/arap/payment/customer', {
    document_id: cn,
    date: '2024-04-20',
    amount: 300,
    account: '1020',
  });
  t.equal(refund.status, 201, JSON.stringify(refund.body));
  t.equal((await read(s, cn)).open, -497.2);
  const tooMuch = await s.api('POST', '/arap/payment/customer', {
    document_id: cn,
    date: '2024-04-20',
    amount: 497.25,
    account: '1020',
  });
  t.equal(tooMuch.status, 400);
  t.equal(tooMuch.body.error.code, 'overpayment');

  // the rest of the credit against the invoice, then the invoice's last 300 paid
  t.equal(
    (await s.api('POST', `/arap/credit_note/customer/${cn}/allocate`, { document_id: inv, amount: 497.2 })).status,
    200,
  );
  t.equal((await read(s, cn)).payment_status, 'paid');
  t.equal((await read(s, inv)).open, 300);

  for (const date of ['2024-03-15', '2024-04-12', '2024-04-15', '2024-04-20', '2024-05-01']) {
    t.equal(await agingTotal(s, date), await controlBalance(s, date), `aging = control account on ${date}`);
  }
  t.equal(await agingTotal(s, '2024-05-01'), '300.00');
  t.equal(await s.companySum(), '0.000000', 'the books balance');

  const reverse = await s.api('GET', `/arap/payments/customer?document_id=${inv}`);
  const allocation = reverse.body.find((p: { amount: number }) => p.amount === 500);
  t.ok(allocation, 'allocations are listed with the payments');
  const del = await s.api('DELETE', `/arap/payment/customer/${allocation.id}`);
  t.equal(del.status, 409, 'an allocation is not reversed on its own');
});

t.test('a partial credit note of the items sent; the rules that refuse, writing nothing', async (t) => {
  const s = await arapSetup(t);
  const inv = await invoice(s);
  const partial = await s.api('POST', `/arap/invoice/customer/${inv}/credit_note`, {
    date: '2024-03-05',
    reason: 'One hour less',
    items: [{ description: 'Beratung', quantity: 1, price: 100, account: CHART.customer.line, taxAccount: '2200' }],
  });
  t.equal(partial.status, 201, JSON.stringify(partial.body));
  t.match(await read(s, partial.body.id), { grossAmount: -108.1, taxAmount: -8.1 });

  const before = await s.companySum();
  const count = async () =>
    s.q(async (tx) => Number((await tx('arap_transactions').count({ n: '*' }).first())?.n ?? 0));
  const documents = await count();
  // the unallocated 108.10 counts: 1297.20 − 108.10 = 1189.10 is what can still be credited
  const above = await s.api('POST', `/arap/invoice/customer/${inv}/credit_note`, {
    date: '2024-03-05',
    reason: 'Too much',
    items: [{ description: 'Beratung', quantity: 12, price: 100, account: CHART.customer.line, taxAccount: '2200' }],
  });
  t.equal(above.status, 400, JSON.stringify(above.body));
  t.equal(above.body.error.code, 'amount_exceeded');
  t.equal(await count(), documents, 'nothing written');
  t.equal(await s.companySum(), before);

  const early = await s.api('POST', `/arap/invoice/customer/${inv}/credit_note`, { date: '2024-02-01', reason: 'x' });
  t.equal(early.status, 400);
  const draft = await invoice(s, { pending: undefined });
  const ofDraft = await s.api('POST', `/arap/invoice/customer/${draft}/credit_note`, {
    date: '2024-03-05',
    reason: 'x',
  });
  t.equal(ofDraft.status, 409);
  t.equal(
    (await s.api('POST', '/arap/invoice/customer/999999/credit_note', { date: '2024-03-05', reason: 'x' })).status,
    404,
  );
  t.equal((await s.api('POST', `/arap/invoice/customer/${inv}/credit_note`, { date: '2024-03-05' })).status, 400);

  // allocations: another party, another currency, more than open, not a credit note
  const cn = partial.body.id as number;
  const other = await s.api('POST', '/arap/customer', { name: 'Initech' });
  const foreign = await invoice(s, {}, other.body.id);
  const acrossParties = await s.api('POST', `/arap/credit_note/customer/${cn}/allocate`, {
    document_id: foreign,
    amount: 10,
  });
  t.equal(acrossParties.status, 400);
  t.equal(acrossParties.body.error.field, '/document_id');
  const eur = await invoice(s, { curr: 'EUR', exchangerate: 0.95 });
  const acrossCurrencies = await s.api('POST', `/arap/credit_note/customer/${cn}/allocate`, {
    document_id: eur,
    amount: 10,
  });
  t.equal(acrossCurrencies.status, 400);
  t.match(acrossCurrencies.body.error.message, /EUR/);
  const over = await s.api('POST', `/arap/credit_note/customer/${cn}/allocate`, { document_id: inv, amount: 108.11 });
  t.equal(over.status, 400);
  t.equal(over.body.error.code, 'overpayment');
  const notCredit = await s.api('POST', `/arap/credit_note/customer/${inv}/allocate`, { document_id: cn, amount: 1 });
  t.equal(notCredit.status, 404);
  t.equal((await read(s, cn)).open, -108.1, 'nothing allocated');
  t.equal((await read(s, inv)).open, 1297.2);
});

t.test('vendor credit notes: the payable side, allocated and tied out', async (t) => {
  const s = await arapSetup(t);
  const bill = await s.api('POST', '/arap/invoice/vendor', {
    type: 'invoice',
    vendor_id: s.parties.vendor.id,
    invDate: '2024-03-01',
    dueDate: '2024-03-31',
    pending: '0',
    items: [
      { description: 'Papier', quantity: 1, price: 400, account: CHART.vendor.line, taxAccount: CHART.vendor.tax },
    ],
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  const cn = await s.api('POST', `/arap/invoice/vendor/${bill.body.id}/credit_note`, {
    date: '2024-03-10',
    reason: 'Returned',
  });
  t.equal(cn.status, 201, JSON.stringify(cn.body));
  t.match((await s.api('GET', `/arap/invoice/vendor/${cn.body.id}`)).body.invNumber, /^APCN-/);
  const alloc = await s.api('POST', `/arap/credit_note/vendor/${cn.body.id}/allocate`, {
    document_id: bill.body.id,
    amount: 432.4,
  });
  t.equal(alloc.status, 200, JSON.stringify(alloc.body));
  t.match(alloc.body, { credit_note_open: 0, document_open: 0 });
  const aging = await s.api('GET', '/arap/aging/vendor?date=2024-04-01');
  t.equal(aging.body.totals.total, 0);
  t.equal(await s.companySum(), '0.000000');
});
