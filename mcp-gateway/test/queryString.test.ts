/**
 * A tool call's query string (src/mcp/tools/request.ts `queryString`) is written without
 * URLSearchParams when every name and value is plain, and must be the same bytes as
 * URLSearchParams writes for every input, plain or not, in the same order.
 */
import t from 'tap';
import { queryString } from '../src/mcp/tools/request.ts';

/** What the query was before: every field through URLSearchParams. */
function reference(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

const VALUES: unknown[] = [
  'Papeterie',
  '2024-03-20',
  12,
  -1.5,
  1e21,
  true,
  '',
  'a b',
  'a+b',
  'Pap%C3%A9',
  'Papéterie',
  "o'brien (x)!~*",
  'a&b=c',
  '\uD800',
  '😀',
  null,
  undefined,
  ['x', 1],
  { a: 'b c' },
  '*-._',
];

t.test('the same bytes as URLSearchParams, field by field and mixed', async (t) => {
  t.equal(queryString({}), '');
  t.equal(queryString({ name: 'Papeterie', limit: 20 }), '?name=Papeterie&limit=20');
  for (const a of VALUES) {
    for (const b of VALUES) {
      for (const fields of [{ name: a, limit: b }, { q: a }, { 'we ird': a, x: b, '': a }, { 2: a, b, 1: 'x' }]) {
        t.equal(queryString(fields), reference(fields), JSON.stringify(fields));
      }
    }
  }
});
