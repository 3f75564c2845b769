/**
 * The outbox's store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither read nor
 * claim company A's message, and A's message comes with its own attachment only.
 */
import t from 'tap';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { claimForSending, insertMessage, loadOutgoingMessage } from './store.ts';

t.test("company B's store calls never reach A's messages", async (t) => {
  const s = await arapSetup(t);
  const b = await createTestCompany(s.ledger);
  const A = s.co.company.id;
  const B = b.company.id;
  await s.ledger.db.transaction(async (tx) => {
    const id = await insertMessage(tx, A, {
      transactionId: null,
      kind: 'other',
      from: 'books@a.test',
      to: ['x@y.test'],
      cc: [],
      subject: 'For A only',
      text: 'A',
      messageId: '<tenancy-outbox@a.test>',
      attachments: [{ filename: 'a.txt', mediaType: 'text/plain', data: Buffer.from('A') }],
    });
    t.equal(await loadOutgoingMessage(tx, B, id), undefined, 'B does not read it');
    t.equal(await claimForSending(tx, B, id), undefined, 'B does not claim it');
    const own = await loadOutgoingMessage(tx, A, id);
    t.equal(own?.subject, 'For A only', 'A reads it');
    t.same(
      own?.attachments.map((a) => ('data' in a ? a.data.toString() : 'not rendered')),
      ['A'],
      'with its attachment',
    );
  });
});
