/**
 * A bill whose rule snapshot is remembered (arap's ruleContext.ts `recallRuleContext`) goes to
 * Postgres as one message, its statement checking that the snapshot is still what the database
 * holds. Whatever changed meanwhile — a tax rate, an account's links, the closing date, the
 * vendor, a webhook subscription — the bill is computed and checked against the database as it
 * is: the remembered snapshot fails its check, nothing of that attempt commits, and the request
 * runs again reading it afresh. Changes are made straight in the database, as another replica of
 * the ledger would make them (this ledger learns nothing of them but through its check).
 */
import t from 'tap';
import { startLedger } from '../../server.ts';
import { type Tx, withTenant } from '../../db/knex.ts';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';

t.test('a remembered snapshot is never trusted: every change made elsewhere is seen by the next bill', async (t) => {
  const config = testConfig({
    events: { retentionDays: 400, allowLoopback: true, webhookQueue: 'webhook_deliveries_remembered' },
  });
  const ledger = await startLedger({ config, mail: false, inbox: false, webhooks: false });
  t.teardown(() => ledger.close());
  const co = await createTestCompany({ ...ledger, config });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies' });
  t.equal(vendor.status, 201);
  const bill = {
    type: 'transaction',
    vendor_id: vendor.body.id,
    invDate: '2024-03-15',
    pending: '0',
    lines: [{ account: CHART.vendor.line, amount: 100, taxAccount: CHART.vendor.tax }],
  };
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);
  let messages: string[] = [];
  ledger.db.on('query', (m: { sql: string }) => messages.push(m.sql));
  const whole = (m: string) => /^begin; .*; execute p_\w+\(…\); commit$/s.test(m);
  const post = async () => {
    messages = [];
    return api('POST', '/arap/transaction/vendor', bill);
  };
  let stale = 0;
  const countStale = () => {
    const i = messages.findIndex(whole);
    if (i >= 0 && messages[i + 1] === 'rollback') stale++;
  };

  // until a bill goes as one message: the snapshot remembered and the statement prepared on its connection
  let oneMessage = false;
  for (let i = 0; i < 20 && !oneMessage; i++) {
    t.equal((await post()).status, 201);
    oneMessage = messages.length === 1 && whole(messages[0]!);
  }
  t.ok(oneMessage, 'a bill like the last one: one message');
  const grossOf = async (id: number) =>
    (
      await q(
        async (tx) =>
          (await tx('events')
            .where({ resource_id: String(id), type: 'bill.created' })
            .first())!,
      )
    ).data.amount as string;

  // a tax rate changed: the next bill is taxed at the new rate
  const taxAccountId = await q(
    async (tx) => (await tx('accounts').where({ accno: CHART.vendor.tax }).first('id'))!.id as number,
  );
  const before = await grossOf((await post()).body.id);
  await q((tx) => tx('taxes').where({ account_id: taxAccountId }).update({ rate: '0.5' }));
  const changedRate = await post();
  countStale();
  t.equal(changedRate.status, 201);
  const after = await grossOf(changedRate.body.id);
  t.not(after, before, 'the gross follows the new rate');
  t.equal(after, '150', '100 net at 50 %');

  // the vendor renamed (a change the bill does not show): posted all the same
  await q((tx) => tx('parties').where({ id: vendor.body.id }).update({ name: 'Acme Renamed' }));
  const renamed = await post();
  countStale();
  t.equal(renamed.status, 201);

  // the line's account no longer a purchase account: the bill is refused, as it would be without the memory
  const links = await q(
    async (tx) => (await tx('accounts').where({ accno: CHART.vendor.line }).first('link'))!.link as string,
  );
  await q((tx) => tx('accounts').where({ accno: CHART.vendor.line }).update({ link: '' }));
  const refused = await post();
  countStale();
  t.equal(refused.status, 400, 'refused against the chart as it is now');
  t.match(refused.body.error.message, /not usable on vendor lines/);
  await q((tx) => tx('accounts').where({ accno: CHART.vendor.line }).update({ link: links }));
  t.equal((await post()).status, 201, 'accepted again once the links are back');

  // the period closed: refused
  await q((tx) => tx('companies').where({ id: co.company.id }).update({ closed_until: '2024-12-31' }));
  const closedPeriod = await post();
  t.equal(closedPeriod.status, 422, 'a closed period refuses the bill');
  await q((tx) => tx('companies').where({ id: co.company.id }).update({ closed_until: null }));
  t.equal((await post()).status, 201);

  t.ok(stale >= 1, `a stale remembered snapshot was rolled back and run again (${stale} times)`);
  const documents = await q(async (tx) => (await tx('arap_transactions').where({ vc: 'vendor' })).length);
  const audited = await q(async (tx) => (await tx('audit_log').where({ action: 'create_posted' })).length);
  t.equal(audited, documents, 'every document once in the audit log: no attempt left a trace');
});
