/**
 * sqlLiteral writes what pg's escapeLiteral writes, and Postgres reads each literal back as the
 * text it was made from, with standard_conforming_strings on and off.
 */
import t from 'tap';
import pg from 'pg';
import { sqlLiteral } from './sqlLiteral.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

const PIECES = [
  "'",
  "''",
  '\\',
  '\\\\',
  "\\'",
  'a',
  'Zürich',
  '2024/117',
  '{"a":"b\\"c"}',
  '€',
  '😀',
  ' ',
  '\n',
  'E',
  '$$',
];

/** texts made of the pieces above, every length up to four, plus a few of JSON's size */
function samples(): string[] {
  const out = ['', ...PIECES];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let i = 0; i < 400; i++) {
    const n = 1 + (next() % 6);
    out.push(Array.from({ length: n }, () => PIECES[next() % PIECES.length]).join(''));
  }
  out.push(
    JSON.stringify({ lines: Array.from({ length: 50 }, (_, i) => ({ memo: `it's line ${i}\\`, amount: '1.10' })) }),
  );
  return out;
}

const pgEscapeLiteral = (text: string) => new pg.Client().escapeLiteral(text);

t.test('the same literal as pg writes', async (t) => {
  for (const text of samples()) t.equal(sqlLiteral(text), pgEscapeLiteral(text), JSON.stringify(text));
});

t.test('Postgres reads the text back', async (t) => {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  t.teardown(() => client.end());
  const texts = samples();
  for (const conforming of ['on', 'off']) {
    await client.query(`set standard_conforming_strings = ${conforming}`);
    const values = texts.map((x, i) => `(${i}, ${sqlLiteral(x)}::text)`).join(', ');
    const { rows } = await client.query<{ v: string }>(`select v from (values ${values}) as s(i, v) order by i`);
    t.same(
      rows.map((r) => r.v),
      texts,
      `standard_conforming_strings ${conforming}`,
    );
  }
});
