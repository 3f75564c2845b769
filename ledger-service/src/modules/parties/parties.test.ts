import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

const acme = {
  name: 'Acme Supplies AG',
  address1: 'Bahnhofstrasse',
  street: '12a',
  zipcode: '8001',
  city: 'Zürich',
  country: 'CH',
  email: 'billing@acme.example',
  phone: '+41 44 000 00 00',
  curr: 'CHF',
  taxnumber: 'CHE-123.456.789 MWST',
  terms: 30,
};
/** What a read shows of it: `curr` reads as `currency`. */
const { curr: _curr, ...acmeRead } = { ...acme, currency: acme.curr };

t.test('vendors: create, read, search, update, delete', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const created = await api('POST', '/arap/vendor', acme);
  t.equal(created.status, 201);
  t.type(created.body.id, 'number');
  t.equal(created.body.vendornumber, 'V-00001', 'number from the company sequence');

  const read = await api('GET', `/arap/vendor/${created.body.id}`);
  t.equal(read.status, 200);
  t.same(
    read.body,
    { id: created.body.id, vendornumber: 'V-00001', ...acmeRead, language: null },
    'read shape carries every stored field, curr as currency',
  );

  const second = await api('POST', '/arap/vendor', { name: 'Büro Müller GmbH', city: 'Bern', country: 'CH' });
  t.equal(second.body.vendornumber, 'V-00002');
  const minimal = await api('GET', `/arap/vendor/${second.body.id}`);
  t.equal(minimal.body.email, null, 'unset fields are null');
  t.equal(minimal.body.zipcode, null);

  const own = await api('POST', '/arap/vendor', { name: 'Own Number Ltd', vendornumber: 'V-00003' });
  t.equal(own.body.vendornumber, 'V-00003', 'a given number is kept');
  const next = await api('POST', '/arap/vendor', { name: 'After Own Ltd' });
  t.equal(next.body.vendornumber, 'V-00004', 'the sequence skips numbers already taken by hand');

  const all = await api('GET', '/arap/vendor');
  t.equal(all.status, 200);
  t.same(
    all.body.map((v: { name: string }) => v.name),
    ['Acme Supplies AG', 'After Own Ltd', 'Büro Müller GmbH', 'Own Number Ltd'],
    'sorted by name',
  );
  const hit = await api('GET', '/arap/vendor?name=ACME');
  t.same(
    hit.body.map((v: { id: number }) => v.id),
    [created.body.id],
    'case-insensitive',
  );
  const partial = await api('GET', `/arap/vendor?name=${encodeURIComponent('müll')}`);
  t.same(
    partial.body.map((v: { name: string }) => v.name),
    ['Büro Müller GmbH'],
    'partial match',
  );
  t.same((await api('GET', '/arap/vendor?name=%25')).body, [], 'LIKE wildcards are matched literally');
  const page = await api('GET', '/arap/vendor?limit=2&offset=1');
  t.same(
    page.body.map((v: { name: string }) => v.name),
    ['After Own Ltd', 'Büro Müller GmbH'],
    'limit and offset',
  );
  const badQuery = await api('GET', '/arap/vendor?nme=x');
  t.equal(badQuery.status, 400);
  t.equal(badQuery.body.error.field, '/nme');

  const updated = await api('POST', `/arap/vendor/${created.body.id}`, {
    city: 'Winterthur',
    zipcode: '8400',
    email: null,
  });
  t.equal(updated.status, 200);
  t.equal(updated.body.city, 'Winterthur');
  t.equal(updated.body.email, null, 'null clears a field');
  t.equal(updated.body.name, acme.name, 'fields not sent stay');
  t.equal((await api('GET', `/arap/vendor/${created.body.id}`)).body.zipcode, '8400', 'the update is stored');

  const del = await api('DELETE', `/arap/vendor/${second.body.id}`);
  t.equal(del.status, 204);
  t.equal((await api('GET', `/arap/vendor/${second.body.id}`)).status, 404);
  t.equal((await api('DELETE', `/arap/vendor/${second.body.id}`)).status, 404, 'deleting twice: not found');
  t.equal(
    (await api('POST', `/arap/vendor/${second.body.id}`, { city: 'x' })).status,
    404,
    'updating a deleted vendor: not found',
  );
});

t.test('numbers are unique per company and side', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const first = await api('POST', '/arap/vendor', { name: 'One', vendornumber: 'K-1' });
  t.equal(first.status, 201);
  const dup = await api('POST', '/arap/vendor', { name: 'Two', vendornumber: 'K-1' });
  t.equal(dup.status, 409);
  t.equal(dup.body.error.code, 'conflict');
  t.equal(dup.body.error.field, '/vendornumber');
  t.match(dup.body.error.message, 'K-1');

  const other = await api('POST', '/arap/vendor', { name: 'Three' });
  const renumber = await api('POST', `/arap/vendor/${other.body.id}`, { vendornumber: 'K-1' });
  t.equal(renumber.status, 409, 'an update to a taken number conflicts too');

  const customer = await api('POST', '/arap/customer', { name: 'One as customer', customernumber: 'K-1' });
  t.equal(customer.status, 201, 'customers have their own numbers');
  t.equal(customer.body.customernumber, 'K-1');
  const elsewhere = await apiClient(ledger.url, b.dataset, b.apiKey)('POST', '/arap/vendor', {
    name: 'One',
    vendornumber: 'K-1',
  });
  t.equal(elsewhere.status, 201, 'another company may use the same number');
});

t.test('customers mirror vendors', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const c = await api('POST', '/arap/customer', { name: 'Kunde AG', country: 'DE', curr: 'EUR' });
  t.equal(c.status, 201);
  t.equal(c.body.customernumber, 'C-00001');
  const read = await api('GET', `/arap/customer/${c.body.id}`);
  t.equal(read.body.customernumber, 'C-00001');
  t.notOk('vendornumber' in read.body);
  t.equal(read.body.currency, 'EUR');
  t.equal((await api('GET', `/arap/vendor/${c.body.id}`)).status, 404, 'a customer is not a vendor');
  const wrongSide = await api('POST', '/arap/customer', { name: 'X', vendornumber: '1' });
  t.equal(wrongSide.status, 400);
  t.equal(wrongSide.body.error.field, '/vendornumber');
  t.equal((await api('GET', '/arap/supplier')).status, 404, 'unknown side');
});

t.test(
  'currency: written as curr, read as currency; currency on a write → 400 invalid_currency naming /curr',
  async (t) => {
    const ledger = await startTestLedger(t);
    const a = await createTestCompany(ledger);
    const api = apiClient(ledger.url, a.dataset, a.apiKey);
    for (const vc of ['vendor', 'customer'] as const) {
      const refused = async (path: string, body: Record<string, unknown>, what: string) => {
        const res = await api('POST', path, body);
        t.equal(res.status, 400, `${vc} ${what}: 400`);
        t.equal(res.body.error.code, 'invalid_currency', `${vc} ${what}: invalid_currency`);
        t.equal(res.body.error.field, '/curr', `${vc} ${what}: names curr`);
        t.match(res.body.error.message, /"curr"/, `${vc} ${what}: says to send curr`);
      };
      await refused(`/arap/${vc}`, { name: 'X', currency: 'EUR' }, 'create');
      await refused(`/arap/${vc}`, { currency: 'EUR' }, 'create without name');
      await refused(`/arap/${vc}`, { name: 'X', curr: 'EUR', currency: 'EUR' }, 'create with both');
      const created = await api('POST', `/arap/${vc}`, { name: 'Euro Partner', curr: 'EUR' });
      t.equal(created.status, 201);
      const path = `/arap/${vc}/${created.body.id}`;
      t.equal((await api('GET', path)).body.currency, 'EUR', 'read as currency');
      await refused(path, { currency: 'CHF' }, 'update');
      const read = await api('GET', path);
      t.equal(read.body.currency, 'EUR', 'nothing changed');
      await refused(path, { ...read.body, id: undefined }, 'update sending the read shape back');
      t.equal((await api('POST', path, { curr: 'CHF' })).body.currency, 'CHF', 'curr updates it');
      t.equal((await api('POST', path, { curr: null })).body.currency, null, 'null clears it');
    }
    const searched = await api('GET', '/arap/vendor?name=Euro');
    t.equal(searched.body.length, 1, 'the refused creates wrote nothing');
  },
);

t.test('validation', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const expect400 = async (body: unknown, field: string, code = 'invalid_request', path = '/arap/vendor') => {
    const res = await api('POST', path, body);
    t.equal(res.status, 400, `${JSON.stringify(body)} → 400`);
    t.equal(res.body.error.code, code);
    t.equal(res.body.error.field, field);
    t.type(res.body.error.message, 'string');
  };
  await expect400({}, '/name');
  await expect400({ city: 'Basel' }, '/name');
  await expect400({ name: '' }, '/name');
  await expect400({ name: 'X', country: 'XX' }, '/country');
  await expect400({ name: 'X', country: 'ch' }, '/country');
  await expect400({ name: 'X', country: 'CHE' }, '/country');
  await expect400({ name: 'X', curr: 'eur' }, '/curr', 'invalid_currency');
  await expect400({ name: 'X', curr: 'XYZ' }, '/curr', 'invalid_currency');
  await expect400({ name: 'X', nickname: 'x' }, '/nickname');
  await expect400({ name: 'X', email: 'not-an-email' }, '/email');
  await expect400({ name: 'X', terms: -1 }, '/terms');
  await expect400({ name: 'X', terms: '30' }, '/terms');
  await expect400({ name: 'X', vendornumber: '' }, '/vendornumber');

  const ok = await api('POST', '/arap/vendor', { name: 'Valid', country: 'LI', curr: 'EUR' });
  t.equal(ok.status, 201);
  await expect400({ name: null }, '/name', 'invalid_request', `/arap/vendor/${ok.body.id}`);
  await expect400({ country: 'ZZ' }, '/country', 'invalid_request', `/arap/vendor/${ok.body.id}`);
  await expect400({ curr: 'chf' }, '/curr', 'invalid_currency', `/arap/vendor/${ok.body.id}`);

  const unknown = await api('POST', `/arap/vendor/${ok.body.id}`, { colour: 'blue' });
  t.match(unknown.body.error.message, 'colour', 'the message names the field');
  t.equal((await api('POST', `/arap/vendor/${ok.body.id}`, {})).status, 400, 'an empty update is refused');
  t.equal((await api('GET', '/arap/vendor/abc')).status, 404, 'a non-numeric id is not found');
  t.equal((await api('GET', '/arap/vendor/99999999')).status, 404);
  const arrayBody = await api('POST', '/arap/vendor', [{ name: 'X' }]);
  t.equal(arrayBody.status, 400, 'an array body is refused');
});

t.test('delete is refused while a document refers to the party', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const v = await api('POST', '/arap/vendor', { name: 'Referenced AG' });

  // a stand-in for any document table: references a party of its company without cascade, like arap_transactions
  await ledger.db.raw(
    'create table if not exists test_party_refs_by_company (id bigserial primary key, company_id bigint not null, ' +
      'party_id bigint not null, foreign key (company_id, party_id) references parties (company_id, id))',
  );
  t.teardown(() => ledger.db('test_party_refs_by_company').where({ party_id: v.body.id }).delete());
  await ledger.db('test_party_refs_by_company').insert({ company_id: a.company.id, party_id: v.body.id });

  const refused = await api('DELETE', `/arap/vendor/${v.body.id}`);
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'conflict');
  t.match(refused.body.error.message, /referenced by documents/);
  t.equal((await api('GET', `/arap/vendor/${v.body.id}`)).status, 200, 'still there');

  await ledger.db('test_party_refs_by_company').where({ party_id: v.body.id }).delete();
  t.equal((await api('DELETE', `/arap/vendor/${v.body.id}`)).status, 204, 'deletable once unreferenced');
});

t.test('delete is refused while a transaction refers to the vendor', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const v = await api('POST', '/arap/vendor', { name: 'Billed AG' });
  const draft = await api('POST', '/arap/transaction/vendor', {
    type: 'transaction',
    vendor_id: v.body.id,
    invDate: '2024-03-15',
    documentNumber: 'R-1',
    lines: [{ account: '6500', amount: 100, taxAccount: '1170' }],
  });
  t.equal(draft.status, 201, JSON.stringify(draft.body));

  const refused = await api('DELETE', `/arap/vendor/${v.body.id}`);
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'conflict');
  t.equal((await api('GET', `/arap/vendor/${v.body.id}`)).status, 200, 'the vendor is kept');
  const audit = await api('GET', `/system/audit?entity=vendor&entity_id=${v.body.id}`);
  t.same(
    audit.body.map((e: { action: string }) => e.action),
    ['create'],
    'a refused delete leaves no audit entry',
  );

  t.equal((await api('DELETE', `/arap/transaction/vendor/${draft.body.id}`)).status, 204, 'the draft is deleted');
  t.equal((await api('DELETE', `/arap/vendor/${v.body.id}`)).status, 204, 'then the vendor can go');
});

t.test('party lists: X-Total-Count, Link, sort by name or id', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const names = ['Charlie', 'alpha', 'Bravo'];
  const ids: number[] = [];
  for (const name of names) ids.push((await api('POST', '/arap/customer', { name })).body.id);
  const namesOf = (r: { body: { name: string }[] }) => r.body.map((p) => p.name);
  const all = await api('GET', '/arap/customer');
  t.equal(all.headers.get('x-total-count'), '3');
  t.same(namesOf(all), ['alpha', 'Bravo', 'Charlie'], 'default: by name, case-insensitive');
  t.same(namesOf(await api('GET', '/arap/customer?sort=-name')), ['Charlie', 'Bravo', 'alpha']);
  t.same(
    (await api('GET', '/arap/customer?sort=id')).body.map((p: { id: number }) => p.id),
    ids,
  );
  t.same(
    (await api('GET', '/arap/customer?sort=-id')).body.map((p: { id: number }) => p.id),
    [...ids].reverse(),
  );
  t.equal((await api('GET', '/arap/customer?sort=city')).status, 400, 'unknown sort → 400');
  const page = await api('GET', '/arap/customer?limit=1&offset=1&name=a');
  t.equal(page.headers.get('x-total-count'), '3', 'all three names contain an a');
  const base = `${ledger.url}/client/${co.dataset}/arap/customer`;
  t.equal(
    page.headers.get('link'),
    `<${base}?limit=1&offset=2&name=a>; rel="next", <${base}?limit=1&offset=0&name=a>; rel="prev"`,
  );
});
