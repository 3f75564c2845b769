/**
 * bank_transaction.imported and bank_transaction.booked commit with the statement import (one per new transaction); a
 * refused import (a file that is no statement) and a repeated import (duplicates only) leave
 * no event, and the sequence has no gap.
 */
import t from 'tap';
import { fixture } from '../../../test/fixtures/bank/support.ts';
import { bankSetup } from '../../../test/fixtures/bank/setup.ts';

t.test('bank_transaction.imported and .booked; refused imports and bookings leave none', async (t) => {
  const s = await bankSetup(t);
  const imported = async () =>
    (await s.api('GET', '/events?limit=500&type=bank_transaction.imported')).body as {
      data: { resource: { id: number | string } };
    }[];

  const broken = await s.send('<Document><nothing/></Document>');
  t.equal(broken.status, 400, 'a file that is no statement is refused');
  t.same(await imported(), [], 'the refused import leaves no event');

  const first = await s.send(fixture('camt.053.001.08.xml'));
  t.equal(first.status, 200);
  t.equal(first.body.imported, 7);
  const events = await imported();
  t.equal(events.length, 7, 'one event per imported transaction');
  const list = (await s.api('GET', '/bank/transactions?limit=100')).body as { id: number }[];
  t.same(
    events.map((e) => String(e.data.resource.id)).sort(),
    list.map((b) => String(b.id)).sort(),
    'naming the imported transactions',
  );

  const again = await s.send(fixture('camt.053.001.08.xml'));
  t.equal(again.body.imported, 0);
  t.equal((await imported()).length, 7, 'duplicates add no event');

  // booking one on an account: bank_transaction.booked; booking it again or on an unknown account is refused
  const booked = async () => (await s.api('GET', '/events?limit=500&type=bank_transaction.booked')).body as unknown[];
  const target = list[0]!.id;
  const unknownAccount = await s.api('POST', `/bank/transactions/${target}/book`, { account: '9999999' });
  t.equal(unknownAccount.status, 400, 'an unknown account is refused');
  t.same(await booked(), [], 'the refused booking leaves no event');
  const book = await s.api('POST', `/bank/transactions/${target}/book`, { account: '6900', description: 'Fee' });
  t.equal(book.status, 200, JSON.stringify(book.body));
  t.equal((await booked()).length, 1, 'one bank_transaction.booked, with the booking');
  const twice = await s.api('POST', `/bank/transactions/${target}/book`, { account: '6900' });
  t.equal(twice.status, 409, 'booking twice is refused');
  t.equal((await booked()).length, 1, 'the refused second booking leaves no event');

  const ids = ((await s.api('GET', '/events?limit=500')).body as { id: string }[]).map((e) => Number(e.id));
  t.same(
    ids,
    ids.map((_, i) => i + 1),
    'numbered without gaps despite the refused import',
  );
});
