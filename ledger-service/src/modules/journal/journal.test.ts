import t from 'tap';
import { withTenant, type Tx } from '../../db/knex.ts';
import { apiClient, createTestCompany, startTestLedger } from '../../../test/helpers.ts';
import { rentEntry } from '../../../test/fixtures/journal.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A company on a real ledger, its owner's API client and direct reads under its RLS scope. */
async function setup(t: Teardown) {
  const ledger = await startTestLedger(t, { fileLimit: 4096 });
  const co = await createTestCompany(ledger);
  const api = apiClient(ledger.url, co.dataset, co.apiKey);
  const q = <T>(fn: (tx: Tx) => Promise<T>) => withTenant(ledger.db, co.company.id, fn);
  const entries = (id: number) =>
    q(
      async (tx) =>
        (await tx('ledger_entries as e')
          .join('accounts as a', 'a.id', 'e.account_id')
          .where({ journal_id: id })
          .orderBy('e.id')
          .select(
            'a.accno',
            tx.raw('e.amount::text as amount'),
            tx.raw('e.fx_amount::text as fx_amount'),
            'e.currency',
            'e.closing',
            'e.date',
          )) as {
          accno: string;
          amount: string;
          fx_amount: string;
          currency: string;
          closing: boolean;
          date: string;
        }[],
    );
  const sumOf = (id: number) =>
    q(async (tx) =>
      String((await tx('ledger_entries').where({ journal_id: id }).sum({ s: 'amount' }).first())?.s ?? '0'),
    );
  const audit = (id: number) =>
    q(async (tx) =>
      (
        await tx('audit_log')
          .where({ entity: 'journal_entry', entity_id: String(id) })
          .orderBy('id')
          .select('action')
      ).map((a: { action: string }) => a.action),
    );
  return { ledger, co, api, q, entries, sumOf, audit };
}

/** Rent paid from the bank: 6000 debit, 1020 credit. */
const rent = rentEntry;

const isZero = (numeric: string) => /^-?0(\.0+)?$/.test(numeric);

t.test('draft → post with the complete entry; posted entries are not changed or deleted', async (t) => {
  const s = await setup(t);
  const created = await s.api('POST', '/gl/transactions', rent());
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const draft = (await s.api('GET', `/gl/transactions/${id}`)).body;
  t.equal(draft.status, 'draft');
  t.equal(draft.reference, 'GL-000001', 'numbered from the GL sequence');
  t.equal(draft.currency, 'CHF');
  t.same(draft.lines, [
    {
      account: '6000',
      accountDescription: 'Rent',
      description: 'rent',
      debit: 1500,
      credit: 0,
      baseDebit: 1500,
      baseCredit: 0,
    },
    { account: '1020', accountDescription: 'Bank', debit: 0, credit: 1500, baseDebit: 0, baseCredit: 1500 },
  ]);
  t.equal(draft.totalDebit, 1500);
  t.same(await s.entries(id), [], 'a draft is not in the books');

  const changed = await s.api(
    'POST',
    `/gl/transactions/${id}`,
    rent({
      lines: [
        { account: '6000', debit: 1600 },
        { account: '1020', credit: 1600 },
      ],
    }),
  );
  t.equal(changed.status, 200, JSON.stringify(changed.body));
  t.equal(changed.body.status, 'draft', 'still a draft without pending');
  t.equal(changed.body.totalDebit, 1600, 'lines replaced');
  t.equal(changed.body.reference, 'GL-000001', 'reference kept when omitted');

  const posted = await s.api('POST', `/gl/transactions/${id}`, rent({ pending: '0' }));
  t.equal(posted.status, 200);
  t.equal(posted.body.status, 'posted');
  t.ok(posted.body.posted_at);
  const lines = await s.entries(id);
  t.same(
    lines.map((l) => [l.accno, l.amount, l.date, l.closing]),
    [
      ['6000', '1500.000000', '2024-03-15', false],
      ['1020', '-1500.000000', '2024-03-15', false],
    ],
  );
  t.ok(isZero(await s.sumOf(id)), 'the books balance');

  const again = await s.api('POST', `/gl/transactions/${id}`, rent({ pending: '0' }));
  t.equal(again.status, 409, 'a posted entry is not changed');
  t.match(again.body.error.message, /only drafts can be changed/);
  const del = await s.api('DELETE', `/gl/transactions/${id}`);
  t.equal(del.status, 409, 'a posted entry is not deleted');
  t.same(await s.audit(id), ['create', 'update', 'post']);

  const direct = await s.api('POST', '/gl/transactions', rent({ pending: 0, reference: 'JE-7' }));
  t.equal(direct.status, 201, 'pending 0 (number) posts at once');
  const d = (await s.api('GET', `/gl/transactions/${direct.body.id}`)).body;
  t.equal(d.status, 'posted');
  t.equal(d.reference, 'JE-7');
  t.same(await s.audit(direct.body.id), ['create_posted']);
});

t.test('delete drafts: 204, gone, audited with the deleted version', async (t) => {
  const s = await setup(t);
  const { body } = await s.api('POST', '/gl/transactions', rent());
  const del = await s.api('DELETE', `/gl/transactions/${body.id}`);
  t.equal(del.status, 204);
  t.equal((await s.api('GET', `/gl/transactions/${body.id}`)).status, 404);
  t.equal((await s.api('DELETE', `/gl/transactions/${body.id}`)).status, 404);
  t.same(await s.audit(body.id), ['create', 'delete']);
  t.equal((await s.api('GET', '/gl/transactions/abc')).status, 404, 'a malformed id is not found');
});

t.test('validation: every rule answers 400 naming the field, nothing is written', async (t) => {
  const s = await setup(t);
  const cases: [string, Record<string, unknown>, string, string, RegExp?][] = [
    [
      'unbalanced',
      rent({
        lines: [
          { account: '6000', debit: 100 },
          { account: '1020', credit: 90 },
        ],
      }),
      'unbalanced',
      '/lines',
      /differ by 10\.00 CHF \(more debit\)/,
    ],
    [
      'unbalanced credit',
      rent({
        lines: [
          { account: '6000', debit: 100 },
          { account: '1020', credit: 100.05 },
        ],
      }),
      'unbalanced',
      '/lines',
      /differ by 0\.05 CHF \(more credit\)/,
    ],
    [
      'both sides',
      rent({
        lines: [
          { account: '6000', debit: 100, credit: 100 },
          { account: '1020', credit: 0.01 },
        ],
      }),
      'invalid_request',
      '/lines/0/credit',
      /either a debit or a credit/,
    ],
    [
      'neither side',
      rent({
        lines: [
          { account: '6000', debit: 100 },
          { account: '1020', debit: 0 },
        ],
      }),
      'invalid_request',
      '/lines/1/debit',
      /needs a debit or a credit/,
    ],
    [
      'unknown account',
      rent({
        lines: [
          { account: '9999', debit: 100 },
          { account: '1020', credit: 100 },
        ],
      }),
      'invalid_request',
      '/lines/0/account',
      /9999 does not exist/,
    ],
    [
      'AR control',
      rent({
        lines: [
          { account: '6000', debit: 100 },
          { account: '1100', credit: 100 },
        ],
      }),
      'invalid_request',
      '/lines/1/account',
      /AR control account/,
    ],
    [
      'AP control',
      rent({
        lines: [
          { account: '2000', debit: 100 },
          { account: '1020', credit: 100 },
        ],
      }),
      'invalid_request',
      '/lines/0/account',
      /AP control account/,
    ],
    [
      'decimals',
      rent({
        lines: [
          { account: '6000', debit: 100.001 },
          { account: '1020', credit: 100.001 },
        ],
      }),
      'invalid_request',
      '/lines/0/debit',
      /more decimals than CHF/,
    ],
    [
      'JPY decimals',
      rent({
        curr: 'JPY',
        exchangerate: 0.006,
        lines: [
          { account: '6000', debit: 100.5 },
          { account: '1020', credit: 100.5 },
        ],
      }),
      'invalid_request',
      '/lines/0/debit',
      /JPY allows \(0\)/,
    ],
    ['foreign without rate', rent({ curr: 'EUR' }), 'invalid_request', '/exchangerate', /needs exchangerate/],
    ['base with a rate', rent({ exchangerate: 1.1 }), 'invalid_request', '/exchangerate', /must be 1/],
    ['currency on write', { ...rent(), currency: 'CHF' }, 'invalid_currency', '/curr'],
    ['unknown currency', rent({ curr: 'XYZ', exchangerate: 1.2 }), 'invalid_currency', '/curr'],
    [
      'negative debit',
      rent({
        lines: [
          { account: '6000', debit: -100 },
          { account: '1020', debit: 100 },
        ],
      }),
      'invalid_request',
      '/lines/0/debit',
    ],
    ['one line', rent({ lines: [{ account: '6000', debit: 100 }] }), 'invalid_request', '/lines'],
    ['no transdate', { lines: rent().lines }, 'invalid_request', '/transdate'],
    [
      'a Swiss date',
      rent({ transdate: '28.11.2026' }),
      'invalid_request',
      '/transdate',
      /^Field "transdate" must be a date as YYYY-MM-DD, e\.g\. 2026-11-28\.$/,
    ],
    ['unknown field', rent({ amount: 5 }), 'invalid_request', '/amount'],
    ['bad file', rent({ files: [{ name: 'x', data: 'hello' }] }), 'invalid_request', '/files/0/data'],
    ['bad pending', rent({ pending: '1' }), 'invalid_request', '/pending'],
    [
      'reference with a line break',
      rent({ reference: 'JE-1\r\nBcc: x' }),
      'invalid_request',
      '/reference',
      /must not contain control characters/,
    ],
    [
      'reference with a C1 control',
      rent({ reference: 'JE-1\u0085' }),
      'invalid_request',
      '/reference',
      /control characters/,
    ],
  ];
  for (const [name, body, code, field, message] of cases) {
    const r = await s.api('POST', '/gl/transactions', body);
    t.equal(r.status, 400, `${name}: 400`);
    t.equal(r.body.error?.code, code, `${name}: ${code}`);
    t.equal(r.body.error?.field, field, `${name}: field ${field}`);
    if (message) t.match(r.body.error?.message, message, `${name}: message`);
  }
  const count = await s.q((tx) => tx('gl_transactions').count({ n: '*' }).first());
  t.equal(Number(count?.n), 0, 'nothing written');
  const draft = await s.api('POST', '/gl/transactions', rent());
  const bad = await s.api(
    'POST',
    `/gl/transactions/${draft.body.id}`,
    rent({
      lines: [
        { account: '6000', debit: 1 },
        { account: '1020', credit: 2 },
      ],
    }),
  );
  t.equal(bad.body.error?.code, 'unbalanced', 'the update checks the same rules');
  t.equal((await s.api('GET', `/gl/transactions/${draft.body.id}`)).body.totalDebit, 1500, 'the draft is unchanged');
});

t.test('references: own ones must be free; the sequence skips references taken by hand', async (t) => {
  const s = await setup(t);
  t.equal((await s.api('POST', '/gl/transactions', rent({ reference: 'GL-000002' }))).status, 201);
  const dup = await s.api('POST', '/gl/transactions', rent({ reference: 'GL-000002' }));
  t.equal(dup.status, 409);
  t.equal(dup.body.error.field, '/reference');
  const a = await s.api('POST', '/gl/transactions', rent());
  const b = await s.api('POST', '/gl/transactions', rent());
  t.equal((await s.api('GET', `/gl/transactions/${a.body.id}`)).body.reference, 'GL-000001');
  t.equal((await s.api('GET', `/gl/transactions/${b.body.id}`)).body.reference, 'GL-000003', 'GL-000002 was taken');
  const taken = await s.api('POST', `/gl/transactions/${b.body.id}`, rent({ reference: 'GL-000002' }));
  t.equal(taken.status, 409, 'an update to a taken reference');
  const renamed = await s.api('POST', `/gl/transactions/${b.body.id}`, rent({ reference: 'JE-2024-1' }));
  t.equal(renamed.body.reference, 'JE-2024-1');
  // slashes and backslashes are a number's own ("2024/03")
  for (const reference of ['2024/03', 'JE\\1']) {
    const r = await s.api('POST', '/gl/transactions', rent({ reference }));
    t.equal(r.status, 201, `${reference}: ${JSON.stringify(r.body)}`);
    t.equal((await s.api('GET', `/gl/transactions/${r.body.id}`)).body.reference, reference, `${reference} kept`);
  }
});

t.test('foreign currency: base = round(fx × rate), the largest line takes the rounding difference', async (t) => {
  const s = await setup(t);
  const r = await s.api('POST', '/gl/transactions', {
    transdate: '2024-05-02',
    curr: 'EUR',
    exchangerate: 0.93337,
    pending: '0',
    lines: [
      { account: '6000', debit: 10.01 },
      { account: '6100', debit: 10.01 },
      { account: '6200', debit: 10.01 },
      { account: '1020', credit: 30.03 },
    ],
  });
  t.equal(r.status, 201, JSON.stringify(r.body));
  const e = (await s.api('GET', `/gl/transactions/${r.body.id}`)).body;
  t.equal(e.currency, 'EUR');
  t.equal(e.exchangerate, 0.93337);
  // 10.01 × 0.93337 = 9.3430… → 9.34 (three times: 28.02); 30.03 × 0.93337 = 28.0291… → 28.03; the credit line takes
  // −0.01
  t.same(
    e.lines.map((l: { debit: number; credit: number; baseDebit: number; baseCredit: number }) => [
      l.debit,
      l.credit,
      l.baseDebit,
      l.baseCredit,
    ]),
    [
      [10.01, 0, 9.34, 0],
      [10.01, 0, 9.34, 0],
      [10.01, 0, 9.34, 0],
      [0, 30.03, 0, 28.02],
    ],
  );
  t.equal(e.baseTotalDebit, 28.02);
  const lines = await s.entries(r.body.id);
  t.same(
    lines.map((l) => [l.accno, l.amount, l.fx_amount, l.currency]),
    [
      ['6000', '9.340000', '10.010000', 'EUR'],
      ['6100', '9.340000', '10.010000', 'EUR'],
      ['6200', '9.340000', '10.010000', 'EUR'],
      ['1020', '-28.020000', '-30.030000', 'EUR'],
    ],
  );
  t.ok(isZero(await s.sumOf(r.body.id)), 'balances exactly in the base currency');
});

t.test('closed period: create, update, delete and reverse dates are checked (422 closed_period)', async (t) => {
  const s = await setup(t);
  const draft = await s.api('POST', '/gl/transactions', rent({ transdate: '2024-01-20' }));
  const posted = await s.api('POST', '/gl/transactions', rent({ transdate: '2024-01-25', pending: '0' }));
  t.equal((await s.api('POST', '/system/close_books', { date: '2024-01-31' })).status, 200);
  const create = await s.api('POST', '/gl/transactions', rent({ transdate: '2024-01-31' }));
  t.equal(create.status, 422);
  t.equal(create.body.error.code, 'closed_period');
  t.equal(create.body.error.field, '/transdate');
  t.equal(
    (await s.api('POST', `/gl/transactions/${draft.body.id}`, rent({ transdate: '2024-02-10' }))).status,
    422,
    'a draft dated in the closed period stays',
  );
  t.equal((await s.api('DELETE', `/gl/transactions/${draft.body.id}`)).status, 422);
  const rev = await s.api('POST', `/gl/transactions/${posted.body.id}/reverse`, { date: '2024-01-31' });
  t.equal(rev.status, 422);
  t.equal(rev.body.error.field, '/date');
  t.equal(
    (await s.api('POST', `/gl/transactions/${posted.body.id}/reverse`, { date: '2024-02-01' })).status,
    201,
    'reversed in an open period',
  );
  t.equal((await s.api('POST', '/gl/transactions', rent({ transdate: '2024-02-01' }))).status, 201);
});

t.test('reverse: the mirror entry nets every account to zero; only posted originals, once', async (t) => {
  const s = await setup(t);
  const original = await s.api('POST', '/gl/transactions', {
    transdate: '2024-06-10',
    curr: 'EUR',
    exchangerate: 0.95,
    pending: '0',
    reference: 'JE-FX',
    lines: [
      { account: '6000', debit: 100.01 },
      { account: '6100', debit: 0.03 },
      { account: '1020', credit: 100.04 },
    ],
  });
  t.equal(original.status, 201);
  const before = await s.api('POST', `/gl/transactions/${original.body.id}/reverse`, { date: '2024-06-09' });
  t.equal(before.status, 400, 'not before the original date');
  t.equal(before.body.error.field, '/date');

  const rev = await s.api('POST', `/gl/transactions/${original.body.id}/reverse`, {
    date: '2024-06-30',
    description: 'wrong month',
  });
  t.equal(rev.status, 201, JSON.stringify(rev.body));
  const o = (await s.api('GET', `/gl/transactions/${original.body.id}`)).body;
  const r = (await s.api('GET', `/gl/transactions/${rev.body.id}`)).body;
  t.equal(o.status, 'reversed');
  t.equal(o.reversedBy, rev.body.id);
  t.equal(r.status, 'posted');
  t.equal(r.reversalOf, original.body.id);
  t.equal(r.transdate, '2024-06-30');
  t.equal(r.description, 'wrong month');
  t.equal(r.currency, 'EUR');
  t.same(
    r.lines.map((l: { account: string; debit: number; credit: number; baseDebit: number; baseCredit: number }) => [
      l.account,
      l.debit,
      l.credit,
      l.baseDebit,
      l.baseCredit,
    ]),
    o.lines.map((l: { account: string; debit: number; credit: number; baseDebit: number; baseCredit: number }) => [
      l.account,
      l.credit,
      l.debit,
      l.baseCredit,
      l.baseDebit,
    ]),
    'sides swapped',
  );
  const perAccount = await s.q(
    async (tx) =>
      (await tx('ledger_entries')
        .whereIn('journal_id', [original.body.id, rev.body.id])
        .groupBy('account_id')
        .select(tx.raw('sum(amount)::text as s'), tx.raw('sum(fx_amount)::text as f'))) as { s: string; f: string }[],
  );
  t.equal(perAccount.length, 3);
  t.ok(
    perAccount.every((a) => isZero(a.s) && isZero(a.f)),
    'each account nets to zero in both currencies',
  );

  t.equal((await s.api('POST', `/gl/transactions/${original.body.id}/reverse`, {})).status, 409, 'reversed twice');
  t.equal(
    (await s.api('POST', `/gl/transactions/${rev.body.id}/reverse`, {})).status,
    409,
    'a reversal is not reversed',
  );
  const draft = await s.api('POST', '/gl/transactions', rent());
  const d = await s.api('POST', `/gl/transactions/${draft.body.id}/reverse`);
  t.equal(d.status, 409, 'a draft is not reversed (no body at all is fine)');
  t.equal((await s.api('POST', `/gl/transactions/${rev.body.id}`, rent())).status, 409, 'a reversal is not changed');
  t.same(await s.audit(original.body.id), ['create_posted', 'reverse']);
  t.same(await s.audit(rev.body.id), ['create_reversal']);
  const today = new Date().toISOString().slice(0, 10);
  const other = await s.api('POST', '/gl/transactions', rent({ pending: '0' }));
  const dflt = await s.api('POST', `/gl/transactions/${other.body.id}/reverse`, {});
  t.equal((await s.api('GET', `/gl/transactions/${dflt.body.id}`)).body.transdate, today, 'dated today by default');
});

t.test('files: data URIs and multipart, download, no duplicates when the entry is sent back', async (t) => {
  const s = await setup(t);
  const base = `${s.ledger.url}/client/${s.co.dataset}`;
  const headers = { 'X-API-Key': s.co.apiKey };
  const pdf = Buffer.from('%PDF-1.4\n% receipt\n');
  const file = { name: 'receipt.pdf', data: `data:application/pdf;base64,${pdf.toString('base64')}` };
  const created = await s.api('POST', '/gl/transactions', rent({ files: [file] }));
  t.equal(created.status, 201);
  const e = (await s.api('GET', `/gl/transactions/${created.body.id}`)).body;
  t.equal(e.files.length, 1);
  t.match(e.files[0], {
    name: 'receipt.pdf',
    mediaType: 'application/pdf',
    size: pdf.length,
    url: `${base}/gl/transactions/${created.body.id}/files/${e.files[0].id}`,
  });
  const download = await fetch(e.files[0].url, { headers });
  t.equal(download.status, 200);
  t.equal(download.headers.get('content-type'), 'application/pdf');
  t.match(download.headers.get('content-disposition'), /attachment; filename="receipt.pdf"/);
  t.same(Buffer.from(await download.arrayBuffer()), pdf);
  t.equal((await fetch(`${base}/gl/transactions/${created.body.id}/files/999999`, { headers })).status, 404);

  const resent = await s.api(
    'POST',
    `/gl/transactions/${created.body.id}`,
    rent({ files: [file, { name: 'note.txt', data: 'data:text/plain;base64,aGVsbG8=' }] }),
  );
  t.same(
    resent.body.files.map((f: { name: string }) => f.name),
    ['receipt.pdf', 'note.txt'],
    'the same file is not attached twice',
  );

  const form = new FormData();
  form.append('entry', JSON.stringify(rent({ pending: '0' })));
  form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'scan.pdf');
  const multi = await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: form });
  const multiBody = await multi.json();
  t.equal(multi.status, 201, JSON.stringify(multiBody));
  const m = (await s.api('GET', `/gl/transactions/${multiBody.id}`)).body;
  t.equal(m.status, 'posted');
  t.same(
    m.files.map((f: { name: string; size: number }) => [f.name, f.size]),
    [['scan.pdf', pdf.length]],
  );
  const other = await fetch(`${base}/gl/transactions/${multiBody.id}/files/${e.files[0].id}`, { headers });
  t.equal(other.status, 404, "another entry's file");

  // the part's former name, shared with AR/AP transactions, is still read (as is "json"), on create and update
  for (const alias of ['transaction', 'json']) {
    const old = new FormData();
    old.append(alias, JSON.stringify(rent({ description: `via ${alias}` })));
    old.append('files', new Blob([`${alias} note`], { type: 'text/plain' }), `${alias}.txt`);
    const created = await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: old });
    const createdBody = await created.json();
    t.equal(created.status, 201, `part "${alias}": ${JSON.stringify(createdBody)}`);
    const read = (await s.api('GET', `/gl/transactions/${createdBody.id}`)).body;
    t.equal(read.description, `via ${alias}`);
    t.same(
      read.files.map((f: { name: string; mediaType: string }) => [f.name, f.mediaType]),
      [[`${alias}.txt`, 'text/plain']],
    );
    const update = new FormData();
    update.append(alias, JSON.stringify(rent({ description: `updated via ${alias}` })));
    const updated = await fetch(`${base}/gl/transactions/${createdBody.id}`, { method: 'POST', headers, body: update });
    t.equal(updated.status, 200, `update with part "${alias}"`);
    t.equal((await updated.json()).description, `updated via ${alias}`);
  }

  // one JSON part per request: "entry" beside its former name is refused, nothing written
  const count = async () => Number((await s.q((tx) => tx('gl_transactions').count({ n: '*' }).first()))?.n ?? 0);
  const before = await count();
  const both = new FormData();
  both.append('entry', JSON.stringify(rent()));
  both.append('transaction', JSON.stringify(rent()));
  const twice = await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: both });
  const twiceBody = await twice.json();
  t.equal(twice.status, 400, JSON.stringify(twiceBody));
  t.equal(twiceBody.error.code, 'invalid_request');
  t.match(twiceBody.error.message, /one part.*"entry".*"transaction"/);
  const repeated = new FormData();
  repeated.append('entry', JSON.stringify(rent()));
  repeated.append('entry', JSON.stringify(rent()));
  t.equal((await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: repeated })).status, 400);
  const none = new FormData();
  none.append('files', new Blob([pdf], { type: 'application/pdf' }), 'scan.pdf');
  const missing = await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: none });
  const missingBody = await missing.json();
  t.equal(missing.status, 400);
  t.equal(missingBody.error.field, '/entry', 'a missing JSON part is named by its name');
  const unknown = new FormData();
  unknown.append('entry', JSON.stringify(rent()));
  unknown.append('attachment', new Blob([pdf], { type: 'application/pdf' }), 'scan.pdf');
  const stray = await fetch(`${base}/gl/transactions`, { method: 'POST', headers, body: unknown });
  const strayBody = await stray.json();
  t.equal(stray.status, 400);
  t.match(strayBody.error.message, /Unknown multipart part "attachment": send the JSON as "entry"/);
  t.equal(await count(), before, 'no refused request wrote');
  const big = await s.api(
    'POST',
    '/gl/transactions',
    rent({
      files: [
        { name: 'big.bin', data: `data:application/octet-stream;base64,${Buffer.alloc(5000).toString('base64')}` },
      ],
    }),
  );
  t.equal(big.status, 413, 'over the file limit');
});

t.test('list: filters, order, paging headers', async (t) => {
  const s = await setup(t);
  for (const [date, ref, post] of [
    ['2024-02-01', 'A-1', true],
    ['2024-01-15', 'A-2', false],
    ['2024-03-01', 'A-3', true],
    ['2024-02-20', 'A-4', true],
  ] as const) {
    await s.api(
      'POST',
      '/gl/transactions',
      rent({ transdate: date, reference: ref, ...(post ? { pending: '0' } : {}) }),
    );
  }
  const all = await s.api('GET', '/gl/transactions');
  t.same(
    all.body.map((r: { reference: string }) => r.reference),
    ['A-2', 'A-1', 'A-4', 'A-3'],
    'by transdate',
  );
  t.equal(all.headers.get('x-total-count'), '4');
  t.match(all.body[0], {
    reference: 'A-2',
    transdate: '2024-01-15',
    status: 'draft',
    totalDebit: 1500,
    baseTotalDebit: 1500,
    closing: false,
  });
  t.notOk('lines' in all.body[0], 'rows carry no lines');
  const range = await s.api('GET', '/gl/transactions?from=2024-02-01&to=2024-02-29');
  t.same(
    range.body.map((r: { reference: string }) => r.reference),
    ['A-1', 'A-4'],
  );
  t.same(
    (await s.api('GET', '/gl/transactions?reference=A-3')).body.map((r: { reference: string }) => r.reference),
    ['A-3'],
  );
  t.same(
    (await s.api('GET', '/gl/transactions?status=draft')).body.map((r: { reference: string }) => r.reference),
    ['A-2'],
  );
  const page = await s.api('GET', '/gl/transactions?sort=-transdate&limit=2&offset=1');
  t.same(
    page.body.map((r: { reference: string }) => r.reference),
    ['A-4', 'A-1'],
  );
  t.match(page.headers.get('link'), /offset=3.*rel="next".*offset=0.*rel="prev"/);
  t.equal((await s.api('GET', '/gl/transactions?status=open')).status, 400);
});

t.test('permissions: accountants write, clerks and viewers only read', async (t) => {
  const s = await setup(t);
  for (const role of ['clerk', 'viewer'] as const) {
    const m = await s.co.addMember(role);
    const api = apiClient(s.ledger.url, s.co.dataset, m.apiKey);
    const r = await api('POST', '/gl/transactions', rent());
    t.equal(r.status, 403, `${role} cannot write`);
    t.match(r.body.error.message, /gl\.add_journal_entry/);
    t.equal((await api('GET', '/gl/transactions')).status, 200, `${role} reads`);
    t.equal((await api('GET', '/gl/ledger?account=1020')).status, 200, `${role} reads the ledger`);
  }
  const accountant = await s.co.addMember('accountant');
  const api = apiClient(s.ledger.url, s.co.dataset, accountant.apiKey);
  const created = await api('POST', '/gl/transactions', rent({ pending: '0' }));
  t.equal(created.status, 201);
  t.equal((await api('POST', `/gl/transactions/${created.body.id}/reverse`, {})).status, 201);
});
