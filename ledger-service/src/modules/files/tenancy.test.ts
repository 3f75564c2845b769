/**
 * The document store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither see nor
 * read company A's stored document, even given its id; the same bytes put by B are B's own.
 */
import t from 'tap';
import { createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { postgresStore } from './storage.ts';
import { attachmentsOf, documentBytes, documentRow, listDocumentRows, putDocument } from './store.ts';

t.test("company B's store calls never reach A's documents", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const A = a.company.id;
  const B = b.company.id;
  const content = { name: 'receipt.pdf', mediaType: 'application/pdf', data: Buffer.from('%PDF-1.4 secret of A') };
  const page = { sort: '-created_at', limit: 100, offset: 0 };
  await ledger.db.transaction(async (tx) => {
    const ofA = await putDocument(tx, A, content, 'upload', postgresStore);
    t.equal((await documentRow(tx, A, ofA.id))?.id, ofA.id, 'A finds its document');
    t.equal(await documentRow(tx, B, ofA.id), undefined, 'B does not');
    t.equal((await listDocumentRows(tx, A, page)).total, 1);
    t.equal((await listDocumentRows(tx, B, page)).total, 0, "B's list has none of A's");
    t.equal((await listDocumentRows(tx, B, { ...page, unattached: true })).total, 0, 'nor its unattached list');
    t.same((await attachmentsOf(tx, B, [ofA.id])).get(ofA.id), []);
    t.same(await documentBytes(tx, A, ofA), content.data, "A reads A's bytes");
    await t.rejects(documentBytes(tx, B, ofA), /missing/, 'B cannot read them');
    const ofB = await putDocument(tx, B, { ...content, name: 'copy.pdf' }, 'upload', postgresStore);
    t.not(ofB.id, ofA.id, 'the same bytes put by B are a document of B');
    t.equal(ofB.name, 'copy.pdf', 'under its own name');
  });
});
