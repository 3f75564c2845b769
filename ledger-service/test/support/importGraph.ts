/**
 * The import graph of a source folder, read from the source text (type-only imports
 * included), for the architecture tests of both services (kernel/imports.test.ts,
 * mcp-gateway/test/imports.test.ts).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path)) out.push(path);
  }
  return out;
}

const IMPORT = /(?:from|import)\s*\(?\s*'([^']+)'/g;

export interface ImportGraph {
  /** every source file with the specifiers it imports */
  files: Map<string, string[]>;
  /** the file a relative specifier names, else undefined (a package) */
  local(file: string, spec: string): string | undefined;
  /** a file's path relative to the folder */
  name(file: string): string;
}

export function importGraph(src: string): ImportGraph {
  return {
    files: new Map(
      sourceFiles(src).map(
        (file) => [file, [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]!)] as const,
      ),
    ),
    local: (file, spec) => (spec.startsWith('.') ? resolve(dirname(file), spec) : undefined),
    name: (file) => relative(src, file),
  };
}

/** Every import cycle, as "a → b → a" (the same search as madge --circular). */
export function importCycles(graph: ImportGraph): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const spec of graph.files.get(file) ?? []) {
      const dep = graph.local(file, spec);
      if (!dep) continue;
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].map(graph.name).join(' → '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.files.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The module rule of docs/architecture.md, on the graph of `ledger-service/src`: a file of
 * `modules/<a>/` imports a file of another module `modules/<b>/` only through b's face
 * (`modules/<b>/index.ts`) and only if b comes before a in `order` (lowest first). Every module
 * folder must be in `order` and have a face. The files directly in `modules/` (the route list,
 * `serviceContext.ts`, `order.ts`) belong to no module. Returns one line per violation.
 */
export function moduleViolations(graph: ImportGraph, order: readonly string[]): string[] {
  const moduleOf = (file: string) => /^modules\/([^/]+)\/(.+)$/.exec(graph.name(file).split('\\').join('/'));
  const rank = new Map(order.map((m, i) => [m, i]));
  const out: string[] = [];
  const modules = new Set<string>();
  const faces = new Set<string>();
  for (const [file, specs] of graph.files) {
    const from = moduleOf(file);
    if (!from) continue;
    const a = from[1]!;
    modules.add(a);
    if (from[2] === 'index.ts') faces.add(a);
    for (const spec of specs) {
      const dep = graph.local(file, spec);
      const to = dep ? moduleOf(dep) : null;
      if (!to || to[1] === a) continue;
      const b = to[1]!;
      const where = `modules/${a}/${from[2]} imports modules/${b}/${to[2]}`;
      if (to[2] !== 'index.ts') out.push(`${where}: not through the face modules/${b}/index.ts`);
      if (rank.has(a) && rank.has(b) && rank.get(b)! >= rank.get(a)!)
        out.push(`${where}: against the declared order (${b} does not come before ${a})`);
    }
  }
  for (const m of [...modules].sort()) {
    if (!rank.has(m)) out.push(`modules/${m} is not in the declared module order`);
    if (!faces.has(m)) out.push(`modules/${m} has no face (index.ts)`);
  }
  return out;
}
