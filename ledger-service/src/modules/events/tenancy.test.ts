/**
 * One company's change feed, webhooks and their deliveries are never visible or changeable
 * from another company: through the API (row-level security and the explicit company filter
 * together), and in the store itself, whose every query names its company even where
 * row-level security does not apply (a connection that bypasses it, as the tests' owner
 * does outside a tenant transaction).
 */
import t, { type Test } from 'tap';
import { apiClient, createTestCompany, testConfig } from '../../../test/helpers.ts';
import { startLedger } from '../../server.ts';
import { eventsAfter, eventBySeq } from './reads.ts';
import {
  eventSeqsAfter,
  findDelivery,
  findSubscription,
  headDelivery,
  listDeliveries,
  listSubscriptions,
  subscriptionsWithPending,
} from './store.ts';

const HOOK = 'http://127.0.0.1:9/hook';

async function twoCompanies(t: Test) {
  const queue = `webhooks_${Math.random().toString(36).slice(2)}`;
  const config = testConfig({ events: { retentionDays: 400, allowLoopback: true, webhookQueue: queue } });
  // no sender: the deliveries stay pending where the test reads them
  const ledger = await startLedger({ config, mail: false, webhooks: false, inbox: false });
  t.teardown(() => ledger.close());
  const a = await createTestCompany({ ...ledger, config });
  const b = await createTestCompany({ ...ledger, config });
  const apiA = apiClient(ledger.url, a.dataset, a.apiKey);
  const apiB = apiClient(ledger.url, b.dataset, b.apiKey);
  const hook = await apiA('POST', '/system/webhooks', { url: HOOK, events: ['party.*'] });
  t.equal(hook.status, 201);
  for (const name of ['Secret Vendor One AG', 'Secret Vendor Two AG', 'Secret Vendor Three AG']) {
    t.equal((await apiA('POST', '/arap/vendor', { name })).status, 201);
  }
  t.equal((await apiB('POST', '/arap/vendor', { name: 'Own Vendor of B' })).status, 201);
  const feedA = await apiA('GET', '/events');
  const deliveriesA = await apiA('GET', `/system/webhooks/${hook.body.id}/deliveries`);
  t.ok(deliveriesA.body.length >= 3, 'A has deliveries pending');
  return { ledger, a, b, apiA, apiB, hookId: hook.body.id as number, feedA, deliveriesA };
}

t.test("company B's API never shows or changes A's events, webhooks or deliveries", async (t) => {
  const { apiA, apiB, hookId, feedA, deliveriesA } = await twoCompanies(t);
  const feedB = await apiB('GET', '/events');
  t.equal(feedB.status, 200);
  t.ok(feedB.body.length > 0, "B's feed has B's own events");
  t.notMatch(JSON.stringify(feedB.body), /Secret Vendor/, "and none of A's");
  const lastOfA = Math.max(...feedA.body.map((e: { id: string }) => Number(e.id)));
  const lastOfB = Math.max(...feedB.body.map((e: { id: string }) => Number(e.id)));
  t.ok(lastOfA > lastOfB, 'A has an event number B has not reached');
  t.equal((await apiB('GET', `/events/${lastOfA}`)).status, 404, "A's event is not found from B");

  t.same((await apiB('GET', '/system/webhooks')).body, [], "A's webhook is not in B's list");
  t.equal((await apiB('GET', `/system/webhooks/${hookId}`)).status, 404);
  t.equal((await apiB('GET', `/system/webhooks/${hookId}/deliveries`)).status, 404);
  const delivery = deliveriesA.body[0].id;
  t.equal((await apiB('POST', `/system/webhooks/${hookId}/deliveries/${delivery}/redeliver`)).status, 404);
  t.equal((await apiB('POST', `/system/webhooks/${hookId}/replay`, { after: 0 })).status, 404);
  t.equal((await apiB('DELETE', `/system/webhooks/${hookId}`)).status, 404, 'B cannot delete it');

  const still = await apiA('GET', `/system/webhooks/${hookId}`);
  t.equal(still.body.status, 'active', "A's webhook is untouched");
  t.same((await apiA('GET', `/system/webhooks/${hookId}/deliveries`)).body, deliveriesA.body, 'its deliveries too');
});

t.test("the events store names its company in every query, even where row-level security doesn't apply", async (t) => {
  const { ledger, a, b, hookId, deliveriesA } = await twoCompanies(t);
  // the test URL's user is a superuser: outside a tenant transaction nothing but the query's own filter holds
  await ledger.db.transaction(async (tx) => {
    const resources = (await tx('events').distinct('resource_type')).map(
      (r: { resource_type: string }) => r.resource_type,
    );
    const ofB = await eventsAfter(tx, b.company.id, { after: 0, limit: 10_000, resources });
    t.ok(ofB.length > 0, "B's events");
    t.same([...new Set(ofB.map((e) => e.company_id))], [b.company.id], 'only B');
    const seqsOfA = (await eventsAfter(tx, a.company.id, { after: 0, limit: 10_000, resources })).map((e) => e.seq);
    const onlyA = Math.max(...seqsOfA);
    t.equal(await eventBySeq(tx, b.company.id, onlyA, resources), undefined, "A's last event number is not B's");
    t.same(
      (await eventSeqsAfter(tx, b.company.id, 0, ['party.*'], 1000)).length,
      ofB.filter((e) => e.type.startsWith('party.')).length,
      'a replay of B takes only B events',
    );
    t.same(await listSubscriptions(tx, b.company.id), [], "A's webhook is not B's");
    t.equal(await findSubscription(tx, b.company.id, hookId), undefined);
    t.same(await listDeliveries(tx, b.company.id, hookId, { limit: 50 }), []);
    t.equal(await findDelivery(tx, b.company.id, hookId, deliveriesA.body[0].id), undefined);
    t.equal(await headDelivery(tx, b.company.id, hookId), undefined);
    t.same(await subscriptionsWithPending(tx, b.company.id), [], "the sweep of B finds nothing of A's");
    t.equal((await subscriptionsWithPending(tx, a.company.id)).length, 1, "A's sweep finds A's");
  });
});
