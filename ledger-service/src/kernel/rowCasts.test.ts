/**
 * Rows are typed, not cast: the SQL files of the modules (`store.ts`, `reads.ts`) name the
 * shape of what a query returns with knex's own type parameters (`tx<Row>('table')`,
 * `.first<Row | undefined>(…)`, `.select<Row[]>(…)`, `tx.raw<{ rows: Row[] }>(…)`) and hold at
 * most MAX_CASTS `as` casts in all (`as const` is no cast), each counted from the syntax tree
 * so a cast split over lines or wrapped in parentheses counts the same. A cast written to get
 * past the type checker is the place where a column renamed in a migration goes unnoticed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const MAX_CASTS = 20;

function sqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sqlFiles(path);
    return e.name === 'store.ts' || e.name === 'reads.ts' ? [path] : [];
  });
}

/** Every `x as T` (and `<T>x`) of a source text but `as const`, as `line: cast`. */
function castsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const')
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${line + 1}: as ${node.type.getText(source).replace(/\s+/g, ' ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

t.test(`the modules' store.ts and reads.ts hold at most ${MAX_CASTS} casts in all`, async (t) => {
  const files = sqlFiles(join(SRC, 'modules'));
  t.ok(files.length >= 20, `${files.length} store.ts/reads.ts files read`);
  const casts = files.flatMap((f) => castsIn(f, readFileSync(f, 'utf8')).map((c) => `${relative(SRC, f)}:${c}`));
  t.ok(casts.length <= MAX_CASTS, `${casts.length} casts (at most ${MAX_CASTS}):\n${casts.join('\n')}`);
});

t.test('the count sees a cast however it is written, and no typed row', async (t) => {
  const text = `
    const a = (await tx('x').first()) as Row | undefined;
    const b = (await tx('x')
      .select('id')) as
      | Row[]
      | undefined;
    const c = <Row>(await tx.raw('select 1'));
    const d = ['a', 'b'] as const;
    const e = await tx<Row>('x').first();
    const f = await tx('x').select<Row[]>('id');
    const g = await tx.raw<{ rows: Row[] }>('select 1');`;
  t.same(
    castsIn('sample.ts', text).map((c) => c.replace(/^\d+: /, '')),
    ['as Row | undefined', 'as | Row[] | undefined', 'as Row'],
    'three casts; `as const` and the type parameters are none',
  );
});
