/**
 * The chart's store names its company in every query: run where row-level security does not
 * apply (the tests' superuser, outside a tenant transaction), company B's calls neither read,
 * lock, count nor change company A's accounts, and A's account lists only A's uses.
 */
import t from 'tap';
import { arapSetup } from '../../../test/arapHelpers.ts';
import { createTestCompany } from '../../../test/helpers.ts';
import { accountReferences, chartAccount, listAccounts, lockAccount, updateAccount } from './store.ts';

t.test("company B's chart calls never reach A's accounts", async (t) => {
  const s = await arapSetup(t);
  const b = await createTestCompany(s.ledger);
  const A = s.co.company.id;
  const B = b.company.id;
  const added = await s.api('POST', '/system/chart/accounts', {
    accno: '6599',
    description: 'Only in A',
    category: 'E',
  });
  t.equal(added.status, 201, JSON.stringify(added.body));
  await s.ledger.db.transaction(async (tx) => {
    t.equal(await chartAccount(tx, B, '6599'), undefined, 'B does not read it');
    t.equal(await lockAccount(tx, B, '6599'), undefined, 'B does not lock it');
    t.equal((await chartAccount(tx, A, '6599'))?.description, 'Only in A', 'A reads it');
    const mine = await lockAccount(tx, A, '6599');
    t.ok(mine, 'A locks it');
    await updateAccount(tx, B, mine!.id, { description: 'Changed by B', category: 'E', link: '' });
    t.equal((await chartAccount(tx, A, '6599'))?.description, 'Only in A', "B's update does not change it");
    const listA = await listAccounts(tx, A, { limit: 1000, offset: 0 });
    const listB = await listAccounts(tx, B, { limit: 1000, offset: 0 });
    t.equal(listA.total, listB.total + 1, 'each counts its own chart');
    t.notOk(
      listB.rows.some((r) => r.accno === '6599'),
      "B's list does not show it",
    );
    // A's tax account 2200 has its code; B's view of A's account id names nothing
    const a2200 = await lockAccount(tx, A, '2200');
    const refsB = await accountReferences(tx, B, a2200!.id);
    t.same(refsB.taxRates, [], "B sees no tax code on A's account");
    t.equal(refsB.posted, false);
    const refsA = await accountReferences(tx, A, a2200!.id);
    t.ok(refsA.taxRates.length > 0, 'A sees its codes');
  });
});
