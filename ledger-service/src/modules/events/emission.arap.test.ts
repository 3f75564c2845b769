/**
 * Events of invoices, bills and payments commit with their change: invoice/bill created and
 * posted, payment.recorded with invoice.partially_paid / invoice.paid / bill.paid,
 * payment.deleted, bill.approved, bill.reversed and invoice.reversed. Refused changes of the
 * same kinds (a document without lines, an overpayment, reversing a payment twice, an
 * approval without lines, reversing a bill twice) leave no event and no gap in the sequence.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

/**
 * A new company's API client, the event types recorded after an event id (`types`) and the id
 * of the last event so far (`last`).
 */
async function companyEvents(t: Parameters<typeof startTestLedger>[0]) {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const types = async (after: number) =>
    ((await api('GET', `/events?limit=500&after=${after}`)).body as { type: string }[]).map((e) => e.type);
  const last = async () => {
    const all = (await api('GET', '/events?limit=500')).body as { id: string }[];
    return all.length ? Number(all[all.length - 1]!.id) : 0;
  };
  return { api, types, last };
}

t.test('invoice, bill and payment events; refused changes leave none', async (t) => {
  const { api, types, last } = await companyEvents(t);

  const customer = await api('POST', '/arap/customer', { name: 'Payer AG' });
  const vendor = await api('POST', '/arap/vendor', { name: 'Payee AG' });

  let mark = await last();
  const noLines = await api('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2024-02-01',
    pending: '0',
    lines: [],
  });
  t.equal(noLines.status, 400, 'a document without lines is refused');
  t.same(await types(mark), [], 'the refused invoice leaves no event');

  const invoice = await api('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2024-02-01',
    invNumber: 'AR-1',
    pending: '0',
    lines: [{ account: '3400', amount: 500 }],
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  t.same(await types(mark), ['invoice.created', 'invoice.posted'], 'created and posted with the invoice');

  mark = await last();
  const pay = (amount: number) =>
    api('POST', '/arap/payment/customer', {
      document_id: invoice.body.id,
      date: '2024-02-05',
      amount,
      account: '1020',
    });
  t.equal((await pay(200)).status, 201);
  t.same(await types(mark), ['payment.recorded', 'invoice.partially_paid']);
  mark = await last();
  const over = await pay(1000);
  t.equal(over.status, 400, 'an overpayment is refused');
  t.same(await types(mark), [], 'the refused payment leaves no event');
  const second = await pay(300);
  t.equal(second.status, 201);
  t.same(await types(mark), ['payment.recorded', 'invoice.paid']);

  mark = await last();
  t.equal((await api('DELETE', `/arap/payment/customer/${second.body.id}`)).status, 200, 'reversed');
  t.equal((await api('DELETE', `/arap/payment/customer/${second.body.id}`)).status, 409, 'reversing twice is refused');
  const deleted = (await api('GET', `/events?limit=500&after=${mark}`)).body as {
    type: string;
    data: { resource: { id: number | string } };
  }[];
  t.same(
    deleted.map((e) => e.type),
    ['payment.deleted'],
    'deleted once, one event',
  );
  t.equal(String(deleted[0]?.data.resource.id), String(second.body.id));

  mark = await last();
  const bill = await api('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2024-02-02',
    invNumber: 'AP-1',
    pending: '0',
    lines: [{ account: '6000', amount: 200 }],
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  t.same(await types(mark), ['bill.created', 'bill.posted']);
  mark = await last();
  const paid = await api('POST', '/arap/payment/vendor', {
    document_id: bill.body.id,
    date: '2024-02-05',
    amount: 200,
    account: '1020',
  });
  t.equal(paid.status, 201);
  t.same(await types(mark), ['payment.recorded', 'bill.paid']);

  const ids = ((await api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused changes',
  );
});

t.test('bill.approved, bill.reversed and invoice.reversed; refused changes leave none', async (t) => {
  const { api, types, last } = await companyEvents(t);
  const customer = await api('POST', '/arap/customer', { name: 'Reversed AG' });
  const vendor = await api('POST', '/arap/vendor', { name: 'Approved AG' });
  const billBody = {
    vendor_id: vendor.body.id,
    invDate: '2024-03-02',
    invNumber: 'AP-2',
    lines: [{ account: '6000', amount: 120 }],
  };

  let mark = await last();
  const draft = await api('POST', '/arap/transaction/vendor', billBody);
  t.equal(draft.status, 201, JSON.stringify(draft.body));
  t.same(await types(mark), ['bill.created'], 'a draft bill: created, not posted');
  mark = await last();
  const badApproval = await api('POST', `/arap/transaction/vendor/${draft.body.id}/approve`, {
    ...billBody,
    lines: [],
  });
  t.equal(badApproval.status, 400, 'an approval without lines is refused');
  t.same(await types(mark), [], 'the refused approval leaves no event');
  const approved = await api('POST', `/arap/transaction/vendor/${draft.body.id}/approve`, {
    ...billBody,
    pending: '0',
  });
  t.equal(approved.status, 200, JSON.stringify(approved.body));
  t.same(await types(mark), ['bill.approved', 'bill.posted'], 'approved and posted with the approval');

  mark = await last();
  const billReversal = await api('POST', `/arap/transaction/vendor/${draft.body.id}/reverse`, { date: '2024-03-10' });
  t.equal(billReversal.status, 201, JSON.stringify(billReversal.body));
  t.ok((await types(mark)).includes('bill.reversed'), 'bill.reversed with the reversal');
  mark = await last();
  const twice = await api('POST', `/arap/transaction/vendor/${draft.body.id}/reverse`, { date: '2024-03-10' });
  t.equal(twice.status, 409, 'reversing twice is refused');
  t.same(await types(mark), [], 'the refused reversal leaves no event');

  const invoice = await api('POST', '/arap/transaction/customer', {
    customer_id: customer.body.id,
    invDate: '2024-03-01',
    invNumber: 'AR-2',
    pending: '0',
    lines: [{ account: '3400', amount: 80 }],
  });
  t.equal(invoice.status, 201);
  mark = await last();
  const invoiceReversal = await api('POST', `/arap/transaction/customer/${invoice.body.id}/reverse`, {
    date: '2024-03-11',
  });
  t.equal(invoiceReversal.status, 201, JSON.stringify(invoiceReversal.body));
  const reversed = (await api('GET', `/events?limit=500&after=${mark}&type=invoice.reversed`)).body as {
    data: { resource: { id: number | string } };
  }[];
  t.equal(reversed.length, 1, 'one invoice.reversed');
  t.equal(String(reversed[0]?.data.resource.id), String(invoice.body.id), 'naming the reversed invoice');

  const ids = ((await api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused changes',
  );
});

t.test("a new document's events, written by its own statement, name it in full", async (t) => {
  const { api, last } = await companyEvents(t);
  const vendor = await api('POST', '/arap/vendor', { name: 'Statement Vendor' });
  const mark = await last();
  const bill = await api('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2024-03-04',
    invNumber: 'AP-STMT-1',
    pending: '0',
    lines: [{ account: '6000', amount: 123.45 }],
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  const events = (await api('GET', `/events?limit=500&after=${mark}`)).body as {
    id: string;
    type: string;
    subject: string;
    data: {
      actor: { via: string };
      resource: { type: string; id: number; url: string };
      snapshot: Record<string, unknown>;
    };
  }[];
  t.same(
    events.map((e) => e.type),
    ['bill.created', 'bill.posted'],
  );
  t.same(
    events.map((e) => Number(e.id)),
    [mark + 1, mark + 2],
    'numbered next in the sequence, in order',
  );
  for (const e of events) {
    t.equal(e.subject, `/arap/document/vendor/${bill.body.id}`, `${e.type}: the document's read path`);
    t.match(
      e.data.resource,
      { type: 'bill', id: bill.body.id, url: new RegExp(`/arap/document/vendor/${bill.body.id}$`) },
      `${e.type}: the document`,
    );
    t.equal(e.data.actor.via, 'api_key', `${e.type}: who acted`);
    t.same(
      e.data.snapshot,
      { number: 'AP-STMT-1', date: '2024-03-04', amount: '123.45', currency: 'CHF', status: 'posted' },
      `${e.type}: its snapshot, with the number the statement gave`,
    );
  }
  const draft = await api('POST', '/arap/transaction/vendor', {
    vendor_id: vendor.body.id,
    invDate: '2024-03-05',
    lines: [{ account: '6000', amount: 10 }],
  });
  t.equal(draft.status, 201, JSON.stringify(draft.body));
  const after = (await api('GET', `/events?limit=500&after=${mark + 2}`)).body as {
    type: string;
    data: { snapshot: Record<string, unknown> };
  }[];
  t.same(
    after.map((e) => e.type),
    ['bill.created'],
    'a draft: created only',
  );
  t.equal(after[0]?.data.snapshot.status, 'draft');
  t.type(after[0]?.data.snapshot.number, 'string', 'numbered from the sequence');
});
