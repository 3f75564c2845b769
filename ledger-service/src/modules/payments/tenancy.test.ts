/**
 * The payments store and reads name their company in every query: run where row-level security
 * does not apply (the tests' superuser, outside a tenant transaction), company B's calls neither
 * see nor change company A's payment or the document it paid.
 */
import t from 'tap';
import { Money } from '@ledger/shared';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { listPayments, openDocumentsAsOf, readPayment } from './reads.ts';
import {
  addPaid,
  addPaidMany,
  documentsCleared,
  findAccounts,
  lockPayable,
  lockPayables,
  lockPayment,
  markReversed,
  paymentLines,
} from './store.ts';

t.test("company B's store calls never reach A's payments", async (t) => {
  const s = await arapSetup(t);
  const b = await createTestCompany(s.ledger);
  const doc = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { pending: '0' }));
  t.equal(doc.status, 201, JSON.stringify(doc.body));
  const documentId: number = doc.body.id;
  const paid = await s.api('POST', '/arap/payment/customer', {
    account: '1020',
    date: '2024-03-20',
    document_id: documentId,
    amount: 50,
  });
  t.equal(paid.status, 201, JSON.stringify(paid.body));
  const paymentId: number = paid.body.id;
  const A = s.co.company.id;
  const B = b.company.id;
  const page = { sort: 'date', limit: 100, offset: 0 };
  await s.ledger.db.transaction(async (tx) => {
    t.equal((await readPayment(tx, A, 'customer', paymentId))?.id, paymentId, 'A reads its payment');
    t.equal(await readPayment(tx, B, 'customer', paymentId), undefined, 'B does not');
    t.equal((await listPayments(tx, A, 'customer', page)).total, 1);
    t.equal((await listPayments(tx, B, 'customer', page)).total, 0, "B's list has none of A's");
    t.equal((await openDocumentsAsOf(tx, A, 'customer', '2024-12-31')).length, 1, 'A has one open document');
    t.same(await openDocumentsAsOf(tx, B, 'customer', '2024-12-31'), [], 'B has none');
    t.equal(await lockPayable(tx, B, 'customer', documentId), undefined, "B cannot lock A's document");
    t.equal((await lockPayables(tx, B, 'customer', [documentId])).size, 0);
    t.equal(await lockPayment(tx, B, 'customer', paymentId), undefined, 'nor its payment');
    const clearedOfA = (await documentsCleared(tx, A, [documentId])).get(documentId)!;
    const clearedOfB = (await documentsCleared(tx, B, [documentId])).get(documentId)!;
    t.ok(clearedOfA.clearedSoFar.gt(0) && clearedOfA.controlBase.gt(0), "A's sums count its lines");
    t.ok(clearedOfB.clearedSoFar.isZero() && clearedOfB.controlBase.isZero(), "B's count none of A's");
    const linesOfA = await paymentLines(tx, A, paymentId);
    t.ok(linesOfA.length > 0);
    t.same(await paymentLines(tx, B, paymentId), [], "nor see its payment's lines");
    t.equal(
      (await findAccounts(tx, A, ['1020'])).get('1020')?.id === (await findAccounts(tx, B, ['1020'])).get('1020')?.id,
      false,
      'each finds its own account',
    );
    const paidBefore = (await lockPayable(tx, A, 'customer', documentId))?.paid;
    t.ok(paidBefore !== undefined && new Money(paidBefore).eq(50), 'A has 50 paid');
    await addPaid(tx, B, documentId, new Money('1000'));
    await addPaidMany(tx, B, new Map([[documentId, new Money('1000')]]));
    await markReversed(tx, B, paymentId, '2024-03-21');
    t.equal(
      (await lockPayable(tx, A, 'customer', documentId))?.paid,
      paidBefore,
      "B cannot change what A's document has been paid",
    );
    t.equal((await readPayment(tx, A, 'customer', paymentId))?.status, 'posted', "nor reverse A's payment");
  });
});
