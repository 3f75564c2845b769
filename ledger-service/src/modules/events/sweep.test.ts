/**
 * The webhook sweep over every company: one transaction as the sweep role (migration 024), not one
 * per company. It finds the pending subscriptions of all companies and drops their expired events,
 * and the role it runs as can read nothing else.
 */
import t from 'tap';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { SWEEP_ROLE } from '../../db/migrations/024_outbox_sending.ts';
import { startLedger } from '../../server.ts';
import { sweepAllCompanies } from './store.ts';

t.test('one sweep finds the pending deliveries of every company and prunes expired events', async (t) => {
  const config = testConfig({
    events: { retentionDays: 400, allowLoopback: true, webhookQueue: 'webhook_deliveries' },
  });
  // no sender: what the companies' events queue for their webhooks stays pending
  const ledger = await startLedger({ config, webhooks: false, mail: false });
  t.teardown(() => ledger.close());
  const companies = [await createTestCompany({ ...ledger, config }), await createTestCompany({ ...ledger, config })];
  const subscriptions: number[] = [];
  for (const c of companies) {
    const api = apiClient(ledger.url, c.dataset, c.apiKey);
    const hook = await api('POST', '/system/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['party.*'] });
    t.equal(hook.status, 201, JSON.stringify(hook.body));
    subscriptions.push(hook.body.id);
    t.equal((await api('POST', '/arap/customer', { name: 'Swept AG' })).status, 201);
  }

  const pending = await sweepAllCompanies(ledger.db, 400);
  for (const [i, c] of companies.entries()) {
    t.ok(
      pending.some((p) => p.company_id === c.company.id && p.id === subscriptions[i]),
      `company ${i + 1}'s subscription is found`,
    );
  }

  // the first company's events are older than the retention: the same sweep drops them
  const first = companies[0]!.company.id;
  const second = companies[1]!.company.id;
  await ledger.db.raw(`update events set time = now() - interval '500 days' where company_id = ?`, [first]);
  const after = await sweepAllCompanies(ledger.db, 400);
  const left = async (companyId: number) =>
    Number((await ledger.db.raw('select count(*) as n from events where company_id = ?', [companyId])).rows[0].n);
  t.equal(await left(first), 0, 'expired events pruned, with their deliveries');
  t.ok((await left(second)) > 0, "the other company's events are kept");
  t.notOk(
    after.some((p) => p.company_id === first),
    'nothing pending is left for the first company',
  );
  t.ok(after.some((p) => p.company_id === second));
});

t.test('the sweep role reads the webhook tables only', async (t) => {
  const config = testConfig();
  const ledger = await startLedger({ config, webhooks: false, mail: false });
  t.teardown(() => ledger.close());
  await t.rejects(
    ledger.db.transaction(async (tx) => {
      await tx.raw(`select set_config('role', ?, true)`, [SWEEP_ROLE]);
      await tx.raw('select count(*) from parties');
    }),
    /permission denied/,
  );
  await t.rejects(
    ledger.db.transaction(async (tx) => {
      await tx.raw(`select set_config('role', ?, true)`, [SWEEP_ROLE]);
      await tx.raw(`update webhook_subscriptions set url = 'https://example.com/'`);
    }),
    /permission denied/,
  );
});
