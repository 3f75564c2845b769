/**
 * POST /gl/transactions/batch on a real ledger and database (docs/batches.md): the limits,
 * all or nothing, the refusal naming every bad entry, the idempotency key of the whole batch,
 * the same rows (entries, lines, ledger lines, audit) as the same entries posted one by one,
 * and numbering beside single postings running at the same time.
 */
import t from 'tap';
import { withTenant, type Tx } from '../../db/knex.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function setup(t: Teardown) {
  const ledger = await startTestLedger(t);
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);
  const count = (table: string) =>
    q(async (tx) => Number(((await tx(table).count({ n: '*' }).first()) as { n: string }).n));
  return { ledger, co, api, q, count };
}

const entry = (i: number, extra: Record<string, unknown> = {}) => ({
  transdate: '2026-03-15',
  description: `entry ${i}`,
  pending: '0',
  lines: [
    { account: '6000', debit: 100 + i, description: 'rent' },
    { account: '1020', credit: 100 + i },
  ],
  ...extra,
});

t.test('limits: 1 to 1,000 entries, a JSON object each, no files', async (t) => {
  const { api, count } = await setup(t);
  const empty = await api('POST', '/gl/transactions/batch', { transactions: [] });
  t.equal(empty.status, 400, 'an empty batch is refused');
  t.equal(empty.body.error.field, '/transactions');
  const tooMany = await api('POST', '/gl/transactions/batch', {
    transactions: Array.from({ length: 1001 }, (_, i) => entry(i)),
  });
  t.equal(tooMany.status, 400, '1,001 entries are refused');
  t.match(tooMany.body.error.message, /1000/);
  const missing = await api('POST', '/gl/transactions/batch', {});
  t.equal(missing.status, 400);
  t.equal(missing.body.error.field, '/transactions');
  const withFile = await api('POST', '/gl/transactions/batch', {
    transactions: [entry(1, { files: [{ name: 'a.txt', data: 'data:text/plain;base64,YQ==' }] })],
  });
  t.equal(withFile.status, 400, 'files are not taken in a batch');
  t.same(withFile.body.error.errors, [
    { index: 0, field: '/files', code: 'invalid_request', message: 'Field "files" is not allowed here.' },
  ]);
  const notObject = await api('POST', '/gl/transactions/batch', { transactions: [entry(1), 'x'] });
  t.same(notObject.body.error.errors, [
    { index: 1, field: '', code: 'invalid_request', message: 'Each document must be a JSON object.' },
  ]);

  const full = await api('POST', '/gl/transactions/batch', {
    transactions: Array.from({ length: 1000 }, (_, i) => entry(i)),
  });
  t.equal(full.status, 200, '1,000 entries are taken');
  t.equal(full.body.ids.length, 1000);
  t.equal(new Set(full.body.ids).size, 1000, 'each its own id');
  t.equal(await count('gl_transactions'), 1000);
  t.equal(await count('gl_lines'), 2000);
  t.equal(await count('ledger_entries'), 2000);
});

t.test('all or nothing: a refusal names the index and field of every bad entry and writes nothing', async (t) => {
  const { api, count } = await setup(t);
  await api('POST', '/gl/transactions', { ...entry(0), reference: 'TAKEN-1' });
  const before = { gl: await count('gl_transactions'), audit: await count('audit_log') };
  const res = await api('POST', '/gl/transactions/batch', {
    transactions: [
      entry(0),
      entry(1, {
        lines: [
          { account: '6000', debit: 10 },
          { account: '1020', credit: 9 },
        ],
      }),
      entry(2, { transdate: '2026-02-30' }),
      entry(3),
      entry(4, {
        lines: [
          { account: '9999', debit: 1 },
          { account: '1020', credit: 1 },
        ],
      }),
      entry(5, { curr: 'CHF', currency: 'CHF' }),
    ],
  });
  t.equal(res.status, 400, 'schema problems first: 400');
  t.same(
    res.body.error.errors.map((e: { index: number; field: string; code: string }) => [e.index, e.field, e.code]),
    [
      [2, '/transdate', 'invalid_request'],
      [5, '/curr', 'invalid_currency'],
    ],
    'each bad entry by index and field',
  );
  t.match(res.body.error.message, /2 documents of the batch refused; nothing was written/);

  const rules = await api('POST', '/gl/transactions/batch', {
    transactions: [
      entry(0),
      entry(1, {
        lines: [
          { account: '6000', debit: 10 },
          { account: '1020', credit: 9 },
        ],
      }),
      entry(2, { reference: 'TAKEN-1' }),
      entry(3, { reference: 'TWICE' }),
      entry(4, {
        lines: [
          { account: '9999', debit: 1 },
          { account: '1020', credit: 1 },
        ],
      }),
      entry(5, { reference: 'TWICE' }),
      entry(6, {
        lines: [
          { account: '1100', debit: 1 },
          { account: '1020', credit: 1 },
        ],
      }),
    ],
  });
  t.equal(rules.status, 400);
  t.same(
    rules.body.error.errors.map((e: { index: number; field: string; code: string }) => [e.index, e.field, e.code]),
    [
      [1, '/lines', 'unbalanced'],
      [2, '/reference', 'conflict'],
      [4, '/lines/0/account', 'invalid_request'],
      [5, '/reference', 'conflict'],
      [6, '/lines/0/account', 'invalid_request'],
    ],
    'rule problems of every entry, with the field the single endpoint names',
  );
  t.match(rules.body.error.errors[3].message, /used twice in the batch/);
  t.equal(await count('gl_transactions'), before.gl, 'no entry written');
  t.equal(await count('audit_log'), before.audit, 'no audit entry written');

  const conflicts = await api('POST', '/gl/transactions/batch', {
    transactions: [entry(0, { reference: 'TAKEN-1' }), entry(1)],
  });
  t.equal(conflicts.status, 409, 'only conflicts: 409');
  t.equal(conflicts.body.error.code, 'conflict');
});

t.test('the same entries sent one by one and as a batch give the same rows', async (t) => {
  const { ledger, api, co } = await setup(t);
  const other = await createTestCompany(ledger);
  const api2 = apiClient(ledger.url, other.dataset, other.apiKey);
  const docs = [
    entry(1),
    entry(2, { pending: undefined, description: 'a draft' }),
    entry(3, { reference: 'OWN-3', curr: 'EUR', exchangerate: 0.9375 }),
    entry(4, {
      lines: [
        { account: '6000', debit: 1.05 },
        { account: '6100', debit: 2 },
        { account: '1020', credit: 3.05 },
      ],
    }),
  ];
  const single: number[] = [];
  for (const d of docs) {
    const r = await api('POST', '/gl/transactions', d);
    t.equal(r.status, 201);
    single.push(r.body.id);
  }
  const batch = await api2('POST', '/gl/transactions/batch', { transactions: docs });
  t.equal(batch.status, 200);

  const rows = (companyId: number, ids: number[]) =>
    withTenant(ledger.db, companyId, async (tx) => {
      const out = [];
      for (const id of ids) {
        const h = await tx('gl_transactions')
          .where({ id })
          .first(
            'reference',
            tx.raw('transdate::text as transdate'),
            'description',
            'currency',
            tx.raw('exchangerate::text as exchangerate'),
            'status',
            'closing',
            'fiscal_year',
            'reversal_of_id',
            tx.raw('(posted_at is not null) as posted'),
            tx.raw('(created_by is not null) as by_user'),
          );
        const lines = await tx('gl_lines as l')
          .join('accounts as a', 'a.id', 'l.account_id')
          .where({ journal_id: id })
          .orderBy('position')
          .select('position', 'a.accno', 'l.description', tx.raw('debit::text, credit::text, base_amount::text'));
        const ledgerLines = await tx('ledger_entries as e')
          .join('accounts as a', 'a.id', 'e.account_id')
          .where({ journal_id: id })
          .orderBy(['a.accno', 'e.amount'])
          .select(
            'a.accno',
            tx.raw('e.date::text as date, amount::text, fx_amount::text'),
            'currency',
            'kind',
            'closing',
          );
        const audit = await tx('audit_log')
          .where({ entity: 'journal_entry', entity_id: String(id) })
          .select('action', 'via', 'via_label', 'details');
        out.push({ h, lines, ledgerLines, audit });
      }
      return out;
    });
  const a = await rows(co.company.id, single);
  const b = await rows(other.company.id, batch.body.ids);
  t.same(b, a, 'entries, lines, ledger lines and audit entries are the same');
  t.equal(a[0]?.h?.reference, 'GL-000001', 'numbered from the sequence');
  t.equal(b[1]?.h?.reference, 'GL-000002', 'in input order');
});

t.test('one idempotency key for the whole batch: a repeat answers the same ids and writes nothing', async (t) => {
  const { api, count } = await setup(t);
  const body = { transactions: [entry(1), entry(2)] };
  const key = { 'Idempotency-Key': 'batch-key-0001' };
  const first = await api('POST', '/gl/transactions/batch', body, key);
  t.equal(first.status, 200);
  const again = await api('POST', '/gl/transactions/batch', body, key);
  t.equal(again.status, 200);
  t.same(again.body, first.body, 'the kept answer');
  t.equal(await count('gl_transactions'), 2, 'written once');
  const other = await api('POST', '/gl/transactions/batch', { transactions: [entry(3)] }, key);
  t.equal(other.status, 409, 'the key with another batch is refused');
});

t.test('batches and single postings at the same time: distinct numbers, every entry written', async (t) => {
  const { api, q } = await setup(t);
  const batches = Array.from({ length: 4 }, (_, b) =>
    api('POST', '/gl/transactions/batch', { transactions: Array.from({ length: 50 }, (_, i) => entry(b * 100 + i)) }),
  );
  const singles = Array.from({ length: 20 }, (_, i) => api('POST', '/gl/transactions', entry(1000 + i)));
  const results = await Promise.all([...batches, ...singles]);
  t.same(
    results.map((r) => r.status),
    [...batches.map(() => 200), ...singles.map(() => 201)],
    'every request succeeds',
  );
  const refs = await q(async (tx) => (await tx('gl_transactions').orderBy('reference').pluck('reference')) as string[]);
  t.equal(refs.length, 220, 'all 220 entries');
  t.equal(new Set(refs).size, 220, 'no number twice');
  t.same(
    refs,
    Array.from({ length: 220 }, (_, i) => `GL-${String(i + 1).padStart(6, '0')}`),
    'numbers without gaps',
  );
  const balance = await q(async (tx) => String((await tx('ledger_entries').sum({ s: 'amount' }).first())?.s));
  t.equal(Number(balance), 0, 'the books balance');
});
