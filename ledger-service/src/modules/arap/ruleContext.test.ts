/**
 * The rule context remembered with a snapshot (ruleContext.ts `recallRuleContext`): the next
 * document like the first is computed against the same context, made again when the company's
 * own settings it was made with differ (base currency, default control and rounding account),
 * and never for a document of another date (its rates differ).
 */
import t from 'tap';
import type { TransactionInput } from '@ledger/shared';
import { withTenant } from '../../db/knex.ts';
import { startTestLedger, createTestCompany } from '../../../test/helpers.ts';
import { CHART } from '../../../test/arapHelpers.ts';
import { loadRuleContext, recallRuleContext } from './ruleContext.ts';

t.test('a remembered context is reused only with the settings and date it was made for', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const vendor = await withTenant(ledger.db, co.company.id, async (tx) =>
    tx('parties')
      .insert({ company_id: co.company.id, vc: 'vendor', name: 'Memo Vendor', number: 'MV-1' })
      .returning('id'),
  );
  // the document also names the company's rounding account, so a snapshot's key (the accounts named and the
  // defaults) stays the same when the default rounding account becomes another account the document names
  const rounding = co.company.settings.rounding_account;
  t.ok(rounding, 'the company has a rounding account');
  const input = {
    type: 'transaction',
    vendor_id: vendor[0]!.id,
    invDate: '2024-03-15',
    lines: [
      { account: CHART.vendor.line, amount: 100, taxAccount: CHART.vendor.tax },
      { account: rounding, amount: 1 },
    ],
  } as unknown as TransactionInput;
  t.equal(recallRuleContext(co.company, 'vendor', input), undefined, 'nothing remembered before the first read');
  const loaded = await withTenant(ledger.db, co.company.id, (tx) => loadRuleContext(tx, co.company, 'vendor', input));

  const first = recallRuleContext(co.company, 'vendor', input)!;
  t.ok(first, 'remembered after the read');
  t.same([...first.context.accounts.keys()].sort(), [...loaded.accounts.keys()].sort(), 'the same accounts');
  t.same(
    [...first.context.rates].map(([k, v]) => [k, v.toString()]),
    [...loaded.rates].map(([k, v]) => [k, v.toString()]),
  );
  t.equal(recallRuleContext(co.company, 'vendor', input)!.context, first.context, 'the next one shares the context');

  // another base currency: the context is made again, with it
  const otherCurrency = { ...co.company, base_currency: 'EUR' };
  const again = recallRuleContext(otherCurrency, 'vendor', input)!;
  t.not(again.context, first.context, 'made again');
  t.equal(again.context.baseCurrency, 'EUR');

  // another default rounding account
  const otherRounding = { ...co.company, settings: { ...co.company.settings, rounding_account: CHART.vendor.line } };
  const withRounding = recallRuleContext(otherRounding, 'vendor', input)!;
  t.ok(withRounding, 'the same snapshot');
  t.equal(withRounding.context.roundingAccount, CHART.vendor.line, 'the rounding account of the settings');

  // another date is another snapshot: nothing remembered for it
  t.equal(recallRuleContext(co.company, 'vendor', { ...input, invDate: '2024-03-16' }), undefined);
});
