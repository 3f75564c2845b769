/**
 * The bank accounts store names its company in every query: run where row-level security does
 * not apply (the tests' superuser, outside a tenant transaction), company B's calls neither see
 * nor change company A's bank account, even given its id or IBAN.
 */
import t from 'tap';
import { createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import {
  findBankAccount,
  findBankAccountByIban,
  findBankAccountWithChart,
  findChartAccount,
  listBankAccounts,
  takenBy,
  updateBankAccount,
} from './store.ts';

t.test("company B's store calls never reach A's bank accounts", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger, { swissInvoicing: true });
  const b = await createTestCompany(ledger);
  await ledger.db.transaction(async (tx) => {
    const page = { sort: 'id', limit: 1000, offset: 0 };
    const ofA = (await listBankAccounts(tx, a.company.id, page)).rows;
    t.equal(ofA.length, 1, 'A has its bank account');
    const account = ofA[0]!;
    t.same((await listBankAccounts(tx, b.company.id, page)).rows, [], "B's list has none");
    t.equal((await findBankAccount(tx, a.company.id, account.id))?.id, account.id);
    t.equal(await findBankAccount(tx, b.company.id, account.id), undefined, 'B cannot read it by id');
    t.equal(await findBankAccountWithChart(tx, b.company.id, account.id), undefined);
    t.equal((await findBankAccountByIban(tx, a.company.id, account.iban))?.id, account.id);
    t.equal(await findBankAccountByIban(tx, b.company.id, account.iban), undefined, 'nor by IBAN');
    t.equal(await takenBy(tx, a.company.id, { iban: account.iban, qr_iban: null }), '/iban');
    t.equal(
      await takenBy(tx, b.company.id, { iban: account.iban, qr_iban: null }),
      undefined,
      'its IBAN is free for B',
    );
    const chartOfA = await findChartAccount(tx, a.company.id, account.account);
    const chartOfB = await findChartAccount(tx, b.company.id, account.account);
    t.ok(chartOfA && chartOfB && chartOfA.id !== chartOfB.id, 'each company finds its own chart account');
    await updateBankAccount(tx, b.company.id, account.id, {
      name: 'Taken by B',
      iban: account.iban,
      qr_iban: null,
      bic: null,
      currency: 'CHF',
      account: account.account,
      accountId: chartOfB!.id,
    });
    t.equal((await findBankAccount(tx, a.company.id, account.id))?.name, account.name, 'B cannot change it');
  });
});
