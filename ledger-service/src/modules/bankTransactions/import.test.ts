import t from 'tap';
import { apiClient } from '../../../test/helpers.ts';
import { fixture } from '../../../test/fixtures/bank/support.ts';
import { bankSetup, COMPANY_IBAN } from '../../../test/fixtures/bank/setup.ts';

t.test('camt.053 import: transactions kept, balances checked, a second import imports nothing', async (t) => {
  const s = await bankSetup(t);
  const first = await s.send(fixture('camt.053.001.08.xml'));
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.same(first.body, {
    imported: 7,
    duplicates: 0,
    matched: 0,
    balanced: true,
    statements: [
      {
        source: 'camt.053',
        statement: 'STMT-2024-03',
        account_id: s.bankAccountId,
        entries: 7,
        skipped: 0,
        opening: 10000,
        closing: 8779.3,
        entries_total: -1220.7,
        balanced: true,
        message: null,
      },
    ],
  });
  const again = await s.send(fixture('camt.053.001.08.xml'));
  t.match(again.body, { imported: 0, duplicates: 7, matched: 0 }, 'the same file again');
  const older = await s.send(fixture('camt.053.001.04.xml'));
  t.match(older.body, { imported: 0, duplicates: 7 }, 'the same statement in .001.04: the same bank references');
  t.equal(await s.count('bank_transactions'), 7);

  const list = await s.api('GET', '/bank/transactions');
  t.equal(list.status, 200);
  t.equal(list.headers.get('x-total-count'), '7');
  t.same(
    list.body.map((b: { amount: number }) => b.amount),
    [1234.5, 100, 150, 50, -2000, 200, -955.2],
    'by date, then id',
  );
  t.same(list.body[0], {
    id: list.body[0].id,
    account_id: s.bankAccountId,
    date: '2024-03-05',
    value_date: '2024-03-05',
    amount: 1234.5,
    currency: 'CHF',
    counterparty: 'Muster AG',
    iban: 'CH5604835012345678009',
    reference: '210000000003139471430009017',
    end_to_end_id: null,
    text: 'QR-bill payment',
    bank_reference: 'CH-20240305-0001',
    reversal: false,
    source: 'camt.053',
    status: 'unmatched',
    document: null,
    payment_id: null,
    account: null,
    journal_id: null,
    rule_id: null,
    reconciled_on: null,
    proposals: [],
  });
  t.same(
    (await s.api('GET', `/bank/transactions/${list.body[5].id}`)).body,
    list.body[5],
    'one transaction reads as in the list',
  );
  t.equal(list.body[5].reversal, true);

  const filtered = async (query: string) =>
    (await s.api('GET', `/bank/transactions?${query}`)).body.map((b: { amount: number }) => b.amount);
  t.same(await filtered('from=2024-03-11&to=2024-03-15'), [100, 150, 50, -2000]);
  t.same(await filtered('counterparty=müller'), [-2000], 'part of the name, any case');
  t.same(await filtered('counterparty=%25'), [], 'a % is a character, not a pattern');
  t.same(await filtered('amount=-955.2'), [-955.2]);
  t.same(await filtered('amount=955.2'), [], 'the signed amount');
  t.same(await filtered(`account=${s.bankAccountId}&status=unmatched&sort=-date&limit=2`), [-955.2, 200]);
  t.same(await filtered('status=booked'), []);
  t.same(await filtered('account=999999'), []);
  const page = await s.api('GET', '/bank/transactions?limit=3&offset=3');
  t.match(page.headers.get('link'), /rel="next".*rel="prev"/);
  t.equal((await s.api('GET', '/bank/transactions?status=open')).status, 400);
  t.equal((await s.api('GET', '/bank/transactions/999999')).status, 404);

  const audit = await s.api('GET', '/system/audit?entity=bank_import');
  t.equal(audit.body.length, 3, 'every import is audited');
  t.match(audit.body[2].details, { imported: 7, duplicates: 0, matched: 0 });
});

t.test('camt.054 and CSV: the account by QR-IBAN or ?account=', async (t) => {
  const s = await bankSetup(t);
  for (const file of ['camt.054.001.04.xml', 'camt.054.001.08.xml']) {
    const r = await s.send(fixture(file));
    t.equal(r.status, 200, JSON.stringify(r.body));
    t.match(r.body, file.endsWith('04.xml') ? { imported: 3, duplicates: 0 } : { imported: 0, duplicates: 3 }, file);
    t.same(
      r.body.statements.map((x: { balanced: unknown; account_id: number }) => [x.balanced, x.account_id]),
      [[null, s.bankAccountId]],
      'the QR-IBAN names the account; no balances to check',
    );
    t.equal(r.body.balanced, null);
  }
  const csv = fixture('transactions.csv');
  const noAccount = await s.send(csv, 'text/csv');
  t.equal(noAccount.status, 400);
  t.equal(noAccount.body.error.field, '/account');
  t.match(noAccount.body.error.message, /\?account=/);
  const imported = await s.send(csv, 'text/csv; charset=utf-8', `?account=${s.bankAccountId}`);
  t.equal(imported.status, 200, JSON.stringify(imported.body));
  t.match(imported.body, { imported: 4, duplicates: 0, balanced: null });
  t.match(
    (await s.send(csv, 'text/csv', `?account=${s.bankAccountId}`)).body,
    { imported: 0, duplicates: 4 },
    'identical rows stay two, once',
  );
  const latin1 = Buffer.from(
    'date,amount,currency,counterparty,iban,reference,description\n2024-06-01,10.00,CHF,Bäckerei,,,Brötchen\n',
    'latin1',
  );
  const res = await fetch(
    `${s.ledger.url}/client/${s.co.dataset}/bank/transactions/import?account=${s.bankAccountId}`,
    {
      method: 'POST',
      headers: { 'X-API-Key': s.co.apiKey, 'Content-Type': 'text/csv; charset=iso-8859-1' },
      body: latin1,
    },
  );
  t.equal(res.status, 200, 'a latin-1 CSV with its charset');
  t.equal((await s.api('GET', '/bank/transactions?counterparty=bäckerei&from=2024-06-01')).body[0].text, 'Brötchen');
  const notUtf8 = await fetch(
    `${s.ledger.url}/client/${s.co.dataset}/bank/transactions/import?account=${s.bankAccountId}`,
    {
      method: 'POST',
      headers: { 'X-API-Key': s.co.apiKey, 'Content-Type': 'text/csv' },
      body: latin1,
    },
  );
  t.equal(notUtf8.status, 400, 'latin-1 bytes declared as UTF-8');
  t.match(((await notUtf8.json()) as { error: { message: string } }).error.message, /not valid utf-8/);
});

t.test(
  'a semicolon-separated CSV (Swiss bank exports) imports like the comma one; tabs are refused by name',
  async (t) => {
    const s = await bankSetup(t);
    const account = `?account=${s.bankAccountId}`;
    const semicolons = await s.send(fixture('transactions-semicolon.csv'), 'text/csv', account);
    t.equal(semicolons.status, 200, JSON.stringify(semicolons.body));
    t.match(semicolons.body, { imported: 4, duplicates: 0 });
    const amounts = (await s.api('GET', '/bank/transactions?sort=date')).body.map((b: { amount: number }) => b.amount);
    t.same(amounts, [540, -89.9, -89.9, 1200], 'decimal comma and decimal point read alike');
    t.match(
      (await s.send(fixture('transactions.csv'), 'text/csv', account)).body,
      { imported: 0, duplicates: 4 },
      'the same transactions as the comma file',
    );

    const tabs = await s.send(
      `${fixture('transactions.csv').split('\n')[0]!.replaceAll(',', '\t')}\n2024-05-02\t1.00\tCHF\t\t\t\t\n`,
      'text/csv',
      account,
    );
    t.equal(tabs.status, 400);
    t.match(
      tabs.body.error.message,
      new RegExp(
        'The CSV file is not usable: the header row is separated by tabs; ' +
          'separate the columns with commas or semicolons\\.',
      ),
    );
    t.equal(await s.count('bank_transactions'), 4, 'nothing written');
  },
);

t.test('import refusals: 400 with a message and nothing written', async (t) => {
  const s = await bankSetup(t, { fileLimit: 64 * 1024 });
  const doc = fixture('camt.053.001.08.xml');
  const refused = async (
    body: string,
    status: number,
    message: RegExp,
    what: string,
    type = 'application/xml',
    query = '',
  ) => {
    const r = await s.send(body, type, query);
    t.equal(r.status, status, `${what}: ${status}`);
    t.match(r.body.error?.message, message, what);
    return r;
  };
  await refused(
    doc.replaceAll(COMPANY_IBAN, 'CH5604835012345678009'),
    400,
    /IBAN CH5604835012345678009 of the statement is not a bank account of the company/,
    'unknown IBAN',
  );
  await refused(doc.slice(0, 3000), 400, /malformed XML/, 'malformed XML');
  await refused(doc.replaceAll('camt.053.001.08', 'camt.052.001.08'), 400, /unknown message type/, 'camt.052');
  await refused(
    doc.replaceAll('<Ccy>CHF</Ccy>', '<Ccy>EUR</Ccy>'),
    400,
    /statement STMT-2024-03 is in EUR, but bank account \d+ \(CH9300762011623852957\) is in CHF/,
    'statement currency',
  );
  await refused(
    doc.replace('<Amt Ccy="CHF">955.20</Amt>', '<Amt Ccy="EUR">955.20</Amt>'),
    400,
    /is in EUR/,
    'an entry in another currency',
  );
  await refused(
    doc,
    400,
    /not for bank account 999999|No bank account with id 999999/,
    'unknown ?account',
    'application/xml',
    '?account=999999',
  );
  await refused(
    'date,amount,currency,counterparty,iban,reference,description\n2024-05-02,10,EUR,,,,\n',
    400,
    /in EUR/,
    'CSV in another currency',
    'text/csv',
    `?account=${s.bankAccountId}`,
  );
  await refused(
    JSON.stringify({ file: doc }),
    415,
    /Send the file as application\/xml or text\/xml or text\/csv/,
    'JSON',
    'application/json',
  );
  await refused('x', 415, /Unsupported Content-Type/, 'a PDF', 'application/pdf');
  await refused(doc.repeat(30), 413, /larger than allowed/, 'above the file limit');
  t.equal(await s.count('bank_transactions'), 0, 'nothing was written');
  t.equal(
    (await s.api('POST', '/bank/accounts', 'iban,name\n', { 'Content-Type': 'text/csv' })).status,
    415,
    'a CSV body where JSON is expected',
  );

  // a file with two statements: the second one's refusal keeps the first one out too
  const second = doc.slice(doc.indexOf('<Stmt>'), doc.indexOf('</Stmt>') + 7);
  const two = doc.replace('</Stmt>', `</Stmt>${second.replaceAll(COMPANY_IBAN, 'CH5604835012345678009')}`);
  await refused(two, 400, /CH5604835012345678009/, 'second statement for an unknown IBAN');
  t.equal(await s.count('bank_transactions'), 0);
});

t.test("import: who may; bank transactions are another company's business", async (t) => {
  const s = await bankSetup(t);
  for (const role of ['accountant', 'clerk', 'viewer'] as const) {
    const m = await s.co.addMember(role);
    const api = apiClient(s.ledger.url, s.co.dataset, m.apiKey);
    const r = await api('POST', '/bank/transactions/import', fixture('camt.054.001.08.xml'), {
      'Content-Type': 'application/xml',
    });
    if (role === 'accountant') t.equal(r.status, 200, 'accountants import');
    else {
      t.equal(r.status, 403, `${role} may not import`);
      t.match(r.body.error.message, 'bank.import');
    }
    t.equal((await api('GET', '/bank/transactions')).status, 200, `${role} reads`);
  }
  const other = await bankSetup(t);
  t.same((await other.api('GET', '/bank/transactions')).body, []);
  const mine = (await s.api('GET', '/bank/transactions')).body[0].id;
  t.equal((await other.api('GET', `/bank/transactions/${mine}`)).status, 404);
  t.equal((await other.api('POST', `/bank/transactions/${mine}/book`, { account: '6500' })).status, 404);
  const theirs = await other.send(fixture('camt.054.001.08.xml'));
  t.match(theirs.body, { imported: 3, duplicates: 0 }, 'the same file is new for another company');
});

t.test('two concurrent imports of one file write each transaction once', async (t) => {
  const s = await bankSetup(t);
  const xml = fixture('camt.053.001.08.xml');
  const results = await Promise.all([s.send(xml), s.send(xml), s.send(xml)]);
  t.same(
    results.map((r) => r.status),
    [200, 200, 200],
  );
  t.equal(
    results.reduce((n, r) => n + (r.body.imported as number), 0),
    7,
    'imported once in total',
  );
  t.equal(
    results.reduce((n, r) => n + (r.body.duplicates as number), 0),
    14,
  );
  t.equal(await s.count('bank_transactions'), 7);
});
