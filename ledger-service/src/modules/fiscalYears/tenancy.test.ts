/**
 * The fiscal years' store names its company in every query: run where row-level security does
 * not apply (the tests' superuser, outside a tenant transaction), company B's calls see none of
 * company A's ledger lines or accounts.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { rentEntry } from '../../../test/fixtures/journal.ts';
import { accountByNumber, closingEntries, postedDateSpan, resultBalances } from './store.ts';

t.test("company B's store calls never reach A's books", async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const posted = await apiClient(ledger.url, a.dataset, a.apiKey)(
    'POST',
    '/gl/transactions',
    rentEntry({ pending: 0 }),
  );
  t.equal(posted.status, 201, JSON.stringify(posted.body));
  const A = a.company.id;
  const B = b.company.id;
  await ledger.db.transaction(async (tx) => {
    t.same(await postedDateSpan(tx, A), { first: '2024-03-15', last: '2024-03-15' }, 'A has posted lines in 2024');
    t.equal(await postedDateSpan(tx, B), null, "B's span counts none of A's lines");
    t.ok((await resultBalances(tx, A, '2024-01-01', '2024-12-31')).length > 0, 'A has a result');
    t.same(await resultBalances(tx, B, '2024-01-01', '2024-12-31'), [], "B's result has none of A's lines");
    t.same(await closingEntries(tx, B), []);
    const ofA = await accountByNumber(tx, A, '6000');
    const ofB = await accountByNumber(tx, B, '6000');
    t.ok(ofA && ofB && ofA.id !== ofB.id, 'each finds its own account');
  });
});
