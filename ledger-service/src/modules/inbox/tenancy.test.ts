/**
 * The inbox store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither see nor
 * change company A's inbox entry, nor match A's vendors, accounts or tax rates.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { postgresStore } from '../files/storage.ts';
import { putDocument } from '../files/store.ts';
import { entryRow, inputTaxes, insertEntry, listEntries, updateEntry, usualAccounts, vendorByName } from './store.ts';

t.test("company B's store calls never reach A's inbox", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const vendor = await apiClient(ledger.url, a.dataset, a.apiKey)('POST', '/arap/vendor', { name: 'Vendor of A' });
  t.equal(vendor.status, 201);
  const A = a.company.id;
  const B = b.company.id;
  await ledger.db.transaction(async (tx) => {
    const content = { name: 'bill.pdf', mediaType: 'application/pdf', data: Buffer.from('%PDF-1.4 bill of A') };
    const doc = await putDocument(tx, A, content, 'inbox', postgresStore);
    const id = await insertEntry(tx, A, { documentId: doc.id, name: 'bill.pdf', createdBy: null });
    t.equal((await entryRow(tx, A, id))?.id, id, 'A finds its entry');
    t.equal(await entryRow(tx, B, id), undefined, 'B does not');
    t.equal((await listEntries(tx, A, {})).total, 1);
    t.equal((await listEntries(tx, B, {})).total, 0, "B's list has none of A's");
    t.same((await listEntries(tx, B, {})).rows, []);
    await updateEntry(tx, B, id, { status: 'discarded' });
    t.equal((await entryRow(tx, A, id))?.status, 'new', 'B cannot change it');

    t.equal((await vendorByName(tx, A, 'Vendor of A'))?.id, vendor.body.id, "A matches A's vendor");
    t.equal(await vendorByName(tx, B, 'Vendor of A'), undefined, 'B does not');
    const ofA = await inputTaxes(tx, A, '2024-06-01');
    const ofB = await inputTaxes(tx, B, '2024-06-01');
    t.ok(ofA.length > 0, 'A has input tax rates');
    t.equal(ofB.length, ofA.length, "B sees its own rates, not A's as well");
    t.ok(await usualAccounts(tx, B, vendor.body.id), "B's default account comes from B's chart");
  });
});
