/**
 * POST /arap/transactions/{vc}/batch on a real ledger and database (docs/batches.md): the
 * limits, all or nothing (no row, audit entry, event or number left by a refused batch), the
 * refusal naming every bad document, the approval permission and limit, the idempotency key of
 * the whole batch, the same rows (documents, lines with their tax, ledger lines, audit entries,
 * events) as the same documents posted one by one, and numbering beside single postings running
 * at the same time.
 */
import t from 'tap';
import { withTenant, type Tx } from '../../db/knex.ts';
import { apiClient, createTestCompany, startTestLedger, type TestCompany } from '../../../test/helpers.ts';
import { CHART, SIDES, type Vc } from '../../../test/arapHelpers.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

type Ledger = Awaited<ReturnType<typeof startTestLedger>>;

/** A company with one vendor (with a bank account) and one customer. */
async function company(ledger: Ledger, co?: TestCompany) {
  const c = co ?? (await createTestCompany(ledger));
  const api = apiClient(ledger.url, c.dataset, c.apiKey);
  const vendor = await api('POST', '/arap/vendor', { name: 'Acme Supplies' });
  const customer = await api('POST', '/arap/customer', { name: 'Globex Corp' });
  const bank = await api('POST', `/arap/vendor/${vendor.body.id}/bank_accounts`, {
    iban: 'CH93 0076 2011 6238 5295 7',
  });
  if (vendor.status !== 201 || customer.status !== 201 || bank.status !== 201)
    throw new Error(`setup failed: ${JSON.stringify([vendor.body, customer.body, bank.body])}`);
  const party = {
    vendor: { id: vendor.body.id as number, number: vendor.body.vendornumber as string },
    customer: { id: customer.body.id as number, number: customer.body.customernumber as string },
  };
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, c.company.id, fn);
  const count = (table: string) =>
    q(async (tx) => Number(((await tx(table).count({ n: '*' }).first()) as { n: string }).n));
  /** the events of AR/AP documents (the parties' own events left out) */
  const documentEvents = () =>
    q(async (tx) =>
      Number((await tx('events').whereIn('resource_type', ['bill', 'invoice']).count({ n: '*' }).first())!.n),
    );
  return { co: c, api, party, bankId: bank.body.id as number, q, count, documentEvents };
}

type Company = Awaited<ReturnType<typeof company>>;

async function setup(t: Teardown) {
  const ledger = await startTestLedger(t);
  return { ledger, ...(await company(ledger)) };
}

/** A valid document of a side for the company `c`. */
const doc = (c: Company, vc: Vc, i: number, extra: Record<string, unknown> = {}) => ({
  [`${vc}_id`]: c.party[vc].id,
  invDate: '2024-03-15',
  description: `document ${i}`,
  pending: '0',
  lines: [{ account: CHART[vc].line, amount: 100 + i, taxAccount: CHART[vc].tax }],
  ...extra,
});

const batchPath = (vc: Vc) => `/arap/transactions/${vc}/batch`;
type Problem = { index: number; field: string; code: string; message: string };
const triples = (errors: Problem[]) => errors.map((e) => [e.index, e.field, e.code]);

t.test('limits: 1 to 1,000 documents, a JSON object each, no files', async (t) => {
  const s = await setup(t);
  const empty = await s.api('POST', batchPath('vendor'), { transactions: [] });
  t.equal(empty.status, 400, 'an empty batch is refused');
  t.equal(empty.body.error.field, '/transactions');
  const tooMany = await s.api('POST', batchPath('vendor'), {
    transactions: Array.from({ length: 1001 }, (_, i) => doc(s, 'vendor', i)),
  });
  t.equal(tooMany.status, 400, '1,001 documents are refused');
  t.equal(tooMany.body.error.field, '/transactions');
  t.match(tooMany.body.error.message, /1000/);
  const missing = await s.api('POST', batchPath('customer'), {});
  t.equal(missing.status, 400);
  t.equal(missing.body.error.field, '/transactions');
  const withFile = await s.api('POST', batchPath('vendor'), {
    transactions: [doc(s, 'vendor', 1, { files: [{ name: 'a.txt', data: 'data:text/plain;base64,YQ==' }] })],
  });
  t.equal(withFile.status, 400, 'files are not taken in a batch');
  t.same(withFile.body.error.errors, [
    { index: 0, field: '/files', code: 'invalid_request', message: 'Field "files" is not allowed here.' },
  ]);
  const notObject = await s.api('POST', batchPath('vendor'), { transactions: [doc(s, 'vendor', 1), 'x'] });
  t.same(notObject.body.error.errors, [
    { index: 1, field: '', code: 'invalid_request', message: 'Each document must be a JSON object.' },
  ]);
  const otherSide = await s.api('POST', batchPath('customer'), { transactions: [doc(s, 'vendor', 1)] });
  t.same(triples(otherSide.body.error.errors), [[0, '/vendor_id', 'invalid_request']], "each side's own shape");
  t.equal(await s.count('arap_transactions'), 0, 'nothing written by the refusals');

  const full = await s.api('POST', batchPath('vendor'), {
    transactions: Array.from({ length: 1000 }, (_, i) => doc(s, 'vendor', i)),
  });
  t.equal(full.status, 200, '1,000 documents are taken');
  t.equal(full.body.ids.length, 1000);
  t.equal(new Set(full.body.ids).size, 1000, 'each its own id');
  t.equal(await s.count('arap_transactions'), 1000);
  t.equal(await s.count('arap_lines'), 1000);
  t.equal(await s.count('ledger_entries'), 3000, 'expense, input tax and payable of each');
  t.equal(await s.documentEvents(), 2000, 'bill.created and bill.posted of each');
});

t.test('all or nothing: a refusal names the index and field of every bad document and writes nothing', async (t) => {
  const s = await setup(t);
  const taken = await s.api('POST', '/arap/transaction/vendor', doc(s, 'vendor', 0, { invNumber: 'TAKEN-1' }));
  t.equal(taken.status, 201);
  await s.api('POST', '/system/close_books', { date: '2023-12-31' });
  const before = {
    docs: await s.count('arap_transactions'),
    audit: await s.count('audit_log'),
    events: await s.count('events'),
    ledger: await s.count('ledger_entries'),
  };
  const nothingWritten = async (what: string) => {
    t.same(
      {
        docs: await s.count('arap_transactions'),
        audit: await s.count('audit_log'),
        events: await s.count('events'),
        ledger: await s.count('ledger_entries'),
      },
      before,
      `${what}: no document, ledger line, audit entry or event written`,
    );
  };

  const schema = await s.api('POST', batchPath('vendor'), {
    transactions: [
      doc(s, 'vendor', 0),
      doc(s, 'vendor', 1, { invDate: '2024-02-30' }),
      doc(s, 'vendor', 2),
      doc(s, 'vendor', 3, { currency: 'EUR' }),
      doc(s, 'vendor', 4, { lines: [] }),
      doc(s, 'vendor', 5, { payment_file: 2 }),
    ],
  });
  t.equal(schema.status, 400, 'schema problems first: 400');
  t.same(
    triples(schema.body.error.errors),
    [
      [1, '/invDate', 'invalid_request'],
      [3, '/curr', 'invalid_currency'],
      [4, '/lines', 'invalid_request'],
      [5, '/payment_file', 'invalid_request'],
    ],
    'each bad document by index and field',
  );
  t.match(schema.body.error.message, /4 documents of the batch refused; nothing was written/);
  await nothingWritten('schema refusal');

  const rules = await s.api('POST', batchPath('vendor'), {
    transactions: [
      doc(s, 'vendor', 0),
      doc(s, 'vendor', 1, { vendor_id: 999999 }),
      doc(s, 'vendor', 2, { invNumber: 'TAKEN-1' }),
      doc(s, 'vendor', 3, { invNumber: 'TWICE' }),
      doc(s, 'vendor', 4, { lines: [{ account: CHART.vendor.wrongLine, amount: 10 }] }),
      doc(s, 'vendor', 5, { invNumber: 'TWICE' }),
      doc(s, 'vendor', 6, { invDate: '2023-12-15' }),
      doc(s, 'vendor', 7, { dueDate: '2024-03-01' }),
      doc(s, 'vendor', 8, { lines: [{ account: CHART.vendor.line, amount: 10.005 }] }),
      doc(s, 'vendor', 9, { vc_bank_id: s.bankId + 1000 }),
      doc(s, 'vendor', 10, { vendor_id: 999999, invNumber: 'TAKEN-1' }),
    ],
  });
  t.equal(rules.status, 400);
  t.same(
    triples(rules.body.error.errors),
    [
      [1, '/vendor_id', 'vc_not_found'],
      [2, '/invNumber', 'conflict'],
      [4, '/lines/0/account', 'invalid_request'],
      [5, '/invNumber', 'conflict'],
      [6, '/invDate', 'closed_period'],
      [7, '/dueDate', 'invalid_request'],
      [8, '/lines/0/amount', 'invalid_request'],
      [9, '/vc_bank_id', 'invalid_request'],
      [10, '/vendor_id', 'vc_not_found'],
    ],
    'the rule problems of every document, with the field the single endpoint names (its first problem)',
  );
  const messages = rules.body.error.errors.map((e: Problem) => e.message);
  t.match(messages[1], /Document number TAKEN-1 already exists/);
  t.match(messages[3], /Document number TWICE is used twice in the batch/);
  t.match(messages[2], /not usable on vendor lines/);
  await nothingWritten('rule refusal');

  const conflicts = await s.api('POST', batchPath('vendor'), {
    transactions: [doc(s, 'vendor', 0, { invNumber: 'TAKEN-1' }), doc(s, 'vendor', 1)],
  });
  t.equal(conflicts.status, 409, 'only conflicts: 409');
  t.equal(conflicts.body.error.code, 'conflict');
  await nothingWritten('conflict refusal');

  const next = await s.api('POST', '/arap/transaction/vendor', doc(s, 'vendor', 11));
  const read = await s.api('GET', `/arap/transaction/vendor/${next.body.id}`);
  t.equal(read.body.invNumber, 'AP-000001', 'the refused batches used no number of the sequence');
});

t.test('posting needs the approve permission and stays within the approval limit', async (t) => {
  const s = await setup(t);
  const clerk = apiClient(s.ledger.url, s.co.dataset, (await s.co.addMember('clerk')).apiKey);
  const posted = await clerk('POST', batchPath('customer'), {
    transactions: [doc(s, 'customer', 0, { pending: undefined }), doc(s, 'customer', 1)],
  });
  t.equal(posted.status, 403, 'a clerk may not post: the batch is refused as a whole');
  t.match(posted.body.error.message, /customers\.postings\.approve/);
  const drafts = await clerk('POST', batchPath('customer'), {
    transactions: [doc(s, 'customer', 0, { pending: undefined }), doc(s, 'customer', 1, { pending: undefined })],
  });
  t.equal(drafts.status, 200, 'a clerk may save drafts');

  const limited = apiClient(s.ledger.url, s.co.dataset, (await s.co.addMember('accountant', '500')).apiKey);
  const over = await limited('POST', batchPath('vendor'), {
    transactions: [
      doc(s, 'vendor', 0),
      doc(s, 'vendor', 1, { lines: [{ account: CHART.vendor.line, amount: 600 }] }),
      doc(s, 'vendor', 2, { pending: undefined, lines: [{ account: CHART.vendor.line, amount: 600 }] }),
      doc(s, 'vendor', 3, { lines: [{ account: CHART.vendor.line, amount: 470, taxAccount: CHART.vendor.tax }] }),
    ],
  });
  t.equal(over.status, 400);
  t.same(
    triples(over.body.error.errors),
    [
      [1, '', 'amount_exceeded'],
      [3, '', 'amount_exceeded'],
    ],
    'each posted document above the limit (gross, tax included); a draft above it is fine',
  );
  t.equal(await s.count('arap_transactions'), 2, "only the clerk's drafts");
});

t.test('one idempotency key for the whole batch: a repeat answers the same ids and writes nothing', async (t) => {
  const s = await setup(t);
  const body = { transactions: [doc(s, 'vendor', 1), doc(s, 'vendor', 2)] };
  const key = { 'Idempotency-Key': 'arap-batch-key-0001' };
  const first = await s.api('POST', batchPath('vendor'), body, key);
  t.equal(first.status, 200);
  const again = await s.api('POST', batchPath('vendor'), body, key);
  t.equal(again.status, 200);
  t.same(again.body, first.body, 'the kept answer');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(await s.count('arap_transactions'), 2, 'written once');
  t.equal(await s.documentEvents(), 4, 'its events once');
  const other = await s.api('POST', batchPath('vendor'), { transactions: [doc(s, 'vendor', 3)] }, key);
  t.equal(other.status, 409, 'the key with another batch is refused');
  t.equal(other.body.error.code, 'conflict');
  t.equal(await s.count('arap_transactions'), 2);
  const refused = { transactions: [doc(s, 'vendor', 4, { vendor_id: 999999 })] };
  const refusedKey = { 'Idempotency-Key': 'arap-batch-key-0002' };
  const r1 = await s.api('POST', batchPath('vendor'), refused, refusedKey);
  const r2 = await s.api('POST', batchPath('vendor'), refused, refusedKey);
  t.equal(r1.status, 400);
  t.same(r2.body, r1.body, 'a refusal is kept and answered again, as for a single document');
});

/** The stored rows of documents, without ids and times: what one by one and a batch must both write. */
function storedRows(c: Company, vc: Vc, ids: number[]) {
  return c.q(async (tx) => {
    const out = [];
    const accno = async (id: number | null) =>
      id === null ? null : (await tx('accounts').where({ id }).first('accno'))!.accno;
    for (const id of ids) {
      const row = await tx('arap_transactions').where({ id }).first();
      if (!row) throw new Error(`no document ${id}`);
      const {
        id: _id,
        company_id: _company,
        party_id,
        record_account_id,
        vc_bank_id,
        created_at: _created,
        updated_at: _updated,
        posted_at,
        ...header
      } = row;
      const party = await tx('parties').where({ id: party_id }).first('number');
      const bank =
        vc_bank_id === null ? null : await tx('vendor_bank_accounts').where({ id: vc_bank_id }).first('iban');
      const lines = await tx('arap_lines').where({ transaction_id: id }).orderBy('position');
      const lineRows = [];
      for (const { id: _l, company_id: _c, transaction_id: _t, account_id, tax_account_id, ...l } of lines)
        lineRows.push({ ...l, account: await accno(account_id), taxAccount: await accno(tax_account_id) });
      const entries = await tx('ledger_entries').where({ transaction_id: id }).orderBy(['kind', 'amount']);
      const entryRows = [];
      for (const e of entries)
        entryRows.push({
          account: await accno(e.account_id),
          date: e.date,
          amount: e.amount,
          fx_amount: e.fx_amount,
          currency: e.currency,
          kind: e.kind,
          payment: e.payment_id,
          journal: e.journal_id,
        });
      const audit = await tx('audit_log')
        .where({ entity: `${vc}_transaction`, entity_id: String(id) })
        .orderBy('id')
        .select('user_id', 'via', 'via_label', 'action', 'details');
      const events = (
        await tx('events')
          .where({ resource_id: String(id) })
          .orderBy('seq')
      ).map((e) => ({
        type: e.type,
        subject: e.subject.replace(String(id), '{id}'),
        resource_type: e.resource_type,
        actor: { via: e.actor.via, label: e.actor.label, user: e.actor.user_id !== null },
        data: e.data,
      }));
      out.push({
        header: { ...header, party: party?.number, recordAccount: await accno(record_account_id), bank: bank?.iban },
        posted: posted_at !== null,
        lines: lineRows,
        entries: entryRows,
        audit: audit.map((a) => ({ ...a, user_id: a.user_id !== null })),
        events,
      });
    }
    return out;
  });
}

for (const vc of SIDES) {
  t.test(`${vc}: the same documents sent one by one and as a batch give the same rows`, async (t) => {
    const ledger = await startTestLedger(t, {});
    const a = await company(ledger);
    const b = await company(ledger);
    const docs = (c: Company) => [
      doc(c, vc, 1),
      doc(c, vc, 2, { pending: undefined, description: 'a draft', documentNumber: 'THEIR-2' }),
      doc(c, vc, 3, { invNumber: 'OWN-3', curr: 'EUR', exchangerate: 0.9375, dueDate: '2024-04-14' }),
      // the old VAT rate (until 2023) and the new one in the same batch: each document its own date's rate
      doc(c, vc, 4, { invDate: '2023-11-30' }),
      doc(c, vc, 5, {
        [`${vc}_id`]: undefined,
        [`${vc}number`]: c.party[vc].number,
        taxincluded: true,
        lines: [
          { account: CHART[vc].line, amount: 107.7, taxAccount: CHART[vc].tax, description: 'gross' },
          { account: CHART[vc].line2, amount: 20.05, taxAccount: CHART[vc].taxReduced },
          { account: CHART[vc].line, amount: 3, taxAccount: CHART[vc].tax, taxAmount: 0.25 },
          { account: CHART[vc].line2, amount: -5 },
        ],
      }),
      doc(c, vc, 6, { recordAccount: CHART[vc].control, curr: 'USD', exchangerate: 0.8813 }),
      ...(vc === 'vendor'
        ? [doc(c, vc, 7, { payment_file: 1, vc_bank_id: c.bankId, paymentReference: 'RF18 5390 0754 7034' })]
        : []),
    ];
    const single: number[] = [];
    for (const d of docs(a)) {
      const r = await a.api('POST', `/arap/transaction/${vc}`, d);
      t.equal(r.status, 201, JSON.stringify(r.body));
      single.push(r.body.id);
    }
    const batch = await b.api('POST', batchPath(vc), { transactions: docs(b) });
    t.equal(batch.status, 200, JSON.stringify(batch.body));
    t.equal(batch.body.ids.length, single.length);

    const one = await storedRows(a, vc, single);
    const many = await storedRows(b, vc, batch.body.ids);
    t.same(many, one, 'documents, lines with their tax, ledger lines, audit entries and events are the same');
    const prefix = vc === 'vendor' ? 'AP' : 'AR';
    t.same(
      many.map((d) => d.header.inv_number),
      [
        `${prefix}-000001`,
        `${prefix}-000002`,
        'OWN-3',
        `${prefix}-000003`,
        `${prefix}-000004`,
        `${prefix}-000005`,
      ].concat(vc === 'vendor' ? [`${prefix}-000006`] : []),
      'numbered from the sequence in input order; a number given by hand kept',
    );
    t.not(many[3]!.lines[0]!.tax_rate, many[0]!.lines[0]!.tax_rate, "each document's own date's tax rate");
    t.same(
      many.flatMap((d) => d.events.map((e) => e.type)),
      (vc === 'vendor' ? ['bill', 'bill', 'bill', 'bill', 'bill', 'bill', 'bill'] : Array(6).fill('invoice')).flatMap(
        (r, i) => (i === 1 ? [`${r}.created`] : [`${r}.created`, `${r}.posted`]),
      ),
      'created, and posted when posted, as one by one',
    );
    const seqs = await b.q(async (tx) => (await tx('events').orderBy('seq').pluck('seq')) as number[]);
    t.same(
      seqs,
      seqs.map((_, i) => seqs[0]! + i),
      'event numbers without gaps',
    );
  });
}

t.test('batches and single postings at the same time: distinct numbers, every document written', async (t) => {
  const s = await setup(t);
  const batches = Array.from({ length: 4 }, (_, n) =>
    s.api('POST', batchPath('vendor'), {
      transactions: Array.from({ length: 50 }, (_, i) => doc(s, 'vendor', n * 100 + i)),
    }),
  );
  const singles = Array.from({ length: 20 }, (_, i) => s.api('POST', '/arap/transaction/vendor', doc(s, 'vendor', i)));
  const hand = s.api('POST', '/arap/transaction/vendor', doc(s, 'vendor', 99, { invNumber: 'HAND-1' }));
  const results = await Promise.all([...batches, ...singles, hand]);
  t.same(
    results.map((r) => r.status),
    [...batches.map(() => 200), ...singles.map(() => 201), 201],
    'every request succeeds (no deadlock, no conflict)',
  );
  const numbers = await s.q(
    async (tx) =>
      (await tx('arap_transactions')
        .whereNot({ inv_number: 'HAND-1' })
        .orderBy('inv_number')
        .pluck('inv_number')) as string[],
  );
  t.equal(numbers.length, 220, 'all 220 numbered documents');
  t.same(
    numbers,
    Array.from({ length: 220 }, (_, i) => `AP-${String(i + 1).padStart(6, '0')}`),
    'no number twice, none left out',
  );
  t.equal(await s.documentEvents(), 442, 'two events per document');
  const balance = await s.q(async (tx) => String((await tx('ledger_entries').sum({ s: 'amount' }).first())?.s));
  t.equal(Number(balance), 0, 'the books balance');
});

t.test(
  'two batches giving the same numbers by hand in opposite orders: one is written, the other refused',
  async (t) => {
    const s = await setup(t);
    const numbered = (numbers: string[]) => ({
      transactions: numbers.map((invNumber, i) => doc(s, 'customer', i, { invNumber })),
    });
    const [a, b] = await Promise.all([
      s.api('POST', batchPath('customer'), numbered(['X-1', 'X-2', 'X-3'])),
      s.api('POST', batchPath('customer'), numbered(['X-3', 'X-2', 'X-1'])),
    ]);
    t.same([a.status, b.status].sort(), [200, 409], 'no deadlock: the later batch hears its numbers are taken');
    t.equal((a.status === 409 ? a : b).body.error.errors.length, 3, 'each document of the refused batch named');
    t.equal(await s.count('arap_transactions'), 3, 'only the first batch written');
  },
);
