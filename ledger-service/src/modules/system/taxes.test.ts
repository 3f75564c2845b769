/**
 * Tax codes over HTTP (docs/vat.md "Tax codes"): a rate history without overlaps, a new rate as
 * a new period that never rewrites what was posted, postings taking the rate valid on their
 * date, and deleting only an unused code.
 */
import t from 'tap';
import { arapSetup, memberApi } from '../../../test/arapHelpers.ts';

const SPECIAL = {
  code: 'VAT-OUT-SPECIAL',
  description: 'Output VAT special rate 5%',
  accno: '2203',
  kind: 'output',
  figure: '382',
  rates: [{ rate: 0.05, valid_from: '2025-01-01', valid_to: null }],
};

async function withAccount(t: Parameters<typeof arapSetup>[0]) {
  const s = await arapSetup(t, { currency: 'CHF' });
  const account = await s.api('POST', '/system/chart/accounts', {
    accno: '2203',
    description: 'Output VAT special rate',
    category: 'L',
    links: ['AR_tax'],
  });
  if (account.status !== 201) throw new Error(JSON.stringify(account.body));
  return s;
}

t.test('add, read, post at the rate of the date, add a rate period, refuse rewriting a used one', async (t) => {
  const s = await withAccount(t);
  const overlap = await s.api('POST', '/system/taxes', {
    ...SPECIAL,
    rates: [
      { rate: 0.05, valid_from: '2025-01-01', valid_to: '2025-12-31' },
      { rate: 0.06, valid_from: '2025-07-01', valid_to: null },
    ],
  });
  t.equal(overlap.status, 400, 'overlapping periods');
  t.match(overlap.body.error, { code: 'invalid_request', field: '/rates', message: /overlap/ });
  t.equal((await s.api('GET', '/system/taxes/VAT-OUT-SPECIAL')).status, 404, 'nothing written');

  const created = await s.api('POST', '/system/taxes', SPECIAL);
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.match(created.headers.get('location'), /\/system\/taxes\/VAT-OUT-SPECIAL$/);
  t.match(created.body, { code: 'VAT-OUT-SPECIAL', accno: '2203', kind: 'output', figure: '382', rate: 0.05 });
  t.equal((await s.api('POST', '/system/taxes', SPECIAL)).status, 409, 'the code is taken');
  const sameAccount = await s.api('POST', '/system/taxes', { ...SPECIAL, code: 'OTHER' });
  t.equal(sameAccount.status, 409, 'one code per tax account');
  const wrongLink = await s.api('POST', '/system/taxes', { ...SPECIAL, code: 'IN', kind: 'input' });
  t.equal(wrongLink.status, 400, 'an input code needs an AP_tax account');

  const before = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2024-06-01',
      pending: '0',
      lines: [{ account: '3400', amount: 100, taxAccount: '2203' }],
    }),
  );
  t.equal(before.status, 400, 'no rate on that date');
  t.match(before.body.error.message, /2203 has no rate valid on 2024-06-01/, 'the 400 names the date');
  const posted = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2025-03-01',
      pending: '0',
      lines: [{ account: '3400', amount: 100, taxAccount: '2203' }],
    }),
  );
  t.equal(posted.status, 201, JSON.stringify(posted.body));
  t.equal((await s.api('GET', `/arap/transaction/customer/${posted.body.id}`)).body.taxes[0].amount, 5);

  const rewrite = await s.api('POST', '/system/taxes/VAT-OUT-SPECIAL', {
    rates: [{ rate: 0.055, valid_from: '2025-01-01', valid_to: null }],
  });
  t.equal(rewrite.status, 409, 'a used period keeps its rate');
  t.match(rewrite.body.error.message, /2025-03-01 were posted at 5 %/);
  const newPeriod = await s.api('POST', '/system/taxes/VAT-OUT-SPECIAL', {
    rates: [
      { rate: 0.05, valid_from: '2025-01-01', valid_to: '2025-12-31' },
      { rate: 0.055, valid_from: '2026-01-01', valid_to: null, description: 'Output VAT special rate 5.5%' },
    ],
  });
  t.equal(newPeriod.status, 200, JSON.stringify(newPeriod.body));
  t.equal(newPeriod.body.rates.length, 2);
  const later = await s.api(
    'POST',
    '/arap/transaction/customer',
    s.doc('customer', {
      invDate: '2026-02-01',
      pending: '0',
      lines: [{ account: '3400', amount: 100, taxAccount: '2203' }],
    }),
  );
  t.equal((await s.api('GET', `/arap/transaction/customer/${later.body.id}`)).body.taxes[0].amount, 5.5);
  t.equal(
    (await s.api('GET', `/arap/transaction/customer/${posted.body.id}`)).body.taxes[0].amount,
    5,
    'what was posted is unchanged',
  );

  const used = await s.api('DELETE', '/system/taxes/VAT-OUT-SPECIAL');
  t.equal(used.status, 409, 'a used code stays');
  t.match(used.body.error.message, /used by 2 document lines/, 'naming how many lines use it');
});

t.test('delete an unused code; tax codes are changed by owners and admins only', async (t) => {
  const s = await withAccount(t);
  t.equal((await s.api('POST', '/system/taxes', SPECIAL)).status, 201);
  const accountant = await memberApi(s, s.co, 'accountant');
  t.equal((await accountant('DELETE', '/system/taxes/VAT-OUT-SPECIAL')).status, 403);
  t.equal((await accountant('GET', '/system/taxes/VAT-OUT-SPECIAL')).status, 200, 'but read');
  t.equal((await s.api('DELETE', '/system/taxes/VAT-OUT-SPECIAL')).status, 204);
  t.equal((await s.api('GET', '/system/taxes/VAT-OUT-SPECIAL')).status, 404);
  t.equal((await s.api('DELETE', '/system/taxes/VAT-OUT-SPECIAL')).status, 404);
});
