/**
 * Model-based test over HTTP: a random sequence of creates, updates, approvals, deletions
 * and reversals on both sides; afterwards every posted document and the company as a
 * whole sum to zero in ledger_entries, and drafts have no ledger lines.
 */
import t from 'tap';
import fc from 'fast-check';
import { arapSetup, CHART, isZero, type Vc } from '../../../test/arapHelpers.ts';
import type { ApiResponse } from '../../../test/helpers.ts';

type Op =
  | { kind: 'create'; vc: Vc; post: boolean; doc: DocSpec }
  | { kind: 'update' | 'approve'; pick: number; doc: DocSpec }
  | { kind: 'reverse' | 'delete'; pick: number };

interface DocSpec {
  fx: boolean;
  rate: number;
  taxincluded: boolean;
  lines: { amount: number; tax: 0 | 1 | 2; override: number | null }[];
}

const cents = fc.integer({ min: -500_000, max: 2_000_000 }).map((c) => c / 100);
const docSpec: fc.Arbitrary<DocSpec> = fc.record({
  fx: fc.boolean(),
  rate: fc.integer({ min: 1, max: 3_000_000 }).map((n) => n / 1_000_000),
  taxincluded: fc.boolean(),
  lines: fc.array(
    fc.record({
      amount: cents,
      tax: fc.constantFrom(0 as const, 1 as const, 2 as const),
      override: fc.option(cents, { nil: null, freq: 5 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      vc: fc.constantFrom<Vc>('vendor', 'customer'),
      post: fc.boolean(),
      doc: docSpec,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('update' as const, 'approve' as const),
      pick: fc.nat(),
      doc: docSpec,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('reverse' as const, 'delete' as const), pick: fc.nat() }) },
);

t.test('after random creates, updates, approvals and reversals everything sums to zero', async (t) => {
  const s = await arapSetup(t);
  const docs: { id: number; vc: Vc }[] = [];

  const body = (vc: Vc, d: DocSpec, post: boolean) => {
    const c = CHART[vc];
    return s.doc(vc, {
      curr: d.fx ? 'EUR' : 'CHF',
      ...(d.fx ? { exchangerate: d.rate } : {}),
      taxincluded: d.taxincluded,
      ...(post ? { pending: '0' } : {}),
      lines: d.lines.map((l, i) => ({
        account: i % 2 ? c.line2 : c.line,
        amount: l.amount,
        ...(l.tax ? { taxAccount: l.tax === 1 ? c.tax : c.taxReduced } : {}),
        ...(l.tax && l.override !== null ? { taxAmount: l.override } : {}),
      })),
    });
  };

  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30 }), async (ops) => {
      run++;
      for (const o of ops) {
        if (o.kind === 'create') {
          const r = await s.api('POST', `/arap/transaction/${o.vc}`, body(o.vc, o.doc, o.post));
          if (r.status !== 201) throw new Error(`create failed: ${JSON.stringify(r.body)}`);
          docs.push({ id: r.body.id, vc: o.vc });
          continue;
        }
        if (docs.length === 0) continue;
        const target = docs[o.pick % docs.length]!;
        const current = (await s.api('GET', `/arap/transaction/${target.vc}/${target.id}`)).body;
        const path = `/arap/transaction/${target.vc}/${target.id}`;
        let expected: number;
        let r: ApiResponse;
        switch (o.kind) {
          case 'update':
            expected = current.status === 'reversed' || current.reversalOf ? 409 : 200;
            r = await s.api('POST', path, body(target.vc, o.doc, false));
            break;
          case 'approve':
            expected = current.status === 'draft' ? 200 : 409;
            r = await s.api('POST', `${path}/approve`, body(target.vc, o.doc, true));
            break;
          case 'reverse':
            expected = current.status === 'posted' && !current.reversalOf ? 201 : 409;
            r = await s.api('POST', `${path}/reverse`, { date: '2024-06-30' });
            if (r.status === 201) docs.push({ id: r.body.id, vc: target.vc });
            break;
          case 'delete':
            expected = current.status === 'draft' ? 204 : 409;
            r = await s.api('DELETE', path);
            if (r.status === 204) docs.splice(docs.indexOf(target), 1);
            break;
        }
        if (r.status !== expected)
          throw new Error(
            `${o.kind} of ${current.status} → ${r.status}, expected ${expected}: ${JSON.stringify(r.body)}`,
          );
      }

      for (const d of docs) {
        const doc = (await s.api('GET', `/arap/transaction/${d.vc}/${d.id}`)).body;
        const sum = await s.documentSum(d.id);
        if (doc.status === 'draft' && (await s.entryCount(d.id)) !== 0)
          throw new Error(`draft ${d.id} has ledger lines`);
        if (!isZero(sum)) throw new Error(`document ${d.id} (${doc.status}) sums to ${sum}`);
      }
      const total = await s.companySum();
      if (!isZero(total)) throw new Error(`company sums to ${total}`);
      const perAccountReversed = await s.q((tx) =>
        tx('ledger_entries as e')
          .join('arap_transactions as t', 't.id', 'e.transaction_id')
          .where('t.status', 'reversed')
          .orWhereNotNull('t.reversal_of_id')
          .groupBy('e.account_id')
          .select('e.account_id')
          .sum({ s: 'e.amount' }),
      );
      if (!perAccountReversed.every((a: { s?: unknown }) => isZero(String(a.s))))
        throw new Error('reversed pairs do not cancel per account');
      return true;
    }),
    { numRuns: 6 },
  );
  t.ok(run >= 6, `${run} random sequences, ${docs.length} documents`);
  t.ok(isZero(await s.companySum()), 'the company as a whole sums to zero');
  const posted = await s.q((tx) =>
    tx('arap_transactions').whereIn('status', ['posted', 'reversed']).count({ n: '*' }).first(),
  );
  t.ok(Number(posted?.n) > 5, 'the sequences posted documents');
});
