import t from 'tap';
import { withTenant } from '../../db/knex.ts';
import { createDemo } from '../../demo.ts';
import { loadEncryptionKey } from '../../secretKey.ts';
import { apiClient, createTestCompany, startTestLedger, uniqueDataset } from '../../../test/helpers.ts';
import { canonicalSwissVatNumber } from './rules.ts';
import { getCompanyProfile, getInvoiceBankAccount } from './store.ts';

const BANK = {
  name: 'UBS current account',
  iban: 'CH93 0076 2011 6238 5295 7',
  qr_iban: 'CH44 3199 9123 0008 8901 2',
  bic: 'UBSWCHZH80A',
  currency: 'CHF',
  account: '1020',
};

t.test('Swiss UID: format, suffixes, eCH-0097 check digit', async (t) => {
  t.equal(canonicalSwissVatNumber('CHE-123.456.788 MWST'), 'CHE-123.456.788 MWST');
  t.equal(canonicalSwissVatNumber('che123456788tva'), 'CHE-123.456.788 TVA', 'without separators, any case');
  t.equal(canonicalSwissVatNumber('CHE 109 322 551 IVA'), 'CHE-109.322.551 IVA');
  t.equal(canonicalSwissVatNumber('CHE-116.281.710 MWST'), 'CHE-116.281.710 MWST', 'check digit 0 (11 - 0)');
  t.equal(canonicalSwissVatNumber('CHE-123.456.789 MWST'), undefined, 'wrong check digit');
  t.equal(canonicalSwissVatNumber('CHE-100.000.160 MWST'), undefined, 'remainder giving 10 is never issued');
  t.equal(canonicalSwissVatNumber('CHE-123.456.788'), undefined, 'a VAT number needs its suffix');
  t.equal(canonicalSwissVatNumber('CHE-123.456.788 VAT'), undefined);
  t.equal(canonicalSwissVatNumber('DE123456789'), undefined);
});

t.test('company settings: read, partial update, VAT number, invoice bank account, accounts', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);

  const initial = await api('GET', '/system/company');
  t.equal(initial.status, 200);
  t.same(
    initial.body,
    {
      name: `Test ${a.dataset}`,
      street: null,
      house_number: null,
      zip: null,
      city: null,
      country: null,
      vat_number: null,
      email: null,
      invoice_bank_account_id: null,
      rounding_account: '6960',
      fx_gain_loss_account: '6950',
      retained_earnings_account: '2970',
      reminder_fee_account: '3400',
      vat_payable_account: '2209',
      net_tax_difference_account: '3809',
      vat_method: 'effective',
      vat_basis: 'agreed',
      vat_period: 'quarter',
      net_tax_rates: [],
      ai_may_post_without_confirmation: false,
      language: 'de',
      dunning: { levels: [] },
      fiscal_year_start: '01-01',
      first_fiscal_year_end: null,
    },
    'a new company: its name and the accounts of its chart template; AI connections ask before posting',
  );

  const bank = await api('POST', '/bank/accounts', BANK);
  t.equal(bank.status, 201);
  const updated = await api('POST', '/system/company', {
    name: 'Muster Treuhand AG',
    street: 'Bahnhofstrasse',
    house_number: '1',
    zip: '8001',
    city: 'Zürich',
    country: 'CH',
    vat_number: 'che123456788mwst',
    email: 'billing@muster.example',
    invoice_bank_account_id: bank.body.id,
    fx_gain_loss_account: '6950',
    reminder_fee_account: '3400',
  });
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.same(
    updated.body,
    {
      name: 'Muster Treuhand AG',
      street: 'Bahnhofstrasse',
      house_number: '1',
      zip: '8001',
      city: 'Zürich',
      country: 'CH',
      vat_number: 'CHE-123.456.788 MWST',
      email: 'billing@muster.example',
      invoice_bank_account_id: bank.body.id,
      rounding_account: '6960',
      fx_gain_loss_account: '6950',
      retained_earnings_account: '2970',
      reminder_fee_account: '3400',
      vat_payable_account: '2209',
      net_tax_difference_account: '3809',
      vat_method: 'effective',
      vat_basis: 'agreed',
      vat_period: 'quarter',
      net_tax_rates: [],
      ai_may_post_without_confirmation: false,
      language: 'de',
      dunning: { levels: [] },
      fiscal_year_start: '01-01',
      first_fiscal_year_end: null,
    },
    'answers the settings; the UID in canonical form',
  );
  t.same((await api('GET', '/system/company')).body, updated.body, 'GET reads the same');

  const partial = await api('POST', '/system/company', { city: 'Winterthur', zip: '8400', email: null });
  t.equal(partial.status, 200);
  t.same(
    partial.body,
    { ...updated.body, city: 'Winterthur', zip: '8400', email: null },
    'only the fields sent change; null clears',
  );
  t.equal((await api('POST', '/system/company', partial.body)).status, 200, 'the read shape can be sent back whole');

  // the accounts live where posting reads them: one source
  const settings = (await ledger.db('companies').where({ id: a.company.id }).first('settings'))!.settings;
  t.match(settings, {
    rounding_account: '6960',
    fx_gain_loss_account: '6950',
    retained_earnings_account: '2970',
    reminder_fee_account: '3400',
    ap_account: '2000',
  });

  // the functions other modules use
  await withTenant(ledger.db, a.company.id, async (tx) => {
    t.same(await getCompanyProfile(tx, a.company.id), partial.body);
    t.same(await getInvoiceBankAccount(tx, a.company.id), {
      id: bank.body.id,
      name: BANK.name,
      iban: 'CH9300762011623852957',
      qr_iban: 'CH4431999123000889012',
      bic: 'UBSWCHZH80A',
      currency: 'CHF',
      account: '1020',
    });
  });
  t.equal((await api('POST', '/system/company', { invoice_bank_account_id: null })).body.invoice_bank_account_id, null);
  await withTenant(ledger.db, a.company.id, async (tx) =>
    t.equal(await getInvoiceBankAccount(tx, a.company.id), null, 'null when none is set'),
  );

  const log = await api('GET', `/system/audit?entity=company&entity_id=${a.company.id}`);
  t.same(
    log.body.map((e: { action: string }) => e.action),
    ['update_settings', 'update_settings', 'update_settings', 'update_settings'],
  );
  t.same(log.body[2].details.fields, ['city', 'zip', 'email'], 'the audit names the changed fields');
});

t.test('company settings: refusals (400 with the field, never 500)', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  const api = apiClient(ledger.url, a.dataset, a.apiKey);
  const refused = async (body: unknown, field: string | undefined, what: string) => {
    const res = await api('POST', '/system/company', body);
    t.equal(res.status, 400, `${what}: 400`);
    t.equal(res.body.error.code, 'invalid_request');
    t.equal(res.body.error.field, field, `${what}: names ${field}`);
    return res;
  };
  await refused({ country: 'CH', vat_number: 'CHE-123.456.789 MWST' }, '/vat_number', 'wrong UID check digit');
  await refused({ country: 'CH', vat_number: 'DE123456789' }, '/vat_number', 'not a UID for a CH company');
  t.equal(
    (await api('POST', '/system/company', { country: 'DE', vat_number: 'DE123456789' })).status,
    200,
    'other countries: as sent',
  );
  await refused({ country: 'CH' }, '/vat_number', 'moving to CH with a foreign VAT number');
  t.equal((await api('POST', '/system/company', { country: 'CH', vat_number: null })).status, 200);
  await refused({ country: 'XX' }, '/country', 'unknown country');
  await refused({ email: 'not-an-email' }, '/email', 'e-mail');
  await refused({ name: '' }, '/name', 'empty name');
  await refused({ name: null }, '/name', 'the name cannot be cleared');
  await refused({ rounding_account: null }, '/rounding_account', 'rounding cannot be cleared');
  await refused({ rounding_account: '9999' }, '/rounding_account', 'no such account');
  await refused({ retained_earnings_account: '6950' }, '/retained_earnings_account', 'not an equity account');
  await refused({ fx_gain_loss_account: '1020' }, '/fx_gain_loss_account', 'not income or expense');
  await refused({ reminder_fee_account: '6500' }, '/reminder_fee_account', 'not usable on customer lines');
  await refused({ invoice_bank_account_id: 999999 }, '/invoice_bank_account_id', 'no such bank account');
  await refused({ base_currency: 'EUR' }, '/base_currency', 'unknown field');
  await refused({}, undefined, 'empty update');

  const b = await createTestCompany(ledger);
  const foreign = await apiClient(ledger.url, b.dataset, b.apiKey)('POST', '/bank/accounts', BANK);
  t.equal(foreign.status, 201);
  await refused(
    { invoice_bank_account_id: foreign.body.id },
    '/invoice_bank_account_id',
    "another company's bank account",
  );
  t.equal((await api('GET', '/system/company')).body.vat_number, null, 'nothing of the refused updates was written');
});

t.test(
  'AI connections may post without confirmation: off by default, owners and admins switch it, audited',
  async (t) => {
    const ledger = await startTestLedger(t);
    const a = await createTestCompany(ledger);
    const api = apiClient(ledger.url, a.dataset, a.apiKey);
    t.equal((await api('GET', '/system/company')).body.ai_may_post_without_confirmation, false, 'off by default');
    const on = await api('POST', '/system/company', { ai_may_post_without_confirmation: true });
    t.equal(on.status, 200);
    t.equal(on.body.ai_may_post_without_confirmation, true);
    t.equal((await api('GET', '/system/company')).body.ai_may_post_without_confirmation, true, 'kept');
    const refused = await api('POST', '/system/company', { ai_may_post_without_confirmation: 'yes' });
    t.equal(refused.status, 400, 'a boolean only');
    t.equal(refused.body.error.field, '/ai_may_post_without_confirmation');
    const accountant = await a.addMember('accountant');
    const denied = await apiClient(ledger.url, a.dataset, accountant.apiKey)('POST', '/system/company', {
      ai_may_post_without_confirmation: false,
    });
    t.equal(denied.status, 403, 'an accountant may not switch it');
    t.equal((await api('GET', '/system/company')).body.ai_may_post_without_confirmation, true, 'still on');
    const log = await api('GET', `/system/audit?entity=company&entity_id=${a.company.id}`);
    t.match(log.body[0], {
      action: 'update_settings',
      details: { fields: ['ai_may_post_without_confirmation'], ai_may_post_without_confirmation: true },
    });
  },
);

t.test('company settings: every member reads, owners and admins write', async (t) => {
  const ledger = await startTestLedger(t);
  const a = await createTestCompany(ledger);
  for (const role of ['admin', 'accountant', 'clerk', 'viewer'] as const) {
    const m = await a.addMember(role);
    const api = apiClient(ledger.url, a.dataset, m.apiKey);
    t.equal((await api('GET', '/system/company')).status, 200, `${role} reads`);
    const write = await api('POST', '/system/company', { city: `City of ${role}` });
    if (role === 'admin') {
      t.equal(write.status, 200, 'admin writes');
    } else {
      t.equal(write.status, 403, `${role} may not write`);
      t.match(write.body.error.message, 'system.company');
    }
  }
});

t.test(
  'the demo company and createTestCompany({ swissInvoicing }) have a Swiss address and an invoice bank account',
  async (t) => {
    const ledger = await startTestLedger(t);
    const demo = await createDemo(ledger.db, loadEncryptionKey(ledger.config), {
      dataset: uniqueDataset('demo'),
      publicUrl: 'http://localhost:3000',
    });
    const test = await createTestCompany(ledger, { swissInvoicing: true });
    for (const [what, dataset, key] of [
      ['demo', demo.dataset, demo.api_key],
      ['test company', test.dataset, test.apiKey],
    ] as const) {
      const api = apiClient(ledger.url, dataset, key);
      const profile = (await api('GET', '/system/company')).body;
      t.match(
        profile,
        {
          street: 'Bahnhofstrasse',
          house_number: '1',
          zip: '8001',
          city: 'Zürich',
          country: 'CH',
          vat_number: 'CHE-123.456.788 MWST',
          email: /^billing@/,
        },
        `${what}: address and VAT number`,
      );
      const bank = await api('GET', `/bank/accounts/${profile.invoice_bank_account_id}`);
      t.match(
        bank.body,
        { iban: 'CH9300762011623852957', qr_iban: 'CH4431999123000889012', currency: 'CHF', account: '1020' },
        `${what}: CHF account with IBAN and QR-IBAN`,
      );
    }
    const log = await apiClient(ledger.url, demo.dataset, demo.api_key)('GET', '/system/audit?entity=bank_account');
    t.equal(log.body[0].via, 'cli', 'audited as made via the CLI');
  },
);
