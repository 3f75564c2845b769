import t from 'tap';
import { arapSetup, memberApi } from '../../../test/arapHelpers.ts';

t.test('vendor bank accounts: IBAN mod-97 and BIC format', async (t) => {
  const s = await arapSetup(t);
  const v = s.parties.vendor.id;
  const ok = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'CH93 0076 2011 6238 5295 7', bic: 'ubswchzh80a', name: 'Acme AG' });
  t.equal(ok.status, 201);
  t.type(ok.body.id, 'number');
  const list = await s.api('GET', `/arap/vendor/${v}/bank_accounts`);
  t.same(list.body, [{ id: ok.body.id, vendor_id: v, iban: 'CH9300762011623852957', bic: 'UBSWCHZH80A', name: 'Acme AG' }], 'stored in electronic format');

  const badCheck = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'CH9300762011623852958' });
  t.equal(badCheck.status, 400, 'wrong check digits');
  t.equal(badCheck.body.error.field, '/iban');
  const badLength = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE8937040044053201300' });
  t.equal(badLength.status, 400, 'wrong length for the country');
  const badBic = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000', bic: 'DEUT12XX' });
  t.equal(badBic.status, 400);
  t.equal(badBic.body.error.field, '/bic');
  t.equal((await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { bic: 'DEUTDEFF' })).body.error.field, '/iban');
  t.equal((await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000', extra: 1 })).body.error.field, '/extra');

  t.equal((await s.api('GET', '/arap/vendor/999999/bank_accounts')).status, 404);
  t.equal((await s.api('POST', `/arap/vendor/${s.parties.customer.id}/bank_accounts`, { iban: 'DE89370400440532013000' })).status, 404, 'customers have no vendor bank accounts');
  const viewer = await memberApi(s, s.co, 'viewer');
  t.equal((await viewer('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000' })).status, 403);
  t.equal((await viewer('GET', `/arap/vendor/${v}/bank_accounts`)).status, 200);
});

t.test('payment_file with vc_bank_id: stored and listed for the payment file', async (t) => {
  const s = await arapSetup(t);
  const v = s.parties.vendor.id;
  const bank = await s.api('POST', `/arap/vendor/${v}/bank_accounts`, { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
  const other = await s.api('POST', '/arap/vendor', { name: 'Other Vendor' });
  const otherBank = await s.api('POST', `/arap/vendor/${other.body.id}/bank_accounts`, { iban: 'CH9300762011623852957' });

  const flagged = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0', payment_file: 1, vc_bank_id: bank.body.id }));
  t.equal(flagged.status, 201);
  const flaggedDraft = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { payment_file: 1, vc_bank_id: bank.body.id }));
  const plain = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { pending: '0' }));
  t.equal(plain.status, 201);

  const d = (await s.api('GET', `/arap/transaction/vendor/${flagged.body.id}`)).body;
  t.equal(d.payment_file, 1);
  t.equal(d.vc_bank_id, bank.body.id);
  const list = await s.api('GET', '/arap/transactions/vendor?payment_file=1&status=posted');
  t.same(list.body.map((r: { id: number }) => r.id), [flagged.body.id]);
  t.equal(list.body[0].vc_bank_id, bank.body.id);
  t.same((await s.api('GET', '/arap/transactions/vendor?payment_file=1')).body.map((r: { id: number }) => r.id), [flagged.body.id, flaggedDraft.body.id]);

  const noBank = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { payment_file: 1 }));
  t.equal(noBank.status, 400);
  t.equal(noBank.body.error.field, '/vc_bank_id');
  const foreign = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { payment_file: 1, vc_bank_id: otherBank.body.id }));
  t.equal(foreign.status, 400, "another vendor's bank account");
  t.equal(foreign.body.error.field, '/vc_bank_id');
  const missing = await s.api('POST', '/arap/transaction/vendor', s.doc('vendor', { vc_bank_id: 999999 }));
  t.equal(missing.status, 400);
  const customer = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { payment_file: 1 }));
  t.equal(customer.status, 400, 'payment_file is a vendor field');
  t.equal(customer.body.error.field, '/payment_file');
});
