/**
 * The property of reports by dimension (docs/year-end.md "Reports by dimension"), over HTTP on a
 * real ledger: after random AR/AP documents (lines with and without a cost centre, with and
 * without tax), payments, reversals and journal entries (lines with and without one), the
 * trial balance and the income statement by dimension have, for every figure, columns by value
 * plus unassigned that add up exactly to the company's figure, the company's figures equal the
 * report without `dimension`, and each column equals the report narrowed to its value.
 */
import t from 'tap';
import fc from 'fast-check';
import { Money } from '@ledger/shared';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

type Vc = 'vendor' | 'customer';
const LINE_ACCOUNTS = { customer: ['3000', '3400'], vendor: ['4000', '6000', '1500'] } as const;
const TAX_ACCOUNTS = { customer: ['2200', null], vendor: ['1170', null] } as const;
const JOURNAL_ACCOUNTS = ['1020', '1300', '3400', '6000', '6900'] as const;
const VALUES = ['admin', 'sales', 'it'] as const;

const day = fc.integer({ min: 0, max: 500 }).map((n) => new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10));
const cents = fc.integer({ min: 1, max: 300_000 }).map((n) => n / 100);
// index into VALUES, or 3: no dimension
const tag = fc.nat(3);

const docOp = fc.record({
  op: fc.constant('document' as const),
  vc: fc.constantFrom<Vc>('customer', 'vendor'),
  date: day,
  lines: fc.array(fc.record({ account: fc.nat(2), tax: fc.nat(1), amount: cents, tag }), {
    minLength: 1,
    maxLength: 3,
  }),
});
const paymentOp = fc.record({ op: fc.constant('payment' as const), pick: fc.nat() });
const reversalOp = fc.record({ op: fc.constant('reversal' as const), pick: fc.nat() });
const journalOp = fc.record({
  op: fc.constant('journal' as const),
  date: day,
  debit: fc.nat(JOURNAL_ACCOUNTS.length - 1),
  credit: fc.nat(JOURNAL_ACCOUNTS.length - 1),
  amount: cents,
  debitTag: tag,
  creditTag: tag,
});
const scenario = fc.record({
  ops: fc.array(fc.oneof(docOp, docOp, paymentOp, reversalOp, journalOp, journalOp), { minLength: 1, maxLength: 14 }),
  from: day,
  length: fc.nat(400),
});

const dims = (i: number) => (i < VALUES.length ? { dimensions: { cc: VALUES[i]! } } : {});
const sum = (xs: number[]) => xs.reduce((a, b) => a.plus(b), new Money(0));

t.test('reports by dimension: the columns add up to the company figure', async (t) => {
  const ledger = await startTestLedger(t);
  await fc.assert(
    fc.asyncProperty(scenario, async ({ ops, from, length }) => {
      const co = await createTestCompany(ledger, { currency: 'CHF' });
      const api = apiClient(ledger.url, co.dataset, co.apiKey);
      const ok = async (method: string, path: string, body?: unknown) => {
        const r = await api(method, path, body);
        if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
        return r.body;
      };
      await ok('POST', '/system/dimensions', {
        code: 'cc',
        name: 'Cost centre',
        values: VALUES.map((v) => ({ code: v, name: v.toUpperCase() })),
      });
      const parties = {
        vendor: (await ok('POST', '/arap/vendor', { name: 'Acme Supplies' })).id as number,
        customer: (await ok('POST', '/arap/customer', { name: 'Globex Corp' })).id as number,
      };
      const posted: { vc: Vc; id: number; date: string; gross: number; paid: boolean; reversed: boolean }[] = [];
      for (const o of ops) {
        if (o.op === 'document') {
          const lines = o.lines.map((l) => {
            const tax = TAX_ACCOUNTS[o.vc][l.tax];
            return {
              account: LINE_ACCOUNTS[o.vc][l.account % LINE_ACCOUNTS[o.vc].length]!,
              amount: l.amount,
              ...(tax ? { taxAccount: tax } : {}),
              ...dims(l.tag),
            };
          });
          const { id } = await ok('POST', `/arap/transaction/${o.vc}`, {
            [`${o.vc}_id`]: parties[o.vc],
            invDate: o.date,
            lines,
            pending: '0',
          });
          const doc = await ok('GET', `/arap/transaction/${o.vc}/${id}`);
          posted.push({ vc: o.vc, id, date: o.date, gross: doc.grossAmount, paid: false, reversed: false });
        } else if (o.op === 'payment') {
          const open = posted.filter((d) => !d.reversed && !d.paid);
          if (open.length === 0) continue;
          const d = open[o.pick % open.length]!;
          await ok('POST', `/arap/payment/${d.vc}`, {
            document_id: d.id,
            date: d.date,
            amount: d.gross,
            account: '1020',
          });
          d.paid = true;
        } else if (o.op === 'reversal') {
          const candidates = posted.filter((d) => !d.reversed && !d.paid);
          if (candidates.length === 0) continue;
          const d = candidates[o.pick % candidates.length]!;
          await ok('POST', `/arap/transaction/${d.vc}/${d.id}/reverse`, { date: d.date });
          d.reversed = true;
        } else {
          if (o.debit === o.credit) continue;
          await ok('POST', '/gl/transactions', {
            transdate: o.date,
            pending: '0',
            lines: [
              { account: JOURNAL_ACCOUNTS[o.debit], debit: o.amount, ...dims(o.debitTag) },
              { account: JOURNAL_ACCOUNTS[o.credit], credit: o.amount, ...dims(o.creditTag) },
            ],
          });
        }
      }

      const to = new Date(Date.parse(`${from}T00:00:00Z`) + length * 86_400_000).toISOString().slice(0, 10);
      const q = `from=${from}&to=${to}`;
      const plainTb = await ok('GET', `/reports/trial_balance?${q}`);
      const tb = await ok('GET', `/reports/trial_balance?${q}&dimension=cc`);
      const values = tb.dimension.columns.map((c: { value: string | null }) => c.value);
      t.same(values, ['admin', 'it', 'sales', null]);
      const byValue = await Promise.all(
        VALUES.map(async (v) => [v, await ok('GET', `/reports/trial_balance?${q}&dimension=cc&value=${v}`)] as const),
      );
      const figures = ['opening', 'debit', 'credit', 'closing'] as const;
      for (const a of tb.accounts) {
        for (const f of figures) {
          const columns = a.columns.map((c: Record<string, number>) => c[f]);
          if (!sum(columns).equals(new Money(a[f]))) t.fail(`trial balance ${a.accno} ${f}: ${columns} ≠ ${a[f]}`);
        }
        const plain = plainTb.accounts.find((p: { accno: string }) => p.accno === a.accno);
        for (const f of figures) {
          if (!new Money(plain?.[f] ?? 0).equals(new Money(a[f]))) t.fail(`trial balance ${a.accno} ${f} differs`);
        }
        for (const [v, report] of byValue) {
          const own = report.accounts.find((r: { accno: string }) => r.accno === a.accno);
          const column = a.columns[values.indexOf(v)];
          if (!new Money(own?.closing ?? 0).equals(new Money(column.closing))) t.fail(`${a.accno} ${v} closing`);
        }
      }
      for (const f of figures) {
        const columns = tb.totals.columns.map((c: Record<string, number>) => c[f]);
        if (!sum(columns).equals(new Money(tb.totals[f]))) t.fail(`trial balance totals ${f}`);
      }

      const plainIs = await ok('GET', `/reports/income_statement?${q}`);
      const is = await ok('GET', `/reports/income_statement?${q}&dimension=cc`);
      const netColumns = is.columns.map((c: { net_income: number }) => c.net_income);
      if (!sum(netColumns).equals(new Money(is.net_income))) t.fail(`net income ${netColumns} ≠ ${is.net_income}`);
      if (is.net_income !== plainIs.net_income) t.fail('net income differs from the plain report');
      for (const key of ['income', 'expenses'] as const) {
        const totals = is[key].columns.map((c: { total: number }) => c.total);
        if (!sum(totals).equals(new Money(is[key].total))) t.fail(`${key} total`);
        for (const a of is[key].accounts) {
          const amounts = a.columns.map((c: { amount: number }) => c.amount);
          if (!sum(amounts).equals(new Money(a.amount))) t.fail(`${key} ${a.accno}: ${amounts} ≠ ${a.amount}`);
        }
      }
      for (const v of VALUES) {
        const own = await ok('GET', `/reports/income_statement?${q}&dimension=cc&value=${v}`);
        if (own.net_income !== is.columns[values.indexOf(v)].net_income) t.fail(`net income of ${v}`);
      }
    }),
    { numRuns: Number(process.env.DIMENSIONS_PROPERTY_RUNS ?? 8) },
  );
  t.pass('every scenario tied out');
});
