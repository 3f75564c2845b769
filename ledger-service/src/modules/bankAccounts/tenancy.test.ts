/**
 * The vendor bank accounts store names its company in every query: run where row-level
 * security does not apply (the tests' superuser, outside a tenant transaction), company B's
 * calls neither see nor change company A's vendor or its bank account.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import {
  deleteBankAccount,
  documentsNaming,
  listBankAccounts,
  lockBankAccount,
  updateBankAccount,
  vendorExists,
} from './store.ts';

t.test("company B's store calls never reach A's vendor bank accounts", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const vendor = await api('POST', '/arap/vendor', { name: 'Vendor of A' });
  t.equal(vendor.status, 201);
  const vendorId: number = vendor.body.id;
  const made = await api('POST', `/arap/vendor/${vendorId}/bank_accounts`, { iban: 'CH9300762011623852957' });
  t.equal(made.status, 201, JSON.stringify(made.body));
  const bankId: number = made.body.id;
  const A = a.company.id;
  const B = b.company.id;
  const page = { limit: 100, offset: 0 };
  await ledger.db.transaction(async (tx) => {
    t.equal(await vendorExists(tx, A, vendorId), true);
    t.equal(await vendorExists(tx, B, vendorId), false, "B does not find A's vendor");
    t.equal((await listBankAccounts(tx, A, vendorId, page)).total, 1);
    t.equal((await listBankAccounts(tx, B, vendorId, page)).total, 0, 'nor list its bank accounts');
    t.equal((await lockBankAccount(tx, A, vendorId, bankId))?.id, bankId);
    t.equal(await lockBankAccount(tx, B, vendorId, bankId), undefined, 'nor lock one');
    t.same(await documentsNaming(tx, B, bankId), { drafts: [], booked: [] });
    const changed = await updateBankAccount(tx, B, bankId, {
      iban: 'CH5604835012345678009',
      bic: null,
      name: null,
      description: null,
    });
    t.equal(changed, undefined, 'B cannot change it');
    await deleteBankAccount(tx, B, bankId);
    t.equal((await lockBankAccount(tx, A, vendorId, bankId))?.iban, 'CH9300762011623852957', 'nor delete it');
  });
});
