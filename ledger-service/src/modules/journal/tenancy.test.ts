/**
 * The journal's store and reads name their company in every query: run where row-level
 * security does not apply (the tests' superuser, outside a tenant transaction), company B's
 * calls neither see nor change company A's journal entry, its lines or its ledger.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { rentEntry } from '../../../test/fixtures/journal.ts';
import { listJournals, readJournal, readLedger } from './reads.ts';
import {
  deleteJournal,
  journalLines,
  loadJournalContext,
  lockJournal,
  referenceInUse,
  takenReferences,
  updateJournalHeader,
} from './store.ts';

t.test("company B's store calls never reach A's journal", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const created = await apiClient(ledger.url, a.dataset, a.apiKey)(
    'POST',
    '/gl/transactions',
    rentEntry({ pending: 0, reference: 'JE-A' }),
  );
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id: number = created.body.id;
  const A = a.company.id;
  const B = b.company.id;
  const page = { sort: 'id', limit: 100, offset: 0 };
  await ledger.db.transaction(async (tx) => {
    t.equal((await readJournal(tx, A, id, 'http://x'))?.id, id, 'A reads its entry');
    t.equal(await readJournal(tx, B, id, 'http://x'), undefined, 'B does not');
    t.equal((await listJournals(tx, A, page)).total, 1);
    t.equal((await listJournals(tx, B, page)).total, 0, "B's list has none of A's");
    t.equal(await lockJournal(tx, B, id), undefined, 'B cannot lock it');
    t.ok((await journalLines(tx, A, id)).length > 0);
    t.same(await journalLines(tx, B, id), [], 'nor read its lines');
    t.equal(await referenceInUse(tx, A, 'JE-A', 0), true);
    t.equal(await referenceInUse(tx, B, 'JE-A', 0), false, "A's reference is free for B");
    t.same([...(await takenReferences(tx, B, ['JE-A']))], []);
    const ledgerOfA = await readLedger(tx, A, { account: '6000', limit: 100, offset: 0 });
    const ledgerOfB = await readLedger(tx, B, { account: '6000', limit: 100, offset: 0 });
    t.equal(ledgerOfA.total, 1, "A's ledger has the line");
    t.equal(ledgerOfB.total, 0, "B's has not");
    const ofA = await loadJournalContext(tx, a.company, ['6000'], false);
    const ofB = await loadJournalContext(tx, b.company, ['6000'], false);
    t.ok(ofA.accounts.get('6000')!.id !== ofB.accounts.get('6000')!.id, 'each finds its own account 6000');
    t.equal(ofB.accounts.size, 1, 'and only its own');
    await updateJournalHeader(tx, B, id, { description: 'taken by B' });
    await deleteJournal(tx, B, id);
    t.equal((await lockJournal(tx, A, id))?.description, 'March rent', 'B neither changes nor deletes it');
  });
});
