/**
 * Revaluation over HTTP on a real ledger: a EUR invoice of 1,000.00 booked at 0.95 and revalued
 * at 0.93 is −20.00 (the receivable credited, the FX account debited), reversed the next day
 * when asked; a second request for the date books nothing; a currency in use without a rate is
 * 400 and writes nothing; a EUR bank account is revalued from its own lines, a later revaluation
 * starts from what the standing ones booked.
 */
import t from 'tap';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

t.test('revaluation at closing rates', async (t) => {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger, { currency: 'CHF' });
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const customer = (await api('POST', '/arap/customer', { name: 'Kunde GmbH' })).body.id;
  const invoice = await api('POST', '/arap/transaction/customer', {
    customer_id: customer,
    invDate: '2026-11-10',
    curr: 'EUR',
    exchangerate: 0.95,
    lines: [{ account: '3400', amount: 1000 }],
    pending: '0',
  });
  t.equal(invoice.status, 201, JSON.stringify(invoice.body));
  const ledgerOf = async (accno: string, to: string) => {
    const tb = await api('GET', `/reports/trial_balance?from=2026-01-01&to=${to}`);
    return tb.body.accounts.find((a: any) => a.accno === accno)?.closing ?? 0;
  };

  const missing = await api('POST', '/system/revaluation', { date: '2026-12-31', rates: { USD: 0.8 } });
  t.equal(missing.status, 400);
  t.equal(missing.body.error.field, '/rates/EUR');
  t.equal(await ledgerOf('6950', '2026-12-31'), 0, 'nothing written');

  const done = await api('POST', '/system/revaluation', {
    date: '2026-12-31',
    rates: { EUR: 0.93 },
    reverse_next_day: true,
  });
  t.equal(done.status, 200, JSON.stringify(done.body));
  t.same(done.body.items, [
    {
      kind: 'customer',
      id: invoice.body.id,
      currency: 'EUR',
      open: 1000,
      old_value: 950,
      new_value: 930,
      difference: -20,
    },
  ]);
  t.ok(done.body.journal_id);
  t.ok(done.body.reversal_journal_id);
  const entry = await api('GET', `/gl/transactions/${done.body.journal_id}`);
  t.same(
    entry.body.lines.map((l: any) => [l.account, l.debit, l.credit]),
    [
      ['1100', 0, 20],
      ['6950', 20, 0],
    ],
  );
  t.equal(await ledgerOf('6950', '2026-12-31'), 20, 'the loss at the closing date');
  t.equal(await ledgerOf('1100', '2026-12-31'), 930);
  t.equal(await ledgerOf('6950', '2027-01-01'), 0, 'reversed on the next day');

  const again = await api('POST', '/system/revaluation', { date: '2026-12-31', rates: { EUR: 0.5 } });
  t.same(again.body, done.body, 'the date is revalued once');
  t.equal(await ledgerOf('6950', '2026-12-31'), 20);

  // a EUR bank account, and a revaluation that stands (not reversed)
  t.equal(
    (
      await api('POST', '/system/chart/accounts', {
        accno: '1025',
        description: 'Bank EUR',
        category: 'A',
        links: ['AR_paid', 'AP_paid'],
      })
    ).status,
    201,
  );
  t.equal(
    (
      await api('POST', '/bank/accounts', {
        name: 'EUR account',
        iban: 'CH56 0483 5012 3456 7800 9',
        currency: 'EUR',
        account: '1025',
      })
    ).status,
    201,
  );
  await api('POST', '/gl/transactions', {
    transdate: '2027-01-15',
    curr: 'EUR',
    exchangerate: 0.94,
    pending: '0',
    lines: [
      { account: '1025', debit: 500 },
      { account: '2800', credit: 500 },
    ],
  });
  const first = await api('POST', '/system/revaluation', { date: '2027-01-31', rates: { EUR: 0.96 } });
  t.equal(first.status, 200, JSON.stringify(first.body));
  const bank = first.body.items.find((i: any) => i.kind === 'bank');
  t.same([bank.open, bank.old_value, bank.new_value, bank.difference], [500, 470, 480, 10]);
  const doc = first.body.items.find((i: any) => i.kind === 'customer');
  t.same([doc.old_value, doc.new_value, doc.difference], [950, 960, 10], 'the reversed revaluation no longer counts');
  const second = await api('POST', '/system/revaluation', { date: '2027-02-28', rates: { EUR: 0.95 } });
  const bank2 = second.body.items.find((i: any) => i.kind === 'bank');
  const doc2 = second.body.items.find((i: any) => i.kind === 'customer');
  t.same(
    [bank2.old_value, bank2.difference, doc2.old_value, doc2.difference],
    [480, -5, 960, -10],
    'from the standing',
  );

  t.equal((await api('POST', '/system/close_books', { date: '2027-03-31' })).status, 200);
  const closed = await api('POST', '/system/revaluation', { date: '2027-03-31', rates: { EUR: 0.9 } });
  t.equal(closed.status, 422);
});
