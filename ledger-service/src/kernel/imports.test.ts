import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph, moduleViolations, type ImportGraph } from '../../test/support/importGraph.ts';
import { MODULE_ORDER } from '../modules/order.ts';

/**
 * The layering of docs/architecture.md, checked on the source text: no import cycles (type-only
 * imports count, they are how the old app.ts ↔ routes cycle hid), no HTTP below the routes, and the
 * module rule: another module only through its face, only down the order of modules/order.ts.
 */
const SRC = fileURLToPath(new URL('..', import.meta.url));
const imports = importGraph(SRC);
const graph = imports.files;
const { local, name } = imports;
const modulesOnDisk = readdirSync(new URL('../modules/', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

t.test('no import cycles in ledger-service/src, type-only imports included', async (t) => {
  t.same(importCycles(imports), []);
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

t.test('no SQL in services: a service.ts builds no query (no tx(…), trx(…), db(…), knex(…) or .raw(…))', async (t) => {
  // Queries live in the module's store.ts / reads.ts (docs/architecture.md); a service passes the
  // transaction on. Comments are dropped first, so a sentence naming tx( does not count.
  const query = /\b(tx|trx|db|knex)\s*\(|\.raw\s*\(/;
  const services = [...graph.keys()].filter((file) => /^modules\/[^/]+\/service\.ts$/.test(name(file)));
  t.ok(services.length > 10, `${services.length} services checked`);
  const offending: string[] = [];
  for (const file of services) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    code.split('\n').forEach((line) => {
      if (query.test(line)) offending.push(`${name(file)}: ${line.trim()}`);
    });
  }
  t.same(offending, []);
  t.ok(
    query.test("  .tx('arap_transactions')") && query.test('await c.tx.raw(`select 1`)'),
    'the pattern sees a query',
  );
  t.notOk(query.test('await lockHeader(c.tx, id)') || query.test('withTx(db, fn)'), 'and not a transaction passed on');
});

t.test('a module imports another only through its face and only down the declared order', async (t) => {
  t.same(moduleViolations(imports, MODULE_ORDER), []);
  t.same([...MODULE_ORDER].sort(), modulesOnDisk, 'every module folder is declared once, and nothing else');
});

t.test('the module rule fails on violations (a synthetic graph)', async (t) => {
  // a: the lowest, b above it; b reaches a's internals, a imports b (upwards), c is undeclared and has no face
  const files = new Map<string, string[]>([
    ['/src/modules/a/index.ts', ['./service.ts']],
    ['/src/modules/a/service.ts', ['../b/index.ts', '../../db/knex.ts']],
    ['/src/modules/b/index.ts', ['./service.ts']],
    ['/src/modules/b/service.ts', ['../a/store.ts', '../a/index.ts', './store.ts', '../serviceContext.ts']],
    ['/src/modules/c/service.ts', ['../a/index.ts']],
    ['/src/modules/index.ts', ['./b/service.ts']],
  ]);
  const synthetic: ImportGraph = {
    files,
    local: (file, spec) => (spec.startsWith('.') ? posix.resolve(posix.dirname(file), spec) : undefined),
    name: (file) => posix.relative('/src', file),
  };
  t.same(moduleViolations(synthetic, ['a', 'b']).sort(), [
    'modules/a/service.ts imports modules/b/index.ts: against the declared order (b does not come before a)',
    'modules/b/service.ts imports modules/a/store.ts: not through the face modules/a/index.ts',
    'modules/c has no face (index.ts)',
    'modules/c is not in the declared module order',
  ]);
  t.same(
    moduleViolations(synthetic, ['a', 'b', 'c']).filter((v) => v.startsWith('modules/c ')),
    ['modules/c has no face (index.ts)'],
    'declaring c leaves its missing face',
  );
});
