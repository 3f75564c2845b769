/**
 * `npm test` runs the test files compiled, not through tsx: each test file is its own process, and
 * loading one through tsx's loader (resolving and transforming about a thousand modules across
 * its loader thread) costs 2–4 s of CPU before the first test, times some 200 files on 2 cores.
 * One esbuild run bundles every test file into `.test-build/` (the same relative paths, `.js`),
 * with the project's code and most packages in shared chunks, so a file starts in well under a
 * second. Type checking stays with `npm run typecheck`, which `npm test` runs first.
 *
 * What keeps a compiled file behaving as its source does:
 * - `import.meta.url`, `import.meta.dirname` and `import.meta.filename` are replaced, in every
 *   bundled file of ours (TypeScript and the repository's `.mjs` scripts), by the source file's
 *   own: fixtures, the repository root, sibling files and `createRequire` are found where they
 *   are in the source tree, and a script's "am I the main module" check stays false.
 * - The untrusted-file parsers' thread modules (`jobModule(import.meta.url, name)`) are built as
 *   entries of their own in `.test-build/jobs/`, and the calls name that folder instead.
 * - Packages that find files beside their own code, are started as threads or must be one copy
 *   with an unbundled package stay imports of node_modules (the list of scripts/build.mjs, and
 *   the test tools).
 * A test file that cannot run compiled (it starts a thread or process on a TypeScript file of
 * its own) says so in one line, `// npm test: runs from source (why)`, and runs through tsx.
 *
 * Usage: node scripts/build-tests.mjs → prints the compiled files' count and the time taken.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTERNAL_PACKAGES as SERVICE_EXTERNALS, packageOf } from './build.mjs';
import { ROOT } from './compiled.mjs';

export const TEST_BUILD = join(ROOT, '.test-build');
export const FROM_SOURCE_MARK = /^\/\/ npm test: runs from source/m;

/** The job modules the untrusted-file pool starts as threads (ledger-service/src/untrusted/job.ts). */
const JOBS = {
  statementJob: 'ledger-service/src/modules/bankTransactions/statementJob.ts',
  extractJob: 'ledger-service/src/modules/inbox/extractJob.ts',
};

/**
 * scripts/build.mjs's external packages, the test tools (tap keeps one copy of itself), and
 * packages that read their own files beside their code (JSON schemas, WebAssembly through __dirname).
 */
const EXTERNAL_PACKAGES = new Set([
  ...SERVICE_EXTERNALS,
  'tap',
  '@tapjs/core',
  'playwright-core',
  'axe-core',
  'esbuild',
  'tsx',
  'typescript',
  '@redocly/cli',
  '@redocly/openapi-core',
  'fast-check',
  '@seriousme/openapi-schema-validator',
  'xmllint-wasm',
]);

/** The test files tap's `include` names (package.json), by walking the folders those globs start in. */
export function testFiles() {
  const include = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).tap.include;
  const files = [];
  for (const pattern of include) {
    const base = pattern.split('/**')[0];
    walk(join(ROOT, base), files);
  }
  return [...new Set(files)].sort();
}

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
}

/** Which test files run compiled, and which through tsx (the ones marked to run from source). */
export function partition(files = testFiles()) {
  const compiled = [];
  const fromSource = [];
  for (const file of files) {
    (FROM_SOURCE_MARK.test(readFileSync(join(ROOT, file), 'utf8')) ? fromSource : compiled).push(file);
  }
  return { compiled, fromSource };
}

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (
        args.path.startsWith('node:') ||
        builtinModules.includes(args.path) ||
        EXTERNAL_PACKAGES.has(packageOf(args.path))
      ) {
        return { path: args.path, external: true };
      }
      return undefined;
    });
  },
};

/** Our own files keep their source location (see the header). */
// spelled in parts: this file is bundled too (e2e/test/testRun.test.ts builds with it), and the plugin
// below must not rewrite its own search strings
const META = ['import', 'meta'].join('.');

const sourceLocations = (outdir) => ({
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.(tsx?|mjs)$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const loader = args.path.endsWith('.mjs') ? 'js' : args.path.endsWith('x') ? 'tsx' : 'ts';
      let text = readFileSync(args.path, 'utf8');
      if (!text.includes(`${META}.`)) return { contents: text, loader };
      const jobsFolder = pathToFileURL(join(outdir, 'jobs', 'caller.js')).href;
      text = text
        .replaceAll(`jobModule(${META}.url,`, `jobModule(${JSON.stringify(jobsFolder)},`)
        .replaceAll(`${META}.url`, JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll(`${META}.dirname`, JSON.stringify(dirname(args.path)))
        .replaceAll(`${META}.filename`, JSON.stringify(args.path));
      return { contents: text, loader };
    });
  },
});

export async function buildTests(files = partition().compiled, outdir = TEST_BUILD) {
  const started = performance.now();
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(files.map((file) => [file.replace(/\.ts$/, ''), join(ROOT, file)]));
  for (const [name, file] of Object.entries(JOBS)) entryPoints[`jobs/${name}`] = join(ROOT, file);
  await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    jsx: 'automatic',
    sourcemap: 'linked',
    sourcesContent: false,
    chunkNames: 'chunks/[name]-[hash]',
    banner: {
      js: [
        '// compiled by scripts/build-tests.mjs for npm test; do not edit',
        "import { createRequire as __bundleCreateRequire } from 'node:module';",
        `const require = __bundleCreateRequire(${META}.url);`,
      ].join('\n'),
    },
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages, sourceLocations(outdir)],
  });
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n');
  return { files: files.length, ms: performance.now() - started };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  buildTests().then(
    ({ files, ms }) =>
      process.stdout.write(`# compiled ${files} test files into .test-build/ in ${(ms / 1000).toFixed(1)} s\n`),
    (err) => {
      process.stderr.write(`build-tests: ${err.message}\n`);
      process.exit(1);
    },
  );
}
