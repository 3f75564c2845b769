/**
 * The payment files' store names its company in every query: run where row-level security does
 * not apply (the tests' superuser, outside a tenant transaction), company B's calls neither
 * lock nor list company A's vendor documents or payment files.
 */
import t from 'tap';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { documentsInFiles, listFiles, lockDocuments, lockDueDocuments, readFileXml } from './store.ts';

t.test("company B's store calls never reach A's payment files or their documents", async (t) => {
  const s = await arapSetup(t);
  const b = await createTestCompany(s.ledger);
  const doc = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor'));
  t.equal(doc.status, 201, JSON.stringify(doc.body));
  const id: number = doc.body.id;
  const A = s.co.company.id;
  const B = b.company.id;
  await s.ledger.db.transaction(async (tx) => {
    t.same(
      (await lockDocuments(tx, A, [id])).map((d) => d.id),
      [id],
      'A locks its vendor document',
    );
    t.same(await lockDocuments(tx, B, [id]), [], 'B does not');
    t.same(await lockDueDocuments(tx, B), []);
    t.equal((await documentsInFiles(tx, B, [id])).size, 0);
    t.equal((await listFiles(tx, B, { sort: 'id', limit: 100, offset: 0 })).total, 0);
    t.equal(await readFileXml(tx, B, 1), undefined);
  });
});
