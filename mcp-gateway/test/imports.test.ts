import t from 'tap';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph, type ImportGraph } from '../../ledger-service/test/support/importGraph.ts';

/**
 * The gateway's source graph, checked on the source text: no import cycles between files,
 * type-only imports included (a type-only cycle still ties two files' meaning together and
 * turns into a runtime cycle at the first value import), and the folder order of
 * docs/architecture.md "The gateway": a folder (or a file directly in src/) imports only
 * from itself and from what comes before it here, so no two folders import each other.
 */
const imports = importGraph(fileURLToPath(new URL('../src', import.meta.url)));

/** Lowest first. A file directly in src/ is a unit of its own; a folder is one with all below it. */
export const GATEWAY_ORDER = [
  'config.ts',
  'requestContext.ts',
  'logger.ts',
  'limits.ts',
  'metrics.ts',
  'keys.ts',
  'ledgerTarget.ts',
  'wholeResponse.ts',
  'ledgerClient.ts',
  'db/',
  'http/',
  'oauth/',
  'deps.ts',
  'pages/',
  'mcp/',
  'origin/',
  'server.ts',
  'cli.ts',
  'index.ts',
] as const;

/** The unit of a file: its top folder (`oauth/`) or, directly in src/, its name. */
function unitOf(graph: ImportGraph, file: string): string {
  const name = graph.name(file).split('\\').join('/');
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(0, slash + 1);
}

/**
 * One line per import that goes up (or sideways to an undeclared unit) in `order`; a folder
 * cycle always has one such edge, so none means no folder imports another that imports it back.
 */
export function folderViolations(graph: ImportGraph, order: readonly string[]): string[] {
  const rank = new Map(order.map((u, i) => [u, i]));
  const out: string[] = [];
  for (const [file, specs] of graph.files) {
    const from = unitOf(graph, file);
    if (!rank.has(from)) {
      out.push(`${graph.name(file)}: ${from} is not in the declared order`);
      continue;
    }
    for (const spec of specs) {
      const dep = graph.local(file, spec);
      if (!dep) continue;
      const to = unitOf(graph, dep);
      if (to === from) continue;
      if (!rank.has(to)) out.push(`${graph.name(file)} imports ${spec}: ${to} is not in the declared order`);
      else if (rank.get(to)! > rank.get(from)!)
        out.push(`${graph.name(file)} imports ${spec}: ${from} may not import ${to}, which comes after it`);
    }
  }
  return out;
}

t.test('no import cycles in mcp-gateway/src, type-only imports included', async (t) => {
  t.ok(imports.files.size > 40, `${imports.files.size} files read`);
  t.same(importCycles(imports), []);
});

t.test('every folder imports only down the declared order (no folder cycles)', async (t) => {
  t.same(folderViolations(imports, GATEWAY_ORDER), []);
  const units = new Set([...imports.files.keys()].map((f) => unitOf(imports, f)));
  t.same([...units].sort(), [...GATEWAY_ORDER].sort(), 'every folder and top file is declared once, and nothing else');
});

t.test('the folder order fails on violations (a synthetic graph)', async (t) => {
  // oauth ↔ http as it was: http/app.ts mounts the oauth routers, oauth/authorize.ts uses http's body parser
  const files = new Map<string, string[]>([
    ['/src/http/app.ts', ['../oauth/authorize.ts', './bodyParser.ts']],
    ['/src/http/bodyParser.ts', []],
    ['/src/oauth/authorize.ts', ['../http/bodyParser.ts', '../deps.ts', './session.ts']],
    ['/src/oauth/session.ts', []],
    ['/src/deps.ts', ['./oauth/session.ts']],
    ['/src/stray/x.ts', ['../deps.ts']],
  ]);
  const graph: ImportGraph = {
    files,
    local: (file, spec) => (spec.startsWith('.') ? new URL(spec, `file://${file}`).pathname : undefined),
    name: (file) => file.replace(/^\/src\//, ''),
  };
  t.same(
    folderViolations(graph, ['http/', 'oauth/', 'deps.ts']),
    [
      'http/app.ts imports ../oauth/authorize.ts: http/ may not import oauth/, which comes after it',
      'oauth/authorize.ts imports ../deps.ts: oauth/ may not import deps.ts, which comes after it',
      'stray/x.ts: stray/ is not in the declared order',
    ],
    'the upward edge of each folder cycle, and the undeclared folder',
  );
  t.same(
    folderViolations(graph, ['oauth/', 'deps.ts', 'http/', 'stray/']),
    [
      'oauth/authorize.ts imports ../http/bodyParser.ts: oauth/ may not import http/, which comes after it',
      'oauth/authorize.ts imports ../deps.ts: oauth/ may not import deps.ts, which comes after it',
    ],
    'the other order breaks the cycle at its other edge',
  );
  files.set('/src/oauth/authorize.ts', ['./session.ts']);
  t.same(folderViolations(graph, ['oauth/', 'deps.ts', 'http/', 'stray/']), [], 'a graph that keeps the order passes');
});
