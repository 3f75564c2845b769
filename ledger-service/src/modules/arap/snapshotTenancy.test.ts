/**
 * The posting snapshot (ruleContext.ts) names its company in every table it reads: run where
 * row-level security does not apply (the tests' superuser, outside a tenant transaction), a
 * document of company B that names A's vendor and accounts finds none of A's rows.
 */
import t from 'tap';
import type { TransactionInput } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { loadRuleContext } from './ruleContext.ts';

t.test('a snapshot of company B holds no party, account or rate of company A', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const vendor = await apiClient(ledger.url, a.dataset, a.apiKey)('POST', '/arap/vendor', { name: 'Vendor of A' });
  t.equal(vendor.status, 201);
  const input = {
    vendor_id: vendor.body.id,
    invDate: '2024-06-15',
    lines: [{ account: '4000', amount: '100', taxAccount: '1170' }],
  } as unknown as TransactionInput;
  const [ofA, ofB] = await ledger.db.transaction(async (tx) => [
    await loadRuleContext(tx, a.company, 'vendor', input),
    await loadRuleContext(tx, b.company, 'vendor', input),
  ]);
  t.same(
    ofA.parties.map((p) => p.id),
    [vendor.body.id],
    "A's snapshot finds A's vendor",
  );
  t.same(ofB.parties, [], "B's snapshot does not");
  const idsOf = (c: typeof ofA) => [...c.accounts.values()].map((acc) => acc.id);
  t.ok(idsOf(ofA).length > 0, "A's accounts are found for A");
  t.notOk(
    idsOf(ofB).some((id) => idsOf(ofA).includes(id)),
    "B's snapshot holds none of A's accounts",
  );
  t.notOk(
    [...ofB.rates.keys()].some((id) => idsOf(ofA).includes(id)),
    "nor any rate of A's tax accounts",
  );
});
