/**
 * insertJsonRows against a real Postgres: rows of a JSON document land typed, with the columns
 * every row shares, beyond the 65,535 parameters one statement may bind; a name that is not a
 * plain SQL name is refused before any SQL is built. A temporary table in a transaction that is
 * rolled back, so nothing stays in the shared test database.
 */
import t from 'tap';
import { createDb } from './knex.ts';
import { insertJsonRows } from './jsonRows.ts';

// as test/helpers.ts names it; not imported from there, which loads the whole ledger
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

t.test('rows from one JSON document, shared columns set once, past the parameter limit', async (t) => {
  const db = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => db.destroy());
  const tx = await db.transaction();
  try {
    await tx.raw('create temp table json_rows_probe (owner int, position int, amount numeric, note text)');
    const rows = Array.from({ length: 70_000 }, (_, i) => ({
      position: i + 1,
      amount: i === 0 ? '0.1' : '12345678901234.000001',
      note: i === 1 ? null : `row ${i + 1}`,
    }));
    const sql = insertJsonRows('json_rows_probe', { position: 'int', amount: 'numeric', note: 'text' }, { owner: '?' });
    await tx.raw(sql, [7, JSON.stringify(rows)]);
    const [summary] = (
      await tx.raw(`select count(*)::int as n, min(owner) as lo, max(owner) as hi, max(position) as last
        from json_rows_probe`)
    ).rows;
    t.same(summary, { n: 70_000, lo: 7, hi: 7, last: 70_000 }, 'every row, each with the shared owner');
    const firstTwo = (
      await tx.raw('select position, amount::text, note from json_rows_probe where position <= 2 order by position')
    ).rows;
    t.same(
      firstTwo,
      [
        { position: 1, amount: '0.1', note: 'row 1' },
        { position: 2, amount: '12345678901234.000001', note: null },
      ],
      'exact decimals and nulls as sent',
    );
  } finally {
    await tx.rollback();
  }
});

t.test('names are checked', async (t) => {
  t.throws(() => insertJsonRows('probe; drop table x', { a: 'int' }), /not an SQL name: probe; drop table x/);
  t.throws(() => insertJsonRows('probe', { 'a, b': 'int' }), /not an SQL name: a, b/);
  t.throws(() => insertJsonRows('probe', { a: 'int' }, { 'Owner"': '?' }), /not an SQL name: Owner"/);
  t.match(
    insertJsonRows('probe', { a: 'int' }, { owner: 'h.id' }, 'h'),
    /select h\.id, x\.a from h, jsonb_to_recordset/,
  );
});
