/**
 * The parties store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither see nor
 * change company A's vendor, even given its id or number.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { deleteParty, getParty, partyIdByNumber, searchParties, updateParty } from './store.ts';

t.test("company B's store calls never reach A's parties", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const made = await apiClient(ledger.url, a.dataset, a.apiKey)('POST', '/arap/vendor', { name: 'Vendor of A' });
  t.equal(made.status, 201);
  const id: number = made.body.id;
  const number: string = made.body.vendornumber;
  await ledger.db.transaction(async (tx) => {
    const page = { sort: 'id', limit: 1000, offset: 0 };
    t.same(
      (await searchParties(tx, a.company.id, 'vendor', page)).rows.map((p) => p.id),
      [id],
      "A's list has it",
    );
    t.same((await searchParties(tx, b.company.id, 'vendor', page)).rows, [], "B's list does not");
    t.equal((await getParty(tx, a.company.id, 'vendor', id))?.id, id);
    t.equal(await getParty(tx, b.company.id, 'vendor', id), undefined, 'B cannot read it by id');
    t.equal(await partyIdByNumber(tx, a.company.id, 'vendor', number), id);
    t.equal(await partyIdByNumber(tx, b.company.id, 'vendor', number), undefined, 'nor find it by number');
    t.equal(await updateParty(tx, b.company.id, 'vendor', id, { name: 'Taken by B' }), undefined, 'nor change it');
    t.equal(await deleteParty(tx, b.company.id, 'vendor', id), 'missing', 'nor delete it');
    t.equal((await getParty(tx, a.company.id, 'vendor', id))?.name, 'Vendor of A', 'A still has it as it was');
  });
});
