import t from 'tap';
import { arapSetup, memberApi } from '../../../test/arapHelpers.ts';
import { hashApiKey } from '../../domain/secrets.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('chart of accounts: links, taxes, ETag and 304', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const res = await api('GET', '/system/chart/accounts');
  t.equal(res.status, 200);
  t.equal(res.headers.get('cache-control'), 'private, max-age=3600');
  const etag = res.headers.get('etag')!;
  t.match(etag, /^"[A-Za-z0-9_-]{43}"$/, 'a strong ETag');
  const ap = res.body.find((x: { accno: string }) => x.accno === '2000');
  t.same(ap, { accno: '2000', description: 'Accounts payable', category: 'L', link: 'AP', links: ['AP'], taxes: [] });
  const bank = res.body.find((x: { accno: string }) => x.accno === '1020');
  t.equal(bank.link, 'AR_paid:AP_paid', 'SQL-Ledger colon string');
  t.same(bank.links, ['AR_paid', 'AP_paid']);
  const vat = res.body.find((x: { accno: string }) => x.accno === '1170');
  t.same(
    vat.taxes.map((x: { rate: number; valid_from: string }) => [x.rate, x.valid_from]),
    [
      [0.077, '2018-01-01'],
      [0.081, '2024-01-01'],
    ],
    'tax rates attached to the tax account',
  );
  t.ok(
    res.body.some((x: { links: string[] }) => x.links.includes('AP_amount')),
    'accounts usable on bill lines',
  );

  const again = await api('GET', '/system/chart/accounts', undefined, { 'If-None-Match': etag });
  t.equal(again.status, 304);
  t.equal(again.body, undefined, 'no body');
  t.equal(again.headers.get('etag'), etag);
  t.equal(again.headers.get('cache-control'), 'private, max-age=3600');
  t.equal(
    (await api('GET', '/system/chart/accounts', undefined, { 'If-None-Match': `"other", W/${etag}` })).status,
    304,
    'weak comparison, lists',
  );
  t.equal((await api('GET', '/system/chart/accounts', undefined, { 'If-None-Match': '"stale"' })).status, 200);

  // the tag follows the content
  await ledger.db.transaction(async (tx) => {
    await tx.raw(`select set_config('app.company_id', ?, true)`, [String(a.company.id)]);
    await tx('accounts').where({ company_id: a.company.id, accno: '6700' }).update({ description: 'Other expenses' });
  });
  const changed = await api('GET', '/system/chart/accounts', undefined, { 'If-None-Match': etag });
  t.equal(changed.status, 200, 'a changed chart is sent again');
  t.not(changed.headers.get('etag'), etag);

  const b = await createTestCompany(ledger);
  const other = await apiClient(ledger.url, b.dataset, b.apiKey)('GET', '/system/chart/accounts');
  t.not(other.headers.get('etag'), changed.headers.get('etag'), 'different content, different tag');
});

t.test('taxes: rate as number, validity, ETag and 304', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const res = await api('GET', '/system/taxes');
  t.equal(res.status, 200);
  t.equal(res.headers.get('cache-control'), 'private, max-age=3600');
  t.same(
    res.body.find((x: { code: string }) => x.code === 'VAT-IN-STD'),
    {
      code: 'VAT-IN-STD',
      description: 'Input VAT 8.1%',
      accno: '1170',
      kind: 'input',
      figure: '400',
      rate: 0.081,
      valid_from: '2024-01-01',
      valid_to: null,
      rates: [
        { rate: 0.077, valid_from: '2018-01-01', valid_to: '2023-12-31', description: 'Input VAT 7.7%' },
        { rate: 0.081, valid_from: '2024-01-01', valid_to: null, description: 'Input VAT 8.1%' },
      ],
    },
    'one entry per code: its current rate beside the history',
  );
  t.same(
    res.body.map((x: { code: string; kind: string; figure: string }) => `${x.code} ${x.kind} ${x.figure}`),
    [
      'VAT-ABROAD zero 221',
      'VAT-EXEMPT zero 230',
      'VAT-EXPORT zero 220',
      'VAT-IN-INV input 405',
      'VAT-IN-RED input 400',
      'VAT-IN-STD input 400',
      'VAT-OUT-LODG output 342',
      'VAT-OUT-RED output 312',
      'VAT-OUT-STD output 302',
    ],
    'the default chart: 2024 and earlier rates, input tax for 400 and 405, zero-rated codes for 220, 221 and 230',
  );
  const again = await api('GET', '/system/taxes', undefined, { 'If-None-Match': res.headers.get('etag')! });
  t.equal(again.status, 304);
  t.equal((await api('GET', '/system/taxes', undefined, { 'If-None-Match': '*' })).status, 304);
});

t.test('API keys: create (shown once), list, delete → next request 401', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const created = await api('POST', '/system/api_keys', { label: 'accounting export' });
  t.equal(created.status, 201);
  t.match(created.body, { id: Number, label: 'accounting export', prefix: String, created_at: String, key: String });
  t.match(created.body.key, /^ak_[A-Za-z0-9_-]{43}$/, 'ak_ + 32 random bytes, base64url');
  t.ok(created.body.key.startsWith(created.body.prefix));

  const stored = (await ledger.db('api_keys').where({ id: created.body.id }).first())!;
  t.equal(stored.key_hash, hashApiKey(created.body.key), 'the database stores a hash');
  t.notOk(JSON.stringify(stored).includes(created.body.key), 'and never the key');

  const fresh = apiClient(ledger.url, a.dataset, created.body.key);
  t.equal((await fresh('POST', '/auth/validate_api')).status, 200, 'the new key works');

  const list = await api('GET', '/system/api_keys');
  t.equal(list.status, 200);
  t.equal(list.body.length, 2);
  const entry = list.body.find((k: { id: number }) => k.id === created.body.id);
  t.same(Object.keys(entry).sort(), ['created_at', 'id', 'label', 'last_used_at', 'prefix', 'user']);
  t.equal(entry.user, a.email);
  t.notOk(JSON.stringify(list.body).includes(created.body.key), 'the list never shows keys');
  t.notOk(JSON.stringify(list.body).includes(stored.key_hash), 'nor hashes');
  const used = list.body.find((k: { id: number }) => k.id === a.apiKeyId);
  t.type(used.last_used_at, 'string', 'last use is recorded');

  t.equal((await api('POST', '/system/api_keys', {})).status, 400, 'label is required');
  t.equal((await api('POST', '/system/api_keys', { label: 'x', key: 'mine' })).body.error.field, '/key');

  const del = await api('DELETE', `/system/api_keys/${created.body.id}`);
  t.equal(del.status, 204);
  const refused = await fresh('POST', '/auth/validate_api');
  t.equal(refused.status, 401, 'a deleted key is refused on the next request');
  t.equal(refused.body.error.code, 'unauthorized');
  t.equal((await api('DELETE', `/system/api_keys/${created.body.id}`)).status, 404);

  const b = await createTestCompany(ledger);
  t.equal(
    (await api('DELETE', `/system/api_keys/${b.apiKeyId}`)).status,
    404,
    "another company's key cannot be deleted",
  );
  t.equal((await apiClient(ledger.url, b.dataset, b.apiKey)('POST', '/auth/validate_api')).status, 200);

  const clerk = await a.addMember('clerk');
  const forbidden = await apiClient(ledger.url, a.dataset, clerk.apiKey)('GET', '/system/api_keys');
  t.equal(forbidden.status, 403);
  t.match(forbidden.body.error.message, 'system.management.api_keys');
});

t.test('audit log: who, via what, which entity and action; owners and admins only', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const v = await api('POST', '/arap/vendor', { name: 'Audited AG' });
  await api('POST', `/arap/vendor/${v.body.id}`, { city: 'Luzern' });
  const c = await api('POST', '/arap/customer', { name: 'Audited Customer' });
  const key = await api('POST', '/system/api_keys', { label: 'temp' });
  await api('DELETE', `/system/api_keys/${key.body.id}`);
  await api('DELETE', `/arap/vendor/${v.body.id}`);

  const log = await api('GET', '/system/audit');
  t.equal(log.status, 200);
  t.same(
    log.body.map((e: { entity: string; action: string; entity_id: number }) => [e.entity, e.action, e.entity_id]),
    [
      ['vendor', 'delete', v.body.id],
      ['api_key', 'delete', key.body.id],
      ['api_key', 'create', key.body.id],
      ['customer', 'create', c.body.id],
      ['vendor', 'update', v.body.id],
      ['vendor', 'create', v.body.id],
    ],
    'newest first, entity ids as integers',
  );
  const first = log.body.at(-1);
  t.match(first, {
    user_id: a.userId,
    user_email: a.email,
    via: 'api_key',
    via_id: String(a.apiKeyId),
    via_label: 'owner key',
    via_text: 'via API key (owner key)',
    entity: 'vendor',
    action: 'create',
  });
  t.ok(!Number.isNaN(Date.parse(first.at)), 'with a timestamp');

  const page = await api('GET', '/system/audit?limit=2&offset=1');
  t.same(
    page.body.map((e: { action: string; entity: string }) => `${e.entity}.${e.action}`),
    ['api_key.delete', 'api_key.create'],
  );
  const filtered = await api('GET', `/system/audit?entity=vendor&entity_id=${v.body.id}`);
  t.equal(filtered.body.length, 3);

  const admin = await a.addMember('admin');
  t.equal(
    (await apiClient(ledger.url, a.dataset, admin.apiKey)('GET', '/system/audit')).status,
    200,
    'admins may read it',
  );
  for (const role of ['accountant', 'clerk', 'viewer'] as const) {
    const m = await a.addMember(role);
    const res = await apiClient(ledger.url, a.dataset, m.apiKey)('GET', '/system/audit');
    t.equal(res.status, 403, `${role}: 403`);
    t.equal(res.body.error.code, 'forbidden');
    t.match(res.body.error.message, 'system.audit_log', 'names the permission');
  }

  const b = await createTestCompany(ledger);
  const others = await apiClient(ledger.url, b.dataset, b.apiKey)('GET', '/system/audit');
  t.same(others.body, [], 'another company sees none of it');
});

t.test('audit log: amounts are JSON numbers to the minor unit, ids integers', async (t) => {
  const s = await arapSetup(t);
  const bill = await s.api(
    'POST',
    '/arap/transaction/vendor',
    s.doc('vendor', { pending: '0', lines: [{ account: '6500', amount: 12.5, taxAccount: '1170' }] }),
  );
  t.equal(bill.status, 201, JSON.stringify(bill.body));
  const log = await s.api('GET', `/system/audit?entity=vendor_transaction&entity_id=${bill.body.id}`);
  t.equal(log.status, 200);
  t.equal(log.body.length, 1);
  t.equal(log.body[0].entity_id, bill.body.id, 'entity_id is an integer');
  t.equal(log.body[0].details.gross, 13.51, 'gross 12.50 + 1.01 tax as a number');
  t.equal(log.body[0].details.currency, 'CHF');
  t.notOk(/"gross":"/.test(JSON.stringify(log.body)), 'no amount as a string');
});

t.test('every list endpoint carries X-Total-Count', async (t) => {
  const s = await arapSetup(t);
  await s.api('POST', `/arap/vendor/${s.parties.vendor.id}/bank_accounts`, { iban: 'CH93 0076 2011 6238 5295 7' });
  const lists = [
    '/arap/vendor',
    '/arap/customer',
    '/arap/transactions/vendor',
    '/arap/transactions/customer',
    `/arap/vendor/${s.parties.vendor.id}/bank_accounts`,
    '/system/chart/accounts',
    '/system/taxes',
    '/system/api_keys',
    '/system/audit',
  ];
  for (const path of lists) {
    const r = await s.api('GET', path);
    t.equal(r.status, 200, path);
    t.equal(r.headers.get('x-total-count'), String(r.body.length), `${path}: X-Total-Count`);
  }
  const audit = await s.api('GET', '/system/audit?limit=1');
  t.ok(Number(audit.headers.get('x-total-count')) > 1);
  t.match(audit.headers.get('link'), /offset=1>; rel="next"$/, 'audit pages too');
  t.same(
    (await s.api('GET', '/system/audit?sort=id')).body.map((e: { id: number }) => e.id),
    (await s.api('GET', '/system/audit?sort=-id')).body.map((e: { id: number }) => e.id).reverse(),
  );
  const cached = await s.api('GET', '/system/taxes');
  const again = await s.api('GET', '/system/taxes', undefined, { 'If-None-Match': cached.headers.get('etag')! });
  t.equal(again.status, 304, 'lists keep their ETag');
});

t.test(
  'chart accounts: add one (number free, links as an array), usable at once; audited; owners and admins only',
  async (t) => {
    const s = await arapSetup(t);
    const before = await s.api('GET', '/system/chart/accounts');
    const created = await s.api('POST', '/system/chart/accounts', {
      accno: '6580',
      description: 'Software subscriptions',
      category: 'E',
      links: ['AP_amount'],
    });
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.same(created.body, {
      accno: '6580',
      description: 'Software subscriptions',
      category: 'E',
      link: 'AP_amount',
      links: ['AP_amount'],
      taxes: [],
    });
    const chart = await s.api('GET', '/system/chart/accounts', undefined, {
      'If-None-Match': before.headers.get('etag')!,
    });
    t.equal(chart.status, 200, 'the cached chart is stale');
    t.same(
      chart.body.find((a: { accno: string }) => a.accno === '6580'),
      created.body,
      'in the chart',
    );
    const bill = await s.api(
      'POST',
      '/arap/transaction/vendor',
      s.doc('vendor', { lines: [{ account: '6580', amount: 40 }] }),
    );
    t.equal(bill.status, 201, 'a bill line books on it at once');

    const both = await s.api('POST', '/system/chart/accounts', {
      accno: '1030',
      description: 'Second bank',
      category: 'A',
      links: ['AP_paid', 'AR_paid'],
    });
    t.equal(both.body.link, 'AR_paid:AP_paid', 'links stored in the canonical order');
    const none = await s.api('POST', '/system/chart/accounts', {
      accno: '2310',
      description: 'Deferred income',
      category: 'L',
    });
    t.same([none.status, none.body.link, none.body.links], [201, '', []], 'no links: journal entries only');

    const refused = async (body: unknown, status: number, field: string | undefined, what: string) => {
      const r = await s.api('POST', '/system/chart/accounts', body);
      t.equal(r.status, status, `${what}: ${status}`);
      t.equal(r.body.error.field, field, `${what}: field ${field}`);
    };
    await refused({ accno: '6580', description: 'Again', category: 'E' }, 409, '/accno', 'a number in use');
    await refused({ accno: '65/80', description: 'x', category: 'E' }, 400, '/accno', 'not an account number');
    await refused({ accno: '6581', description: ' ', category: 'E' }, 400, '/description', 'a blank description');
    await refused({ accno: '6581', category: 'E' }, 400, '/description', 'no description');
    await refused({ accno: '6581', description: 'x', category: 'X' }, 400, '/category', 'an unknown category');
    await refused(
      { accno: '6581', description: 'x', category: 'E', links: ['AP_expense'] },
      400,
      '/links/0',
      'an unknown link',
    );
    await refused(
      { accno: '6581', description: 'x', category: 'E', links: ['AP_amount', 'AP_amount'] },
      400,
      '/links',
      'a link twice',
    );
    await refused(
      { accno: '6581', description: 'x', category: 'E', link: 'AP_amount' },
      400,
      '/link',
      'link is the read-only string',
    );

    const accountant = await memberApi(s, s.co, 'accountant');
    t.equal(
      (await accountant('POST', '/system/chart/accounts', { accno: '6582', description: 'x', category: 'E' })).status,
      403,
      'accountants read the chart only',
    );
    const admin = await memberApi(s, s.co, 'admin');
    t.equal(
      (await admin('POST', '/system/chart/accounts', { accno: '6583', description: 'By the admin', category: 'E' }))
        .status,
      201,
    );
    const audit = await s.api('GET', '/system/audit?entity=account&sort=id');
    t.same(
      audit.body.map((e: { action: string; details: { accno: string } }) => [e.action, e.details.accno]),
      [
        ['create', '6580'],
        ['create', '1030'],
        ['create', '2310'],
        ['create', '6583'],
      ],
    );
    t.same(audit.body[0].details, {
      accno: '6580',
      description: 'Software subscriptions',
      category: 'E',
      link: 'AP_amount',
    });
  },
);

t.test(
  'chart accounts: change description, category, links; 409 for what would change the meaning of postings or a use',
  async (t) => {
    const s = await arapSetup(t);
    const change = (accno: string, body: unknown) => s.api('POST', `/system/chart/accounts/${accno}`, body);
    const conflictOn = async (accno: string, body: unknown, field: string, message: RegExp, what: string) => {
      const r = await change(accno, body);
      t.equal(r.status, 409, `${what}: 409`);
      t.equal(r.body.error.code, 'conflict');
      t.equal(r.body.error.field, field, `${what}: field ${field}`);
      t.match(r.body.error.message, message, `${what}: says why`);
    };
    // postings on 6500 (expense), 1170 (input tax) and 2000 (payable)
    t.equal((await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }))).status, 201);

    const renamed = await change('6500', { description: 'Office supplies and printing' });
    t.equal(renamed.status, 200);
    t.same(
      renamed.body,
      {
        accno: '6500',
        description: 'Office supplies and printing',
        category: 'E',
        link: 'AP_amount',
        links: ['AP_amount'],
        taxes: [],
      },
      'the description may always change',
    );
    await conflictOn(
      '6500',
      { category: 'A' },
      '/category',
      /has postings: its category \(E\) cannot change/,
      'category with postings',
    );
    await conflictOn(
      '1170',
      { links: [] },
      '/links',
      /has postings: its control and tax links \(AP_tax\)/,
      'tax link with postings',
    );
    await conflictOn(
      '2000',
      { links: ['AP_amount'] },
      '/links',
      /control and tax links \(AP\)/,
      'control link with postings',
    );
    await conflictOn(
      '6500',
      { links: ['AP_amount', 'AP_tax'] },
      '/links',
      /control and tax links \(none\)/,
      'adding a tax link with postings',
    );
    const usage = await change('6500', { links: ['AP_amount', 'AR_amount'] });
    t.same(
      [usage.status, usage.body.link],
      [200, 'AR_amount:AP_amount'],
      'which lines may use it may change: the postings stay what they are',
    );
    t.equal((await change('2000', { links: ['AP', 'AP_amount'] })).status, 200, 'the control link stays');
    const taxed = await change('1170', { description: 'Vorsteuer 8.1%' });
    t.same(
      taxed.body.taxes.map((x: { code: string }) => x.code),
      ['VAT-IN-STD', 'VAT-IN-STD'],
      'with its tax rates',
    );

    // without postings: free, unless a use of the company needs what it is
    const free = await change('2300', { category: 'Q', links: ['AR_paid'], description: 'Reserves' });
    t.same([free.status, free.body.category, free.body.link], [200, 'Q', 'AR_paid']);
    await conflictOn(
      '6950',
      { category: 'A' },
      '/category',
      /fx gain loss account.*needs an income or expense account/,
      "the company's FX account",
    );
    await conflictOn(
      '2970',
      { category: 'L' },
      '/category',
      /retained earnings account.*needs an equity account/,
      'retained earnings',
    );
    await conflictOn(
      '1100',
      { links: [] },
      '/links',
      /default receivable account.*needs link AR/,
      'the default receivable account',
    );
    await conflictOn(
      '1171',
      { links: [] },
      '/links',
      /tax rate "VAT-IN-RED".*needs link AR_tax or AP_tax/,
      'tax rates book to it',
    );
    t.equal(
      (
        await s.api('POST', '/bank/accounts', {
          name: 'Main',
          iban: 'CH93 0076 2011 6238 5295 7',
          currency: 'CHF',
          account: '1020',
        })
      ).status,
      201,
    );
    t.equal(
      (await change('1020', { links: ['AP_paid'] })).status,
      200,
      'a bank account needs AR_paid or AP_paid: one is enough',
    );
    await conflictOn(
      '1020',
      { links: [] },
      '/links',
      /bank account "Main".*needs link AR_paid or AP_paid/,
      "a company bank account's book account",
    );
    t.equal(
      (await s.api('POST', '/arap/services', { description: 'Consulting', price: 150, income_account: '3000' })).status,
      201,
    );
    await conflictOn(
      '3000',
      { links: [] },
      '/links',
      /income account of the service "\d+".*needs link AR_amount/,
      "a service's income account",
    );

    t.equal((await change('9999', { description: 'x' })).status, 404, 'no such account');
    t.equal((await change('65%2F00', { description: 'x' })).status, 404, 'not an account number');
    t.equal((await change('6500', {})).status, 400, 'nothing to change');
    t.equal((await change('6500', { accno: '6501' })).body.error.field, '/accno', 'the number cannot change');
    const accountant = await memberApi(s, s.co, 'accountant');
    t.equal((await accountant('POST', '/system/chart/accounts/6500', { description: 'x' })).status, 403);

    const audit = await s.api('GET', '/system/audit?entity=account&sort=id');
    t.same(
      audit.body[0].details,
      { accno: '6500', description: { from: 'Office supplies', to: 'Office supplies and printing' } },
      'old and new value of what changed',
    );
    t.same(
      audit.body.map((e: { details: { accno: string } }) => e.details.accno),
      ['6500', '6500', '2000', '1170', '2300', '1020'],
      'refused changes leave no entry',
    );
    const chart = (await s.api('GET', '/system/chart/accounts')).body as {
      accno: string;
      category: string;
      link: string;
    }[];
    t.same(
      chart.find((a) => a.accno === '6950'),
      { accno: '6950', description: 'Exchange rate differences', category: 'E', link: '', links: [], taxes: [] },
      'a refused change wrote nothing',
    );
  },
);
