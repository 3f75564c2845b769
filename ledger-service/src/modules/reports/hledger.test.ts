/**
 * The tie-out with an independent engine (docs/testing.md): one company's two fiscal years (July–June, the first
 * closed) built through the REST API with the product's features — invoices and bills with VAT at 8.1 % and 2.6 %,
 * payments, a credit note, journal entries, a camt.053 statement booked by bank rules with dimensions, a
 * depreciation run, an EUR invoice revalued at the year end, the year-end closing. Then every posted ledger line is
 * written as an hledger journal (hledger refuses an unbalanced transaction by itself) and hledger's balances are
 * compared with the ledger's trial balance, income statement and balance sheet for the same periods and by
 * dimension: every account to the cent, the net income, the balance sheet's totals.
 */
import t from 'tap';
import type { Decimal } from 'decimal.js';
import { Money } from '@ledger/shared';
import { withTenant } from '../../db/knex.ts';
import { bankSetup, COMPANY_IBAN, type BankSetup } from '../../../test/fixtures/bank/setup.ts';
import {
  cents,
  dayAfter,
  hledgerBalances,
  hledgerJournal,
  postedLines,
  writeJournal,
} from '../../../test/support/hledger.ts';

type Row = Record<string, any>;

interface Entry {
  ref: string;
  date: string;
  amount: string;
  name: string;
  text: string;
  credit?: boolean;
}

/** A camt.053.001.08 statement of the company's CHF account; a credit's counterparty is its debtor. */
function camt053(entries: Entry[]): string {
  const party = (e: Entry) => (e.credit ? 'Dbtr' : 'Cdtr');
  const ntry = (e: Entry) => `
      <Ntry>
        <Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt><AcctSvcrRef>${e.ref}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>AUTT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <RltdPties><${party(e)}><Pty><Nm>${e.name}</Nm></Pty></${party(e)}></RltdPties>
          <RmtInf><Ustrd>${e.text}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>TIE-1</MsgId><CreDtTm>2025-03-31T20:00:00+01:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>TIE-1</Id>
      <Acct><Id><IBAN>${COMPANY_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
      ${entries.map(ntry).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

/** Two fiscal years of one company through the API; throws on the first refusal (this test is about the books). */
async function buildBooks(s: BankSetup) {
  const ok = async (method: string, path: string, body?: unknown, status = [200, 201]) => {
    const res = await s.api(method, path, body);
    if (!status.includes(res.status)) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const entry = (transdate: string, lines: Row[], extra: Row = {}) =>
    ok('POST', '/gl/transactions', { transdate, pending: '0', lines, ...extra });
  const invoice = (invDate: string, items: Row[], extra: Row = {}) =>
    ok('POST', '/arap/invoice/customer', { customer_id: s.customerId, invDate, pending: '0', items, ...extra });
  const pay = (vc: 'customer' | 'vendor', document_id: number, date: string, amount: number, extra: Row = {}) =>
    ok('POST', `/arap/payment/${vc}`, { document_id, date, amount, account: '1020', ...extra });

  await ok('POST', '/system/company', { fiscal_year_start: '07-01' });
  await ok('POST', '/system/dimensions', {
    code: 'cc',
    name: 'Cost centre',
    values: [
      { code: 'admin', name: 'Administration' },
      { code: 'sales', name: 'Sales' },
    ],
  });

  // the first year, July 2024 – June 2025
  await entry('2024-07-01', [
    { account: '1020', debit: 50000 },
    { account: '2800', credit: 50000 },
  ]);
  await entry('2024-07-15', [
    { account: '1500', debit: 12000 },
    { account: '1020', credit: 12000 },
  ]);
  await ok('POST', '/assets', {
    name: 'Delivery van',
    asset_account: '1500',
    expense_account: '6800',
    accumulated_account: '1509',
    acquired: '2024-07-15',
    cost: 12000,
    method: 'linear',
    life_months: 60,
    frequency: 'month',
  });
  const consulting = await invoice('2024-08-15', [
    { description: 'Beratung', quantity: 12.5, price: 180, account: '3400', taxAccount: '2200' },
    { description: 'Fachbuch', quantity: 3, price: 48.35, account: '3200', taxAccount: '2201' },
    {
      description: 'Workshop',
      quantity: 1,
      price: 900,
      account: '3400',
      taxAccount: '2200',
      dimensions: { cc: 'sales' },
    },
  ]);
  await pay('customer', consulting.id, '2024-09-30', 1000);
  const bill = await ok('POST', '/arap/transaction/vendor', {
    vendor_id: s.vendorId,
    invDate: '2024-09-10',
    pending: '0',
    lines: [
      { account: '6500', amount: 412.4, taxAccount: '1170', dimensions: { cc: 'admin' } },
      { account: '4000', amount: 233.15, taxAccount: '1171' },
    ],
  });
  const billRead = await ok('GET', `/arap/transaction/vendor/${bill.id}`);
  await pay('vendor', bill.id, '2024-10-10', billRead.grossAmount);
  const cancelled = await invoice('2024-10-01', [
    { description: 'Beratung', quantity: 4, price: 180, account: '3400', taxAccount: '2200' },
  ]);
  await ok('POST', `/arap/invoice/customer/${cancelled.id}/credit_note`, { date: '2024-10-20', reason: 'Cancelled' });
  await entry('2024-12-31', [
    { account: '6000', debit: 6000, dimensions: { cc: 'admin' } },
    { account: '1020', credit: 6000 },
  ]);

  // a camt.053 statement: two bank rules book its debits, each with a cost centre (one with input tax), and a
  // settle rule takes an invoice's payment less a 2 % cash discount
  const discounted = await invoice('2025-01-15', [
    { description: 'Beratung', quantity: 1, price: 1000, account: '3400', taxAccount: '2200' },
  ]); // 1081.00, paid as 1059.38
  await ok('POST', '/bank/rules', {
    name: 'Globex pays with 2 % discount',
    auto: true,
    conditions: { direction: 'in', counterparty: 'Globex' },
    action: {
      kind: 'settle',
      vc: 'customer',
      party_id: s.customerId,
      tolerance_percent: 2,
      difference_account: '3800',
    },
  });
  const swisscom = await ok('POST', '/arap/vendor', { name: 'Swisscom (Schweiz) AG' });
  await ok('POST', '/bank/rules', {
    name: 'Office supplies',
    auto: true,
    conditions: { direction: 'out', counterparty: 'papeterie' },
    action: { kind: 'book', account: '6500', dimensions: { cc: 'admin' } },
  });
  await ok('POST', '/bank/rules', {
    name: 'Swisscom',
    auto: true,
    conditions: { direction: 'out', counterparty: 'swisscom' },
    action: { kind: 'book', account: '6510', tax: 'VAT-IN-STD', party_id: swisscom.id, dimensions: { cc: 'sales' } },
  });
  const imported = await s.send(
    camt053([
      { ref: 'P-1', date: '2025-02-10', amount: '80.35', name: 'Papeterie Zumstein', text: 'Papier' },
      { ref: 'S-1', date: '2025-02-28', amount: '108.10', name: 'Swisscom (Schweiz) AG', text: 'Mobile' },
      { ref: 'S-2', date: '2025-03-31', amount: '97.45', name: 'Swisscom (Schweiz) AG', text: 'Mobile' },
      { ref: 'G-1', date: '2025-02-14', amount: '1059.38', name: 'Globex Corp', text: 'Payment', credit: true },
    ]),
  );
  if (imported.status !== 200 || imported.body.matched !== 4) throw new Error(JSON.stringify(imported.body));
  const settled = await ok('GET', `/arap/invoice/customer/${discounted.id}`);
  if (settled.open !== 0) throw new Error(`the settle rule left ${settled.open} open`);

  const eur = await ok('POST', '/arap/transaction/customer', {
    customer_id: s.customerId,
    invDate: '2025-05-10',
    curr: 'EUR',
    exchangerate: 0.9523,
    lines: [{ account: '3400', amount: 1234.56 }],
    pending: '0',
  });
  await ok('POST', '/assets/depreciation_run', { to: '2025-06-30' });
  await ok('POST', '/system/revaluation', { date: '2025-06-30', rates: { EUR: 0.9311 }, reverse_next_day: true });
  await ok('POST', '/system/fiscal_years/2025/close');

  // the second year, from July 2025
  const later = await invoice('2025-08-01', [
    {
      description: 'Beratung',
      quantity: 7.25,
      price: 190,
      account: '3400',
      taxAccount: '2200',
      dimensions: { cc: 'admin' },
    },
  ]);
  const laterRead = await ok('GET', `/arap/invoice/customer/${later.id}`);
  await pay('customer', later.id, '2025-08-20', laterRead.grossAmount);
  await pay('customer', eur.id, '2025-09-05', 1234.56, { exchangerate: 0.9407 });
  await entry('2025-09-01', [
    { account: '6000', debit: 2000, dimensions: { cc: 'admin' } },
    { account: '6000', debit: 1000.05, dimensions: { cc: 'sales' } },
    { account: '1020', credit: 3000.05 },
  ]);
  await ok('POST', '/assets/depreciation_run', { to: '2025-12-31' });
}

interface Period {
  from: string;
  to: string;
}

const PERIODS: Period[] = [
  { from: '2024-07-01', to: '2025-06-30' }, // the first year, closed
  { from: '2024-07-01', to: '2024-12-31' },
  { from: '2025-01-01', to: '2025-03-31' },
  { from: '2025-07-01', to: '2026-06-30' }, // the second year, open
  { from: '2025-07-01', to: '2025-09-30' },
];

/** Non-zero cent amounts by account: the shape both sides are compared in. */
function nonZero(entries: Iterable<[string, string]>, keep: (accno: string) => boolean = () => true) {
  return Object.fromEntries([...entries].filter(([accno, v]) => v !== '0.00' && keep(accno)));
}

/** A report's accounts as non-zero cent amounts of one figure. */
function byAccount(accounts: Row[], figure: (a: Row) => Decimal.Value) {
  return nonZero(accounts.map((a): [string, string] => [a.accno, cents(figure(a))]));
}

/** The exact sum of cent amounts, and its negation. */
function sum(values: Iterable<string>): string {
  return cents([...values].reduce((a, b) => a.plus(b), new Money(0)));
}
const neg = (v: string) => cents(new Money(v).neg());

t.test('the reports tie out with hledger over two fiscal years, by period and by dimension', async (t) => {
  const s = await bankSetup(t);
  await buildBooks(s);

  const lines = await withTenant(s.ledger.db, s.co.company.id, (tx) => postedLines(tx, s.co.company.id));
  t.ok(
    lines.some((l) => l.closing),
    'the closing entry is among the lines',
  );
  t.ok(lines.some((l) => l.dimensions?.cc === 'admin') && lines.some((l) => l.dimensions?.cc === 'sales'));
  const file = writeJournal(hledgerJournal(lines));
  const hledger = (...args: string[]) => hledgerBalances(file, args);
  // hledger refuses a journal with an unbalanced transaction: reading it is the first check
  const all = await hledger();
  t.ok(all.size > 10, 'hledger reads the journal');
  t.equal(sum(all.values()), '0.00', 'the books balance');

  const report = async (path: string) => {
    const res = await s.api('GET', path);
    if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  for (const { from, to } of PERIODS) {
    const at = `${from}..${to}`;
    const end = dayAfter(to);
    const tb = await report(`/reports/trial_balance?from=${from}&to=${to}`);
    const category = new Map<string, string>(tb.accounts.map((a: Row) => [a.accno, a.category]));
    const isPl = (accno: string) => ['I', 'E'].includes(category.get(accno) ?? '');

    t.same(
      byAccount(tb.accounts, (a) => a.closing),
      nonZero(await hledger('-e', end)),
      `${at}: every account's closing balance`,
    );
    t.same(
      byAccount(tb.accounts, (a) => a.opening),
      nonZero(await hledger('-e', from)),
      `${at}: every account's opening balance`,
    );
    t.same(
      byAccount(tb.accounts, (a) => new Money(a.debit).plus(a.credit)),
      nonZero(await hledger('-b', from, '-e', end)),
      `${at}: every account's movement`,
    );

    const is = await report(`/reports/income_statement?from=${from}&to=${to}`);
    const plMovement = nonZero(await hledger('-b', from, '-e', end, 'not:tag:closing'), isPl);
    t.same(
      byAccount([...is.income.accounts, ...is.expenses.accounts], (a) => a.amount),
      plMovement,
      `${at}: the income statement's accounts, without the closing entry`,
    );
    t.equal(cents(is.net_income), neg(sum(Object.values(plMovement))), `${at}: net income`);

    const bs = await report(`/reports/balance_sheet?date=${to}`);
    const balances = await hledger('-e', end);
    const of = (c: string) => nonZero(balances, (accno) => category.get(accno) === c);
    for (const [section, c] of [
      ['assets', 'A'],
      ['liabilities', 'L'],
      ['equity', 'Q'],
    ] as const) {
      t.same(
        byAccount(bs[section].accounts, (a) => a.amount),
        of(c),
        `${at}: the balance sheet's ${section}`,
      );
    }
    t.equal(cents(bs.total_assets), sum(Object.values(of('A'))), `${at}: total assets`);
    const result = sum(Object.values(nonZero(balances, isPl)));
    t.equal(
      cents(new Money(bs.equity.current_year_result).plus(bs.equity.earlier_years_result)),
      result,
      `${at}: the result not yet closed to retained earnings`,
    );
    t.equal(
      cents(bs.total_liabilities_and_equity),
      neg(sum([...Object.values(of('L')), ...Object.values(of('Q')), result])),
      `${at}: liabilities and equity`,
    );

    // by dimension: each value's column, and the lines without it
    const byCc = await report(`/reports/income_statement?from=${from}&to=${to}&dimension=cc`);
    const tbByCc = await report(`/reports/trial_balance?from=${from}&to=${to}&dimension=cc`);
    for (const value of ['admin', 'sales', null]) {
      const tag = value ? `tag:cc=^${value}$` : 'not:tag:cc';
      const column = (a: Row) => a.columns.find((c: Row) => c.value === value);
      t.same(
        byAccount([...byCc.income.accounts, ...byCc.expenses.accounts], (a) => column(a).amount),
        nonZero(await hledger('-b', from, '-e', end, tag, 'not:tag:closing'), isPl),
        `${at}: the income statement's column cc=${value}`,
      );
      t.same(
        byAccount(tbByCc.accounts, (a) => column(a).closing),
        nonZero(await hledger('-e', end, tag)),
        `${at}: the trial balance's column cc=${value}`,
      );
    }
    const admin = await report(`/reports/income_statement?from=${from}&to=${to}&dimension=cc&value=admin`);
    const adminPl = nonZero(await hledger('-b', from, '-e', end, 'tag:cc=^admin$', 'not:tag:closing'), isPl);
    t.equal(cents(admin.net_income), neg(sum(Object.values(adminPl))), `${at}: net income of cc=admin`);
  }
});
