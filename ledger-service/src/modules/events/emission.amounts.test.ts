/**
 * Every amount an event carries is an exact decimal string, written one way whatever the
 * event (docs/events.md: "1077", "108.1" — no float, no trailing zeros from a database
 * column): documents, payments and their reversal, the documents' paid state, imported and
 * booked bank transactions, journal entries.
 */
import t from 'tap';
import { fixture } from '../../../test/fixtures/bank/support.ts';
import { bankSetup } from '../../../test/fixtures/bank/setup.ts';

const AMOUNT_FIELDS = ['amount', 'paid', 'open', 'debit', 'result'];
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

t.test('amounts in events: exact decimal strings, written one way', async (t) => {
  const s = await bankSetup(t);
  const a = await s.postInvoice(100); // 108.10
  const b = await s.postInvoice(200); // 216.20
  await s.postBill(1000.5);
  const imported = await s.send(fixture('camt.054.001.08.xml').replace('000000000000000000000000011', a.qr_reference));
  t.match(imported.body, { imported: 3, matched: 1 });
  const paid = await s.api('POST', '/arap/payment/customer', {
    document_id: b.id,
    date: '2024-04-06',
    amount: 16.2,
    account: '1020',
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));
  t.equal((await s.api('DELETE', `/arap/payment/customer/${paid.body.id}`)).status, 200);
  const [unmatched] = (await s.api('GET', '/bank/transactions?status=unmatched&amount=200')).body as { id: number }[];
  t.equal((await s.api('POST', `/bank/transactions/${unmatched!.id}/book`, { account: '3400' })).status, 200);

  const events = (await s.api('GET', '/events?limit=500')).body as {
    type: string;
    data: { snapshot: Record<string, unknown> };
  }[];
  const amounts = events.flatMap((e) =>
    AMOUNT_FIELDS.filter((f) => f in e.data.snapshot).map((f) => [e.type, f, e.data.snapshot[f]] as const),
  );
  t.ok(amounts.length >= 15, `amounts of ${new Set(amounts.map(([type]) => type)).size} event types checked`);
  t.same(
    amounts.filter(([, , v]) => typeof v !== 'string' || !DECIMAL.test(v)),
    [],
    'every amount a decimal string without trailing zeros',
  );
  const of = (type: string, field = 'amount') =>
    amounts.filter(([ty, f]) => ty === type && f === field).map((x) => x[2]);
  t.same(of('bank_transaction.imported'), ['108.1', '200', '50'], 'imported transactions');
  t.same(of('payment.recorded'), ['108.1', '16.2'], 'payments');
  t.same(of('payment.deleted'), ['16.2'], 'the reversed payment as it was recorded');
  t.same(of('bill.posted'), ['1000.5']);
  t.same(of('invoice.partially_paid', 'open'), ['200'], "b's open amount after the payment");
  t.same(of('bank_transaction.booked'), ['200']);
  t.same(of('journal_entry.posted', 'debit'), ['200'], 'the booking as a journal entry');
});
