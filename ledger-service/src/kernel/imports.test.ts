import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layering of docs/architecture.md, checked on the source text: no import cycles (type-only
 * imports count, they are how the old app.ts ↔ routes cycle hid), and no HTTP below the routes.
 */
const SRC = resolve(fileURLToPath(new URL('..', import.meta.url)));

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const IMPORT = /(?:from|import)\s*\(?\s*'([^']+)'/g;
const graph = new Map(
  sourceFiles(SRC).map((file) => [file, [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]!)] as const),
);
const local = (file: string, spec: string) => (spec.startsWith('.') ? resolve(dirname(file), spec) : undefined);
const name = (file: string) => relative(SRC, file);

t.test('no import cycles in ledger-service/src, type-only imports included', async (t) => {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const spec of graph.get(file) ?? []) {
      const dep = local(file, spec);
      if (!dep) continue;
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].map(name).join(' → '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  t.same(cycles, []);
});

t.test('db/, domain/ and the services, stores, reads and rules of modules know no HTTP', async (t) => {
  const below = /^(db|domain)\/|^modules\/[^/]+\/(service|store|reads|rules|posting|tax|ruleContext|dataUri)\.ts$/;
  const offending: string[] = [];
  const checked = [...graph.keys()].filter((file) => below.test(name(file)));
  t.ok(checked.length > 20, `${checked.length} files checked`);
  for (const file of checked) {
    const specs = graph.get(file)!;
    for (const spec of specs) {
      const dep = local(file, spec);
      const http = dep ? name(dep).startsWith('kernel/') : /^(koa|@koa\/)/.test(spec);
      if (http) offending.push(`${name(file)} imports ${spec}`);
    }
  }
  t.same(offending, []);
});
