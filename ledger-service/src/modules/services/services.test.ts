import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { withTenant, type Tx } from '../../db/knex.ts';
import { findServiceForItem } from './store.ts';

const consulting = {
  description: 'Consulting',
  unit: 'h',
  price: 180.5,
  curr: 'CHF',
  income_account: '3400',
  expense_account: '4400',
  taxAccount: '2200',
};

t.test('services: create, read, list, update, delete', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);

  const created = await api('POST', '/arap/services', consulting);
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(created.body, { id: created.body.id, partnumber: '000001' }, 'partnumber from the company sequence');
  const read = await api('GET', `/arap/services/${created.body.id}`);
  t.equal(read.status, 200);
  t.same(
    read.body,
    { id: created.body.id, partnumber: '000001', ...consulting, active: true },
    'read shape carries every field',
  );

  const minimal = await api('POST', '/arap/services', { description: 'Travel flat rate', price: 0.123456 });
  t.equal(minimal.body.partnumber, '000002');
  const minimalRead = await api('GET', `/arap/services/${minimal.body.id}`);
  t.same(
    minimalRead.body,
    {
      id: minimal.body.id,
      partnumber: '000002',
      description: 'Travel flat rate',
      unit: null,
      price: 0.123456,
      curr: 'CHF',
      income_account: null,
      expense_account: null,
      taxAccount: null,
      active: true,
    },
    'curr defaults to the base currency; 6 decimals kept exactly',
  );
  const stored = await withTenant(ledger.db, co.company.id, (tx) =>
    tx('services').where({ id: minimal.body.id }).first('price'),
  );
  t.equal(stored?.price, '0.123456', 'NUMERIC in the database');

  const own = await api('POST', '/arap/services', {
    description: 'Licence',
    price: 1000,
    partnumber: '000003',
    curr: 'EUR',
  });
  t.equal(own.body.partnumber, '000003', 'a given partnumber is kept');
  const next = await api('POST', '/arap/services', { description: 'After own', price: 1 });
  t.equal(next.body.partnumber, '000004', 'the sequence skips numbers taken by hand');

  const updated = await api('POST', `/arap/services/${created.body.id}`, { price: 190, unit: null, taxAccount: null });
  t.equal(updated.status, 200);
  t.same(
    updated.body,
    { ...read.body, price: 190, unit: null, taxAccount: null },
    'only the fields sent change; null clears',
  );
  t.same((await api('GET', `/arap/services/${created.body.id}`)).body, updated.body, 'the update is stored');

  const del = await api('DELETE', `/arap/services/${next.body.id}`);
  t.equal(del.status, 204);
  t.equal((await api('GET', `/arap/services/${next.body.id}`)).status, 404);
  t.equal((await api('DELETE', `/arap/services/${next.body.id}`)).status, 404, 'deleting twice: not found');
  t.equal(
    (await api('POST', `/arap/services/${next.body.id}`, { price: 2 })).status,
    404,
    'updating a deleted service: not found',
  );

  const audit = await api('GET', `/system/audit?entity=service&entity_id=${created.body.id}`);
  t.same(audit.body.map((e: { action: string }) => e.action).sort(), ['create', 'update'], 'writes are audited');
  const deleted = await api('GET', `/system/audit?entity=service&entity_id=${next.body.id}`);
  t.same(deleted.body.map((e: { action: string }) => e.action).sort(), ['create', 'delete']);
});

t.test('list: active filter, text search, sort, paging', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const add = async (body: Record<string, unknown>) =>
    (await api('POST', '/arap/services', { price: 10, ...body })).body.id as number;
  const a = await add({ partnumber: 'B-2', description: 'Web design' });
  const b = await add({ partnumber: 'A-1', description: 'hosting 100%' });
  const c = await add({ partnumber: 'C-3', description: 'Design review', active: false });

  const ids = (r: { body: { id: number }[] }) => r.body.map((s) => s.id);
  const all = await api('GET', '/arap/services');
  t.same(ids(all), [b, a, c], 'default: by partnumber');
  t.equal(all.headers.get('x-total-count'), '3');
  t.same(ids(await api('GET', '/arap/services?sort=description')), [c, b, a], 'description, case-insensitive');
  t.same(ids(await api('GET', '/arap/services?sort=-id')), [c, b, a]);
  t.same(ids(await api('GET', '/arap/services?active=true')), [b, a]);
  t.same(ids(await api('GET', '/arap/services?active=false')), [c]);
  t.same(ids(await api('GET', '/arap/services?q=DESIGN')), [a, c], 'case-insensitive partial match on description');
  t.same(ids(await api('GET', '/arap/services?q=a-1')), [b], 'and on partnumber');
  t.same(ids(await api('GET', '/arap/services?q=design&active=true')), [a], 'filters combine');
  t.same(ids(await api('GET', '/arap/services?q=%25')), [b], 'LIKE wildcards are matched literally');
  const page = await api('GET', '/arap/services?limit=1&offset=1');
  t.same(ids(page), [a]);
  t.equal(page.headers.get('x-total-count'), '3');
  const base = `${ledger.url}/client/${co.dataset}/arap/services`;
  t.equal(page.headers.get('link'), `<${base}?limit=1&offset=2>; rel="next", <${base}?limit=1&offset=0>; rel="prev"`);
  t.equal((await api('GET', '/arap/services?sort=price')).status, 400, 'unknown sort → 400');
  t.equal((await api('GET', '/arap/services?active=maybe')).status, 400);
  const unknown = await api('GET', '/arap/services?name=x');
  t.equal(unknown.status, 400);
  t.equal(unknown.body.error.field, '/name');
});

t.test('validation', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);

  const expect400 = async (body: unknown, field: string, code = 'invalid_request', path = '/arap/services') => {
    const res = await api('POST', path, body);
    t.equal(res.status, 400, `${JSON.stringify(body)} → 400`);
    t.equal(res.body.error.code, code);
    t.equal(res.body.error.field, field);
    t.type(res.body.error.message, 'string');
  };
  await expect400({ price: 1 }, '/description');
  await expect400({ description: 'X' }, '/price');
  await expect400({ description: '', price: 1 }, '/description');
  await expect400({ description: 'X', price: '1.5' }, '/price');
  await expect400({ description: 'X', price: 1.1234567 }, '/price');
  await expect400({ description: 'X', price: 1e13 }, '/price');
  await expect400({ description: 'X', price: 1, curr: 'XYZ' }, '/curr', 'invalid_currency');
  await expect400({ description: 'X', price: 1, curr: 'chf' }, '/curr', 'invalid_currency');
  await expect400({ description: 'X', price: 1, partnumber: '' }, '/partnumber');
  await expect400({ description: 'X', price: 1, partnumber: ' P1' }, '/partnumber');
  await expect400({ description: 'X', price: 1, active: 'yes' }, '/active');
  await expect400({ description: 'X', price: 1, colour: 'blue' }, '/colour');
  await expect400({ description: 'X', price: 1, income_account: '9999' }, '/income_account');
  await expect400({ description: 'X', price: 1, income_account: '4400' }, '/income_account');
  await expect400({ description: 'X', price: 1, expense_account: '3400' }, '/expense_account');
  await expect400({ description: 'X', price: 1, taxAccount: '3400' }, '/taxAccount');
  await expect400({ description: 'X', price: 1, taxAccount: '' }, '/taxAccount');
  const inputTax = await api('POST', '/arap/services', {
    description: 'Bought-in',
    price: 1,
    taxAccount: '1170',
    expense_account: '4000',
  });
  t.equal(inputTax.status, 201, 'an input-tax (AP_tax) account is a tax account too');

  const ok = await api('POST', '/arap/services', { description: 'Valid', price: -5.5 });
  t.equal(ok.status, 201, 'a negative price (a discount) is allowed');
  const path = `/arap/services/${ok.body.id}`;
  t.equal((await api('POST', path, {})).status, 400, 'an empty update is refused');
  await expect400({ description: null }, '/description', 'invalid_request', path);
  await expect400({ price: null }, '/price', 'invalid_request', path);
  await expect400({ price: 0.0000001 }, '/price', 'invalid_request', path);
  await expect400({ curr: 'EURO' }, '/curr', 'invalid_currency', path);
  await expect400({ income_account: '1170' }, '/income_account', 'invalid_request', path);
  t.equal((await api('GET', '/arap/services/abc')).status, 404, 'a non-numeric id is not found');
  t.equal((await api('GET', '/arap/services/99999999')).status, 404);
  t.equal(
    (await api('POST', '/arap/services', [{ description: 'X', price: 1 }])).status,
    400,
    'an array body is refused',
  );
});

t.test('partnumbers are unique per company', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  t.equal((await api('POST', '/arap/services', { description: 'One', price: 1, partnumber: 'P-1' })).status, 201);
  const dup = await api('POST', '/arap/services', { description: 'Two', price: 1, partnumber: 'P-1' });
  t.equal(dup.status, 409);
  t.equal(dup.body.error.code, 'conflict');
  t.equal(dup.body.error.field, '/partnumber');
  t.match(dup.body.error.message, 'P-1');
  const other = await api('POST', '/arap/services', { description: 'Three', price: 1 });
  t.equal(
    (await api('POST', `/arap/services/${other.body.id}`, { partnumber: 'P-1' })).status,
    409,
    'renumbering onto a taken partnumber conflicts',
  );
  t.equal(
    (await api('POST', `/arap/services/${other.body.id}`, { partnumber: other.body.partnumber })).status,
    200,
    'keeping its own partnumber is fine',
  );
  const elsewhere = await apiClient(ledger.url, b.dataset, b.apiKey)('POST', '/arap/services', {
    description: 'One',
    price: 1,
    partnumber: 'P-1',
  });
  t.equal(elsewhere.status, 201, 'another company may use the same partnumber');
  t.same(
    (await apiClient(ledger.url, b.dataset, b.apiKey)('GET', '/arap/services')).body.map(
      (s: { description: string }) => s.description,
    ),
    ['One'],
    'a company sees only its own services',
  );
  t.equal((await apiClient(ledger.url, b.dataset, b.apiKey)('GET', `/arap/services/${other.body.id}`)).status, 404);
});

t.test('delete is refused while an invoice item uses the service', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const s = await api('POST', '/arap/services', { description: 'Used', price: 10 });

  // a stand-in for any document table referencing a service of its company without cascade, like invoice items
  await ledger.db.raw(
    'create table if not exists test_service_refs_by_company (id bigserial primary key, company_id bigint not null, ' +
      'service_id bigint, foreign key (company_id, service_id) references services (company_id, id))',
  );
  t.teardown(() => ledger.db('test_service_refs_by_company').where({ service_id: s.body.id }).delete());
  await ledger.db('test_service_refs_by_company').insert({ company_id: co.company.id, service_id: s.body.id });

  const refused = await api('DELETE', `/arap/services/${s.body.id}`);
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'conflict');
  t.match(refused.body.error.message, /deactivate/);
  t.equal((await api('GET', `/arap/services/${s.body.id}`)).status, 200, 'still there');
  const audit = await api('GET', `/system/audit?entity=service&entity_id=${s.body.id}`);
  t.same(
    audit.body.map((e: { action: string }) => e.action),
    ['create'],
    'a refused delete leaves no audit entry',
  );

  const deactivated = await api('POST', `/arap/services/${s.body.id}`, { active: false });
  t.equal(deactivated.body.active, false, 'deactivating is the way out');

  await ledger.db('test_service_refs_by_company').where({ service_id: s.body.id }).delete();
  t.equal((await api('DELETE', `/arap/services/${s.body.id}`)).status, 204, 'deletable once unused');
});

t.test('permissions: readers read, clerks and above write', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const s = await api('POST', '/arap/services', { description: 'Seen', price: 10 });
  const viewer = apiClient(ledger.url, co.dataset, (await co.addMember('viewer')).apiKey);
  t.equal((await viewer('GET', '/arap/services')).status, 200);
  t.equal((await viewer('GET', `/arap/services/${s.body.id}`)).status, 200);
  t.equal((await viewer('POST', '/arap/services', { description: 'No', price: 1 })).status, 403);
  t.equal((await viewer('POST', `/arap/services/${s.body.id}`, { price: 1 })).status, 403);
  t.equal((await viewer('DELETE', `/arap/services/${s.body.id}`)).status, 403);
  const clerk = apiClient(ledger.url, co.dataset, (await co.addMember('clerk')).apiKey);
  t.equal((await clerk('POST', '/arap/services', { description: 'Yes', price: 1 })).status, 201);
  t.equal((await clerk('POST', `/arap/services/${s.body.id}`, { price: 11 })).status, 200);
});

t.test('findServiceForItem: by id, by partnumber, both, within the company', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const b = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const s = await api('POST', '/arap/services', { ...consulting, partnumber: 'CONS', price: 180.123456 });
  const other = await api('POST', '/arap/services', { description: 'Other', price: 1, active: false });
  const inA = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, a.company.id, fn);

  const expected = {
    id: s.body.id,
    partnumber: 'CONS',
    description: 'Consulting',
    unit: 'h',
    price: '180.123456',
    curr: 'CHF',
    income_account: '3400',
    expense_account: '4400',
    taxAccount: '2200',
    active: true,
  };
  t.same(
    await inA((tx) => findServiceForItem(tx, a.company.id, { service_id: s.body.id })),
    expected,
    'by id; price as exact text',
  );
  t.same(await inA((tx) => findServiceForItem(tx, a.company.id, { partnumber: 'CONS' })), expected, 'by partnumber');
  t.same(
    await inA((tx) => findServiceForItem(tx, a.company.id, { service_id: s.body.id, partnumber: 'CONS' })),
    expected,
    'both naming the same service',
  );
  t.equal(
    await inA((tx) =>
      findServiceForItem(tx, a.company.id, { service_id: s.body.id, partnumber: other.body.partnumber }),
    ),
    undefined,
    'both naming different services',
  );
  t.equal(await inA((tx) => findServiceForItem(tx, a.company.id, { partnumber: 'NOPE' })), undefined);
  t.equal(await inA((tx) => findServiceForItem(tx, a.company.id, {})), undefined, 'neither given');
  t.equal(
    (await inA((tx) => findServiceForItem(tx, a.company.id, { service_id: other.body.id })))?.active,
    false,
    'inactive services are found, flagged',
  );
  t.equal(
    await withTenant(ledger.db, b.company.id, (tx) => findServiceForItem(tx, b.company.id, { service_id: s.body.id })),
    undefined,
    "another company's service is not found",
  );
});

t.test('a service on a real invoice: delete refused, deactivation kept on the invoice', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = await api('POST', '/arap/customer', { name: 'Catalogue Customer AG' });
  const s = await api('POST', '/arap/services', { ...consulting, partnumber: 'CONS-1' });
  const inv = await api('POST', '/arap/invoice/customer', {
    type: 'invoice',
    customer_id: customer.body.id,
    invDate: '2024-03-15',
    items: [{ partnumber: 'CONS-1', quantity: 2 }],
  });
  t.equal(inv.status, 201, JSON.stringify(inv.body));

  const refused = await api('DELETE', `/arap/services/${s.body.id}`);
  t.equal(refused.status, 409);
  t.equal(refused.body.error.code, 'conflict');
  t.match(refused.body.error.message, /deactivate/);
  t.equal((await api('POST', `/arap/services/${s.body.id}`, { active: false })).body.active, false);
  t.equal((await api('GET', `/arap/invoice/customer/${inv.body.id}`)).status, 200, 'the invoice still reads');
  t.same((await api('GET', '/arap/services?active=true')).body, [], 'no longer offered');
});
