/**
 * recordPayments (the batch the bank import books with) against recordPayment one by one:
 * the same inputs must leave exactly the same rows — payments, ledger lines, paid amounts,
 * audit — and a refused input must refuse the batch with the error the one-by-one calls
 * would have raised first, writing nothing.
 */
import t from 'tap';
import { withTenant, type Tx } from '../../db/knex.ts';
import { findCompanyByDataset } from '../../db/companies.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Actor } from '../../domain/actor.ts';
import { arapSetup, CHART, type ArapSetup } from '../../../test/arapHelpers.ts';
import { recordPayment, recordPayments, type PaymentInput } from './service.ts';

async function posted(s: ArapSetup, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await s.api('POST', '/arap/transaction/customer', s.doc('customer', { pending: '0', ...extra }));
  if (r.status !== 201) throw new Error(`document setup failed: ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

/** Runs `fn` in the company's tenant transaction with a service context, then rolls everything back. */
async function rolledBack<T>(
  s: ArapSetup,
  fn: (c: {
    tx: Tx;
    company: NonNullable<Awaited<ReturnType<typeof findCompanyByDataset>>>;
    actor: Actor;
  }) => Promise<T>,
): Promise<T> {
  const company = (await findCompanyByDataset(s.ledger.db, s.co.dataset))!;
  const actor: Actor = {
    userId: s.co.userId,
    role: s.co.role,
    approvalLimit: null,
    via: { kind: 'api_key', id: s.co.apiKeyId, label: 'test key' },
  };
  const undo = new Error('roll back');
  let result: T | undefined;
  await withTenant(s.ledger.db, company.id, async (tx) => {
    result = await fn({ tx, company, actor });
    throw undo;
  }).catch((err: unknown) => {
    if (err !== undo) throw err;
  });
  return result as T;
}

/**
 * Everything the payments wrote, with payment ids replaced by their position in `ids` (the sequence moves on between
 * runs).
 */
async function written(tx: Tx, ids: readonly number[], documents: readonly number[]) {
  const position = (id: number | string) => ids.indexOf(Number(id));
  const payments = (
    await tx('arap_payments')
      .whereIn('id', ids)
      .orderBy('id')
      .select(
        'id',
        'vc',
        'transaction_id',
        'date',
        'amount',
        'currency',
        'exchangerate',
        'account_id',
        'base_amount',
        'cleared_base',
        'memo',
        'source',
        'reversal_date',
      )
  ).map((r: Record<string, unknown>) => ({ ...r, id: position(r.id as number) }));
  const entries = (
    (await tx('ledger_entries')
      .whereIn('payment_id', ids)
      .orderBy('id')
      .select('transaction_id', 'payment_id', 'account_id', 'date', 'amount', 'fx_amount', 'currency', 'kind')) as {
      payment_id: number;
      kind: string;
    }[]
  ).map((r) => ({ ...r, payment_id: position(r.payment_id) }));
  const paid = await tx('arap_transactions').whereIn('id', documents).orderBy('id').select('id', 'paid');
  const audit = (
    await tx('audit_log')
      .where({ entity: 'customer_payment' })
      .whereIn('entity_id', ids.map(String))
      .orderBy('id')
      .select('entity_id', 'action', 'details', 'via', 'user_id')
  ).map((r: Record<string, unknown>) => ({ ...r, entity_id: position(r.entity_id as string) }));
  // the trigger writes one delta row per statement and account: compare the sums, not the rows
  const balances = await tx('ledger_balances')
    .groupBy('account_id', 'month', 'closing')
    .orderBy(['account_id', 'month', 'closing'])
    .select(
      'account_id',
      'month',
      'closing',
      tx.raw('sum(debit)::text as debit'),
      tx.raw('sum(credit)::text as credit'),
    );
  return { payments, entries, paid, audit, balances };
}

t.test(
  'a batch (two payments of one document, one FX) writes exactly what the payments one by one write',
  async (t) => {
    const s = await arapSetup(t);
    const chf = await posted(s);
    const eur = await posted(s, {
      curr: 'EUR',
      exchangerate: 0.95,
      lines: [{ account: CHART.customer.line, amount: 1000 }],
    });
    const other = await posted(s);
    const inputs: PaymentInput[] = [
      {
        document_id: chf,
        date: '2024-03-20',
        amount: '50',
        account: '1020',
        memo: 'first half',
        source: 'bank transaction 1',
      },
      { document_id: eur, date: '2024-03-21', amount: '400', account: '1020', exchangerate: '0.97' },
      { document_id: other, date: '2024-03-21', amount: '108.10', account: '1020' },
      // the final payment of the first document clears what the first one left
      { document_id: chf, date: '2024-03-22', amount: '58.10', account: '1020', source: 'bank transaction 4' },
      { document_id: eur, date: '2024-03-23', amount: '600', account: '1020', exchangerate: '0.93' },
    ];
    const documents = [chf, eur, other];

    const batch = await rolledBack(s, async (c) => {
      const ids = (await recordPayments(c, 'customer', inputs)).map((r) => r.id);
      return { ids, rows: await written(c.tx, ids, documents) };
    });
    const single = await rolledBack(s, async (c) => {
      const ids: number[] = [];
      for (const input of inputs) ids.push((await recordPayment(c, 'customer', input)).id);
      return { ids, rows: await written(c.tx, ids, documents) };
    });

    t.equal(batch.ids.length, inputs.length);
    t.same(
      [...batch.ids].sort((a, b) => a - b),
      batch.ids,
      'ids in input order',
    );
    t.equal(batch.rows.payments.length, 5);
    t.equal(
      batch.rows.entries.filter((e) => e.kind === 'fx').length,
      2,
      'both EUR payments post an exchange difference',
    );
    t.same(
      batch.rows.paid.map((r) => String(r.paid)),
      ['108.100000', '1000.000000', '108.100000'],
      'every document fully paid',
    );
    t.same(batch.rows.payments, single.rows.payments, 'the same payments');
    t.same(batch.rows.entries, single.rows.entries, 'the same ledger lines, in the same order');
    t.same(batch.rows.paid, single.rows.paid, 'the same paid amounts');
    t.same(batch.rows.audit, single.rows.audit, 'the same audit entries');
    t.same(batch.rows.balances, single.rows.balances, 'the same account balances');
  },
);

t.test(
  'a refused input refuses the batch with the error the one-by-one calls raise first, and writes nothing',
  async (t) => {
    const s = await arapSetup(t);
    const chf = await posted(s);
    const eur = await posted(s, {
      curr: 'EUR',
      exchangerate: 0.95,
      lines: [{ account: CHART.customer.line, amount: 1000 }],
    });
    const cases: [string, PaymentInput[], string, string][] = [
      [
        'the second payment of a document overpays it',
        [
          { document_id: chf, date: '2024-03-20', amount: '100', account: '1020' },
          { document_id: chf, date: '2024-03-20', amount: '8.11', account: '1020' },
        ],
        'overpayment',
        '/amount',
      ],
      [
        'a document without a rate before a missing document',
        [
          { document_id: chf, date: '2024-03-20', amount: '1', account: '1020' },
          { document_id: eur, date: '2024-03-20', amount: '1', account: '1020' },
          { document_id: 999_999_999, date: '2024-03-20', amount: '1', account: '1020' },
        ],
        'invalid_request',
        '/exchangerate',
      ],
      [
        'a missing document before a payment account that is not one',
        [
          { document_id: 999_999_999, date: '2024-03-20', amount: '1', account: '1020' },
          { document_id: chf, date: '2024-03-20', amount: '1', account: '3400' },
        ],
        'invalid_request',
        '/document_id',
      ],
      [
        'a date before the document',
        [
          { document_id: chf, date: '2024-03-20', amount: '1', account: '1020' },
          { document_id: chf, date: '2024-03-01', amount: '1', account: '1020' },
        ],
        'invalid_request',
        '/date',
      ],
    ];
    for (const [name, inputs, code, field] of cases) {
      const refusal = async (fn: () => Promise<unknown>) => {
        try {
          await fn();
          return undefined;
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          return { code: err.code, message: err.message, field: err.field };
        }
      };
      const batch = await rolledBack(s, (c) => refusal(() => recordPayments(c, 'customer', inputs)));
      const single = await rolledBack(s, (c) =>
        refusal(async () => {
          for (const i of inputs) await recordPayment(c, 'customer', i);
        }),
      );
      t.match(batch, { code, field }, name);
      t.same(batch, single, `${name}: the same error as one by one`);
    }
    const paid = await s.q(async (tx) => tx('arap_transactions').whereIn('id', [chf, eur]).pluck('paid'));
    t.same(paid.map(String), ['0.000000', '0.000000'], 'nothing paid');
  },
);
