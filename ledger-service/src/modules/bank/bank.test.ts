import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { isQrIban } from './rules.ts';

const IBAN = 'CH93 0076 2011 6238 5295 7';
const QR_IBAN = 'CH44 3199 9123 0008 8901 2';

t.test('QR-IBAN: CH or LI with bank id 30000–31999', async (t) => {
  t.ok(isQrIban('CH4431999123000889012'));
  t.notOk(isQrIban('CH9300762011623852957'), 'bank id 00762');
  t.notOk(isQrIban('DE89370400440532013000'));
});

t.test('bank accounts: create, read, list, update', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const created = await api('POST', '/bank/accounts', {
    name: 'UBS current account',
    iban: IBAN,
    qr_iban: QR_IBAN,
    bic: 'ubswchzh80a',
    currency: 'CHF',
    account: '1020',
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(Object.keys(created.body), ['id']);
  const read = await api('GET', `/bank/accounts/${created.body.id}`);
  t.equal(read.status, 200);
  t.same(
    read.body,
    {
      id: created.body.id,
      name: 'UBS current account',
      iban: 'CH9300762011623852957',
      qr_iban: 'CH4431999123000889012',
      bic: 'UBSWCHZH80A',
      currency: 'CHF',
      account: '1020',
    },
    'IBANs in electronic format, BIC upper case',
  );

  const eur = await api('POST', '/bank/accounts', {
    name: 'EUR account',
    iban: 'DE89 3704 0044 0532 0130 00',
    currency: 'EUR',
    account: '1000',
  });
  t.equal(eur.status, 201);
  const list = await api('GET', '/bank/accounts');
  t.equal(list.status, 200);
  t.equal(list.headers.get('x-total-count'), '2');
  t.same(
    list.body.map((b: { id: number }) => b.id),
    [created.body.id, eur.body.id],
    'by id',
  );
  t.same(list.body[1], {
    id: eur.body.id,
    name: 'EUR account',
    iban: 'DE89370400440532013000',
    qr_iban: null,
    bic: null,
    currency: 'EUR',
    account: '1000',
  });
  t.same(
    (await api('GET', '/bank/accounts?sort=-name')).body.map((b: { name: string }) => b.name),
    ['UBS current account', 'EUR account'],
  );
  const page = await api('GET', '/bank/accounts?limit=1');
  t.equal(page.body.length, 1);
  t.match(page.headers.get('link'), /rel="next"/);

  const updated = await api('POST', `/bank/accounts/${created.body.id}`, { name: 'UBS', qr_iban: null });
  t.equal(updated.status, 200);
  t.same(updated.body, { ...read.body, name: 'UBS', qr_iban: null }, 'only the fields sent change; null clears');
  t.equal(
    (await api('POST', `/bank/accounts/${created.body.id}`, { ...read.body })).status,
    200,
    'the read shape can be sent back whole',
  );
  t.same((await api('GET', `/bank/accounts/${created.body.id}`)).body, read.body);

  const log = await api('GET', `/system/audit?entity=bank_account&entity_id=${created.body.id}`);
  t.same(
    log.body.map((e: { action: string }) => e.action),
    ['update', 'update', 'create'],
  );
  t.match(log.body[2].details, { iban: 'CH9300762011623852957', account: '1020' });

  const b = await createTestCompany(ledger);
  const atB = apiClient(ledger.url, b.dataset, b.apiKey);
  t.same((await atB('GET', '/bank/accounts')).body, [], 'another company sees none');
  t.equal((await atB('GET', `/bank/accounts/${created.body.id}`)).status, 404);
  t.equal((await atB('POST', `/bank/accounts/${created.body.id}`, { name: 'mine' })).status, 404);
  t.equal(
    (await atB('POST', '/bank/accounts', { name: 'Same IBAN elsewhere', iban: IBAN, currency: 'CHF', account: '1020' }))
      .status,
    201,
    'IBANs are unique per company',
  );
});

t.test('bank accounts: refusals name the field', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const base = { name: 'Main', iban: IBAN, currency: 'CHF', account: '1020' };
  const refused = async (
    body: unknown,
    status: number,
    field: string | undefined,
    what: string,
    path = '/bank/accounts',
  ) => {
    const res = await api('POST', path, body);
    t.equal(res.status, status, `${what}: ${status}`);
    t.equal(res.body.error.field, field, `${what}: names ${field}`);
  };
  await refused({ ...base, iban: 'CH9300762011623852958' }, 400, '/iban', 'IBAN check digits');
  await refused({ ...base, iban: 'DE8937040044053201300' }, 400, '/iban', 'IBAN length for the country');
  await refused({ ...base, iban: QR_IBAN }, 400, '/iban', 'a QR-IBAN as iban');
  await refused({ ...base, qr_iban: IBAN }, 400, '/qr_iban', 'an ordinary IBAN as qr_iban');
  await refused({ ...base, qr_iban: 'CH44 3199 9123 0008 8901 3' }, 400, '/qr_iban', 'QR-IBAN check digits');
  await refused({ ...base, currency: 'USD', qr_iban: QR_IBAN }, 400, '/qr_iban', 'QR-IBAN on a USD account');
  await refused({ ...base, bic: 'UBSW12XX' }, 400, '/bic', 'BIC');
  await refused({ ...base, currency: 'XYZ' }, 400, '/currency', 'unknown currency');
  await refused({ ...base, account: '9999' }, 400, '/account', 'no such account');
  await refused({ ...base, account: '1100' }, 400, '/account', 'not a payment account');
  await refused({ ...base, name: undefined }, 400, '/name', 'name required');
  await refused({ ...base, extra: 1 }, 400, '/extra', 'unknown field');

  const ok = await api('POST', '/bank/accounts', { ...base, qr_iban: QR_IBAN });
  t.equal(ok.status, 201);
  await refused({ ...base, name: 'Twice' }, 409, '/iban', 'the same IBAN twice');
  await refused(
    { ...base, iban: 'CH56 0483 5012 3456 7800 9', qr_iban: QR_IBAN },
    409,
    '/qr_iban',
    'the same QR-IBAN twice',
  );
  await refused(
    { account: '1100' },
    400,
    '/account',
    'update to a non-payment account',
    `/bank/accounts/${ok.body.id}`,
  );
  await refused(
    { id: ok.body.id + 1, name: 'x' },
    400,
    '/id',
    'another id in the body',
    `/bank/accounts/${ok.body.id}`,
  );
  await refused({}, 400, undefined, 'empty update', `/bank/accounts/${ok.body.id}`);
  t.equal((await api('GET', '/bank/accounts/0')).status, 404);
  t.equal((await api('GET', '/bank/accounts/999999')).status, 404);
  t.equal((await api('POST', '/bank/accounts/999999', { name: 'x' })).status, 404);
  t.equal((await api('GET', '/bank/accounts')).body.length, 1, 'nothing of the refusals was written');
});

t.test('bank accounts: every member reads, owners and admins write', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  for (const role of ['admin', 'accountant', 'clerk', 'viewer'] as const) {
    const m = await a.addMember(role);
    const api = apiClient(ledger.url, a.dataset, m.apiKey);
    t.equal((await api('GET', '/bank/accounts')).status, 200, `${role} reads`);
    const write = await api('POST', '/bank/accounts', { name: role, iban: IBAN, currency: 'CHF', account: '1020' });
    if (role === 'admin') {
      t.equal(write.status, 201, 'admin writes');
    } else {
      t.equal(write.status, 403, `${role} may not write`);
      t.match(write.body.error.message, 'bank.manage_accounts');
    }
  }
});
