/**
 * The change feed against a real ledger and Postgres: an event commits with its change and
 * a refused change leaves none; pages follow the cursor without gaps or duplicates while
 * other requests write; the Link header; what a role may see; a bad filter is a 400.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('party events: committed with the change, none for a refused change, one feed in order', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const created = await api('POST', '/arap/customer', { name: 'Muster AG', country: 'CH' });
  t.equal(created.status, 201);
  const refused = await api('POST', '/arap/customer', { name: 'X', curr: 'XXX' });
  t.equal(refused.status, 400, 'a refused change');
  const updated = await api('POST', `/arap/customer/${created.body.id}`, { name: 'Muster Holding AG' });
  t.equal(updated.status, 200);

  const feed = await api('GET', '/events');
  t.equal(feed.status, 200);
  t.same(
    feed.body.map((e: { type: string; id: string }) => [e.id, e.type]),
    [
      ['1', 'party.created'],
      ['2', 'party.updated'],
    ],
    'one event per committed change, none for the refused one, numbered without a gap',
  );
  const [first] = feed.body;
  t.equal(first.specversion, '1.0');
  t.equal(first.source, `${ledger.config.publicUrl.replace(/\/$/, '')}/client/${a.dataset}`);
  t.equal(first.subject, `/arap/customer/${created.body.id}`);
  t.equal(first.data.resource.url, `${first.source}/arap/customer/${created.body.id}`);
  t.equal(first.data.resource.id, created.body.id);
  t.same(first.data.actor, { via: 'api_key', id: String(a.apiKeyId), label: 'owner key', user_id: a.userId });
  t.equal(first.data.snapshot.name, 'Muster AG');
  t.match(feed.headers.get('link'), /[?&]after=2>; rel="next"$/, 'the next page starts after the last event');

  const one = await api('GET', '/events/2');
  t.equal(one.status, 200);
  t.equal(one.body.data.snapshot.name, 'Muster Holding AG');
  t.equal((await api('GET', '/events/99')).status, 404);

  const after = await api('GET', '/events?after=2');
  t.same(after.body, [], 'nothing after the last one');
  t.match(after.headers.get('link'), /after=2>/, 'an empty page points where to poll again');

  t.equal((await api('GET', '/events?type=party.updated')).body.length, 1, 'filter by type');
  t.equal((await api('GET', '/events?type=party.*')).body.length, 2, 'filter by area.*');
  const badFilter = await api('GET', '/events?type=party.exploded');
  t.equal(badFilter.status, 400);
  t.equal(badFilter.body.error.field, 'type');
});

t.test('what a role may read decides which events it sees', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const owner = apiClient(ledger.url, a.dataset, a.apiKey);
  await owner('POST', '/arap/customer', { name: 'Kunde AG' });
  await owner('POST', '/system/api_keys', { label: 'erp' });
  const viewer = await a.addMember('viewer');
  const asViewer = apiClient(ledger.url, a.dataset, viewer.apiKey);
  const seen = await asViewer('GET', '/events');
  t.same(
    seen.body.map((e: { type: string }) => e.type),
    ['party.created'],
    'a viewer sees the customer, not the API key made by the owner',
  );
  const all = await owner('GET', '/events');
  t.same(
    all.body.map((e: { type: string }) => e.type),
    ['party.created', 'api_key.created'],
  );
  t.equal((await asViewer('GET', '/events/2')).status, 404, 'an event the caller may not read is not found');
});

t.test('the feed pages without gaps or duplicates while others write', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const writers = 4;
  const perWriter = 15;
  let writing = true;
  const write = async (w: number) => {
    for (let i = 0; i < perWriter; i++) {
      const r = await api('POST', '/arap/vendor', { name: `Vendor ${w}-${i}` });
      if (r.status !== 201) throw new Error(`write failed: ${r.status}`);
    }
  };
  const writes = Promise.all(Array.from({ length: writers }, (_, w) => write(w))).finally(() => {
    writing = false;
  });
  const seen: number[] = [];
  let after = 0;
  // read small pages while the writers run, then until the feed has everything
  for (;;) {
    // only a page asked for after the last write was answered may end the reading: one asked
    // for while it was committing may come back empty and still miss it
    const writesDone = !writing;
    const page = await api('GET', `/events?after=${after}&limit=7`);
    t.equal(page.status, 200);
    for (const e of page.body as { id: string }[]) seen.push(Number(e.id));
    const next = /after=(\d+)>/.exec(page.headers.get('link') ?? '')?.[1];
    after = Number(next);
    if (writesDone && page.body.length === 0) break;
  }
  await writes;
  const expected = Array.from({ length: writers * perWriter }, (_, i) => i + 1);
  t.same(seen, expected, 'every event once, in sequence order');
  const names = new Set(
    ((await api('GET', `/events?limit=500`)).body as { data: { snapshot: { name: string } } }[]).map(
      (e) => e.data.snapshot.name,
    ),
  );
  t.equal(names.size, writers * perWriter, 'one event per vendor');
});
