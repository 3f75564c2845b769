/**
 * HTTP conventions every endpoint keeps, on a real ledger and Postgres:
 * - every `201 Created` carries `Location`, the absolute URL of what it created (the
 *   contract's `location`), and that URL reads it back; each 201 contract is sent once here;
 * - every 401 carries a `WWW-Authenticate` challenge: the API key's on the REST API, Bearer
 *   on the gateway-only internal API;
 * - the OpenAPI document declares both headers.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { CONTRACTS, type Contract } from '@ledger/shared';
import type { LedgerConfig } from '../config.ts';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, testConfig, type ApiResponse } from '../../test/helpers.ts';
import { fixture as inboxFixture, VECTOR } from '../../test/fixtures/inbox/fixtures.ts';
import { buildOpenApi } from './openapi.ts';
import { dropQueue } from '../db/queue.ts';

const CREATED = CONTRACTS.filter((c) => c.status === 201);

/** A contract's path with `{field}` of the answer read as one more path parameter. */
const asPath = (location: string) => location.replace(/\{(\w+)\}/g, ':$1').replace(/:\w+/g, ':_');

/** The paths of the API (`:vc` also per side), each parameter written alike; of one method if given. */
const apiPaths = (method?: string) =>
  new Set(
    CONTRACTS.filter((c) => !method || c.method === method).flatMap((c) => [
      asPath(c.path),
      asPath(c.path.replace(':vc', 'vendor')),
      asPath(c.path.replace(':vc', 'customer')),
    ]),
  );
const readable = (location: string) => apiPaths('GET').has(asPath(location));

t.test('every 201 contract names where its resource is, on a path of the API', async (t) => {
  t.ok(CREATED.length >= 15);
  for (const c of CREATED) {
    t.type(c.location, 'string', `${c.name} has a location`);
    t.ok(apiPaths().has(asPath(c.location!)), `${c.name}: ${c.location} is a path of the API`);
  }
  // most are read back with GET; the few that are not (an API key, whose secret is shown once;
  // a vendor bank account, read in its list) are at the URL their changes or DELETE go to
  t.ok(CREATED.filter((c) => readable(c.location!)).length >= 13);
});

t.test('every 201 answers Location, and the URL reads what was created', async (t) => {
  const config: LedgerConfig = testConfig({ inboxQueue: `inbox_location_${randomBytes(6).toString('hex')}` });
  const queue = config.inboxQueue!;
  const ledger = await startLedger({ config, mail: false, inbox: { pollingIntervalSeconds: 0.5 } });
  await ledger.workersReady;
  t.teardown(async () => {
    await dropQueue(ledger.db, queue);
    await ledger.close();
  });
  const co = await createTestCompany({ ...ledger, config }, { swissInvoicing: true });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const base = `${ledger.url}/client/${co.dataset}`;
  const seen = new Set<string>();

  /** Checks one 201: Location is `base + path`, and reading it answers the resource (`id` = `readId`). */
  async function created(
    contract: Contract,
    res: ApiResponse,
    path: string,
    readId: number = res.body.id,
  ): Promise<ApiResponse> {
    t.equal(res.status, 201, `${contract.name}: ${JSON.stringify(res.body)}`);
    t.equal(res.headers.get('location'), `${base}${path}`, `${contract.name}: Location`);
    seen.add(contract.name);
    if (readable(contract.location!)) {
      const read = await fetch(res.headers.get('location')!, { headers: { 'X-API-Key': co.apiKey } });
      t.equal(read.status, 200, `${contract.name}: GET Location`);
      if (read.headers.get('content-type')?.startsWith('application/json'))
        t.equal(((await read.json()) as { id: number }).id, readId, `${contract.name}: reads the new resource`);
      else t.match(await read.text(), /<Document/, `${contract.name}: reads the new file`);
    }
    return res;
  }
  const byName = (name: string) => CONTRACTS.find((c) => c.name === name)!;

  const check = (name: string, res: ApiResponse, path: string, readId?: number) =>
    created(byName(name), res, path, readId);

  const vendor = await api('POST', '/arap/vendor', { name: 'Location Vendor AG' });
  await check('createParty', vendor, `/arap/vendor/${vendor.body.id}`);
  const customer = await api('POST', '/arap/customer', { name: 'Location Customer GmbH' });
  await check('createParty', customer, `/arap/customer/${customer.body.id}`);
  const vendorBank = await api('POST', `/arap/vendor/${vendor.body.id}/bank_accounts`, {
    iban: 'CH58 0079 1123 0008 8901 2',
    name: 'Location Vendor AG',
  });
  await check(
    'createVendorBankAccount',
    vendorBank,
    `/arap/vendor/${vendor.body.id}/bank_accounts/${vendorBank.body.id}`,
  );

  const service = await api('POST', '/arap/services', { description: 'Consulting', price: 100 });
  await check('createService', service, `/arap/services/${service.body.id}`);

  const bill = () =>
    api('POST', '/arap/transaction/vendor', {
      vendor_id: vendor.body.id,
      invDate: '2024-03-01',
      pending: '0',
      payment_file: 1,
      vc_bank_id: vendorBank.body.id,
      lines: [{ account: '6500', amount: 500 }],
    });
  const paid = await bill();
  await check('createTransaction', paid, `/arap/transaction/vendor/${paid.body.id}`);
  const toReverse = await bill();
  const reversal = await api('POST', `/arap/transaction/vendor/${toReverse.body.id}/reverse`, { date: '2024-03-31' });
  await check('reverseTransaction', reversal, `/arap/transaction/vendor/${reversal.body.id}`);
  t.not(reversal.body.id, toReverse.body.id, 'the reversal is a document of its own');

  const invoice = () =>
    api('POST', '/arap/invoice/customer', {
      customer_id: customer.body.id,
      invDate: '2024-03-01',
      pending: '0',
      items: [{ description: 'Consulting', quantity: 1, price: 100, account: '3400', taxAccount: '2200' }],
    });
  const invoiced = await invoice();
  await check('createInvoice', invoiced, `/arap/invoice/customer/${invoiced.body.id}`);
  const invoiceToReverse = await invoice();
  const invoiceReversal = await api('POST', `/arap/invoice/customer/${invoiceToReverse.body.id}/reverse`, {
    date: '2024-03-31',
  });
  await check('reverseInvoice', invoiceReversal, `/arap/invoice/customer/${invoiceReversal.body.id}`);

  const payment = await api('POST', '/arap/payment/customer', {
    document_id: invoiced.body.id,
    amount: 50,
    account: '1020',
    date: '2024-03-20',
  });
  await check('createPayment', payment, `/arap/payment/customer/${payment.body.id}`);

  const entry = await api('POST', '/gl/transactions', {
    transdate: '2024-03-15',
    pending: '0',
    lines: [
      { account: '6000', debit: 1500 },
      { account: '1020', credit: 1500 },
    ],
  });
  await check('createJournalEntry', entry, `/gl/transactions/${entry.body.id}`);
  const entryReversal = await api('POST', `/gl/transactions/${entry.body.id}/reverse`, { date: '2024-03-31' });
  await check('reverseJournalEntry', entryReversal, `/gl/transactions/${entryReversal.body.id}`);

  const bankAccount = await api('POST', '/bank/accounts', {
    name: 'EUR account',
    iban: 'DE89 3704 0044 0532 0130 00',
    currency: 'EUR',
    account: '1000',
  });
  await check('createBankAccount', bankAccount, `/bank/accounts/${bankAccount.body.id}`);
  const chf = ((await api('GET', '/bank/accounts')).body as { id: number; currency: string }[]).find(
    (a) => a.currency === 'CHF',
  )!;
  const paymentFile = await api('POST', '/bank/payment_files', {
    bank_account_id: chf.id,
    execution_date: '2024-04-02',
  });
  await check('createPaymentFile', paymentFile, `/bank/payment_files/${paymentFile.body.id}`);

  const key = await api('POST', '/system/api_keys', { label: 'location test' });
  await check('createApiKey', key, `/system/api_keys/${key.body.id}`);
  const revoked = await fetch(key.headers.get('location')!, { method: 'DELETE', headers: { 'X-API-Key': co.apiKey } });
  t.equal(revoked.status, 204, 'the key is revoked at its Location');

  const pdf = inboxFixture(VECTOR.file);
  const upload = await api('POST', '/documents/inbox', {
    name: 'muster.pdf',
    data: `data:application/pdf;base64,${pdf.toString('base64')}`,
  });
  await check('uploadToInbox', upload, `/documents/inbox/${upload.body.id}`);
  let status = 'new';
  // the extraction runs on the worker; wait for its result, whatever it takes
  while (status === 'new') {
    status = ((await api('GET', `/documents/inbox/${upload.body.id}`)).body as { status: string }).status;
    if (status === 'new') await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(status, 'extracted');
  const booked = await api('POST', `/documents/inbox/${upload.body.id}/book`, {
    overrides: { vendor_id: vendor.body.id, documentNumber: 'RE-LOC-1', lines: [{ account: '6500', amount: 2493.99 }] },
  });
  await check(
    'bookInboxEntry',
    booked,
    `/arap/transaction/vendor/${booked.body.transaction_id}`,
    booked.body.transaction_id,
  );

  // (start-up refuses a 201 contract without a location, and one kernel function sets the header for all)
  t.ok(seen.size >= 15, `${seen.size} of the ${CREATED.length} 201 contracts were sent`);
});

t.test('every 401 challenges: the API key on the REST API, Bearer on the internal API', async (t) => {
  const config = testConfig();
  const ledger = await startLedger({ config, mail: false, inbox: false });
  t.teardown(() => ledger.close());
  const co = await createTestCompany({ ...ledger, config });
  const url = `${ledger.url}/client/${co.dataset}/arap/vendor`;
  const refusals: [string, Record<string, string>][] = [
    ['no key', {}],
    ['an unknown key', { 'X-API-Key': 'ak_not_a_key' }],
    ['a key sent as a bearer token', { Authorization: `Bearer ${co.apiKey}` }],
    ['a service credential that is not one', { Authorization: 'Bearer eyJhbGciOiJFZERTQSJ9.e30.c2ln' }],
  ];
  for (const [label, headers] of refusals) {
    const res = await fetch(url, { headers });
    t.equal(res.status, 401, label);
    t.equal(
      res.headers.get('www-authenticate'),
      'ApiKey header="X-API-Key"',
      `${label}: the challenge names the header the key goes in`,
    );
    t.equal(((await res.json()) as { error: { code: string } }).error.code, 'unauthorized');
  }
  const post = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"name":"X"}',
  });
  t.equal(post.headers.get('www-authenticate'), 'ApiKey header="X-API-Key"', 'a write too');
  await post.body?.cancel();
  const internal = await fetch(`${ledger.url}/internal/users/1`, { headers: { 'X-API-Key': co.apiKey } });
  t.equal(internal.status, 401);
  t.equal(internal.headers.get('www-authenticate'), 'Bearer', 'the internal API takes only the gateway credential');
  await internal.body?.cancel();
  t.equal(
    (await fetch(url, { headers: { 'X-API-Key': co.apiKey } })).headers.get('www-authenticate'),
    null,
    'an accepted key is not challenged',
  );
});

t.test('the OpenAPI document declares Location on every 201 and WWW-Authenticate on every 401', async (t) => {
  const doc = buildOpenApi(CONTRACTS, 'http://localhost:3000') as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          responses: Record<string, { headers?: Record<string, { description?: string; schema: object }> }>;
        }
      >
    >;
  };
  let created = 0;
  let unauthorized = 0;
  for (const operations of Object.values(doc.paths)) {
    // a path's own `servers` (the meta paths) is not an operation
    for (const [method, op] of Object.entries(operations)) {
      if (method === 'servers') continue;
      const answer201 = op.responses['201'];
      if (answer201) {
        created++;
        t.match(
          answer201.headers?.Location,
          { schema: { type: 'string', format: 'uri' } },
          `${op.operationId}: Location`,
        );
      }
      const answer401 = op.responses['401'];
      if (answer401) {
        unauthorized++;
        t.match(
          answer401.headers?.['WWW-Authenticate'],
          { schema: { type: 'string', const: 'ApiKey header="X-API-Key"' } },
          `${op.operationId}: WWW-Authenticate`,
        );
      }
    }
  }
  t.ok(created >= CREATED.length, `${created} operations answer 201`);
  t.ok(unauthorized > 50, `${unauthorized} operations answer 401`);
});
