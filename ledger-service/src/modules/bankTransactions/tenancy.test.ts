/**
 * The bank lines' store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither read,
 * list, lock, book nor match company A's bank lines and documents.
 */
import t from 'tap';
import { bankSetup } from '../../../test/fixtures/bank/setup.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { findTransaction, listTransactions, lockTransaction, markBooked, matchCandidates } from './store.ts';

t.test("company B's store calls never reach A's bank lines", async (t) => {
  const s = await bankSetup(t);
  const b = await createTestCompany(s.ledger);
  const invoice = await s.postInvoice(100);
  const csv = [
    'date,amount,currency,counterparty,iban,reference,description',
    '2024-04-02,99.95,CHF,Someone,,,"not an invoice"',
  ].join('\n');
  const imported = await s.send(csv, 'text/csv', `?account=${s.bankAccountId}`);
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  const [line] = (await s.api('GET', '/bank/transactions')).body as { id: number }[];
  const A = s.co.company.id;
  const B = b.company.id;
  await s.ledger.db.transaction(async (tx) => {
    t.equal(await findTransaction(tx, B, line!.id), undefined, 'B does not read it');
    t.equal((await listTransactions(tx, B, { sort: 'id', limit: 100, offset: 0 })).total, 0, 'nor list it');
    t.equal(await lockTransaction(tx, B, line!.id), undefined, 'nor lock it');
    await markBooked(tx, B, line!.id, 'booked', { documentId: invoice.id, paymentId: 1 });
    t.equal((await findTransaction(tx, A, line!.id))?.status, 'unmatched', "B's booking does not change it");
    const byB = await matchCandidates(tx, B, { references: [], numbers: [invoice.invNumber], endToEndIds: [] });
    t.same(byB.documents, [], "B's matching does not find A's invoice");
    const byA = await matchCandidates(tx, A, { references: [], numbers: [invoice.invNumber], endToEndIds: [] });
    t.same(
      byA.documents.map((d) => d.id),
      [invoice.id],
      'A finds its own',
    );
  });
});
