/**
 * A posting's hot statements go as named prepared statements on a real Postgres (knex.ts
 * `preparedAs`), and one connection serves every company with that company's rows only: bills
 * and journal entries of two companies alternate on a single connection, past the five custom
 * plans after which Postgres may keep one generic plan, and each still reads its own parties
 * and accounts and numbers its own documents (row-level security is applied when a plan runs,
 * from the transaction's settings). A database opened without the option prepares nothing.
 */
import t from 'tap';
import { createDb, preparedAs } from './knex.ts';
import { startLedger } from '../server.ts';
import { apiClient, createTestCompany, TEST_DATABASE_URL, testConfig } from '../../test/helpers.ts';
import { rentEntry } from '../../test/fixtures/journal.ts';

t.test('one connection, two companies alternating: each its own rows, on prepared statements', async (t) => {
  const config = testConfig();
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1, preparedStatements: true });
  const running = await startLedger({ config, database: { db, url: TEST_DATABASE_URL, close: () => db.destroy() } });
  // a database passed in stays the caller's to close
  t.teardown(async () => {
    await running.close();
    await db.destroy();
  });
  const ledger = { ...running, config };

  const companies = await Promise.all(
    [0, 1].map(async () => {
      const co = await createTestCompany(ledger);
      const api = apiClient(ledger.url, co.dataset, co.apiKey);
      const vendor = await api('POST', '/arap/vendor', { name: `Supplier of ${co.dataset}` });
      return { api, vendorId: vendor.body.id as number };
    }),
  );
  const bill = (vendorId: number, n: number) => ({
    type: 'transaction',
    vendor_id: vendorId,
    invDate: '2024-03-15',
    documentNumber: `DOC-${n}`,
    pending: '0',
    lines: [{ account: '6500', amount: 100 + n, taxAccount: '1170' }],
  });

  for (let round = 1; round <= 8; round++) {
    for (const co of companies) {
      const created = await co.api('POST', '/arap/transaction/vendor', bill(co.vendorId, round));
      t.equal(created.status, 201, JSON.stringify(created.body));
      const got = await co.api('GET', `/arap/transaction/vendor/${created.body.id}`);
      t.equal(got.body.vendor_id, co.vendorId, `round ${round}: the company's own vendor`);
      const entry = await co.api('POST', '/gl/transactions', rentEntry({ pending: '0' }));
      t.equal(entry.status, 201, JSON.stringify(entry.body));
      const stored = await co.api('GET', `/gl/transactions/${entry.body.id}`);
      t.equal(
        stored.body.reference,
        `GL-${String(round).padStart(6, '0')}`,
        `round ${round}: the company's own numbers`,
      );
    }
  }
  // the other company's vendor is not found, on the same (by now generic) plan
  const [a, b] = companies as [(typeof companies)[0], (typeof companies)[0]];
  const foreign = await a.api('POST', '/arap/transaction/vendor', bill(b.vendorId, 99));
  t.equal(foreign.status, 400, JSON.stringify(foreign.body));
  t.equal(foreign.body.error.code, 'vc_not_found');

  const { rows } = await db.raw<{ rows: { statement: string; generic_plans: number; custom_plans: number }[] }>(
    `select statement, generic_plans, custom_plans from pg_prepared_statements where name like 'p\\_%'`,
  );
  const of = (fragment: string) => rows.find((r) => r.statement.includes(fragment));
  // the API-key lookup runs when a key is first read or has changed (kernel/auth.ts remembers keys), at least
  // once per company; the others once per posting
  for (const [what, fragment, runs] of [
    ['the API-key lookup', 'from api_keys k', 2],
    ['the bill snapshot', 'with acc as', 8],
    ['the bill write', 'insert into arap_transactions', 8],
    ['the events', 'insert into events', 8],
    ['the journal entry write', 'insert into gl_transactions', 8],
  ] as const) {
    const statement = of(fragment);
    t.ok(statement, `${what} is prepared`);
    if (statement) t.ok(statement.generic_plans + statement.custom_plans >= runs, `${what}: run as prepared`);
  }
  t.ok(
    rows.some((r) => r.generic_plans > 0),
    `Postgres keeps generic plans (${rows.map((r) => `${r.generic_plans}/${r.custom_plans}`).join(', ')})`,
  );
});

t.test('a database opened without the option names no statement', async (t) => {
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());
  t.same(preparedAs(db, 'select 1'), {});
  const prepared = createDb(TEST_DATABASE_URL, { preparedStatements: true });
  t.teardown(() => prepared.destroy());
  t.match(preparedAs(prepared, 'select 1'), { name: /^p_[0-9a-f]{24}$/ });
  t.not(preparedAs(prepared, 'select 1').name, preparedAs(prepared, 'select 2').name, 'one name per text');
});
