/**
 * `npm run build`: the compiled JavaScript the services run from (esbuild, a dev dependency).
 *
 * Three bundles, each beside the package whose node_modules its imports must resolve from
 * (npm may install a package's own version of a dependency under it, as it does for the
 * gateway's undici):
 * - ledger-service/dist/: `config.js`, `database.js` and `index.js` (what `npm start` uses), `cli.js` (the `ledger`
 *   command), and the parsing threads' job modules `statementJob.js` and `extractJob.js`
 *   (src/untrusted/job.ts finds them beside the code that starts them, so every file of
 *   this bundle is in one flat directory);
 * - mcp-gateway/dist/: `config.js`, `index.js` and `cli.js` (the `gateway` command);
 * - dist/start.js: `npm start` (scripts/start.ts), which imports the packages' config.js,
 *   database.js and index.js.
 *
 * The workspace package @ledger/shared and most packages are bundled in: reading a few large
 * files is much quicker than resolving and reading the many small ones of knex's and koa's
 * dependencies, zod or the MCP SDK (about half of the code loading of a start). Packages in
 * EXTERNAL_PACKAGES stay imports of node_modules (the image installs the production
 * dependencies). Code that is imported with `import()` becomes a chunk of its own and is read
 * only when first needed (the `ledger` command loads only the code of the command it runs).
 *
 * A build is written beside the last one: chunks have content hashes in their names, the
 * entry files are replaced by rename, and dist/build.json (the fingerprint of the sources,
 * scripts/compiled.mjs) is written last. Beside the ledger's bundle goes the embedded
 * database's template (a migrated cluster, ledger-service/src/db/embeddedTemplate.ts), made
 * again only when the migrations or PGlite changed. A process still running the previous build keeps
 * finding its chunks; chunks no build has named for a day are removed.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsFresh, ROOT, sourceFingerprint, STAMP } from './compiled.mjs';

const LEDGER = join(ROOT, 'ledger-service');
const GATEWAY = join(ROOT, 'mcp-gateway');

/**
 * What `scripts/start.ts` may import from the two services: their config and index modules (and the ledger's database
 * module), nothing deeper.
 */
const PACKAGE_ENTRIES = {
  [join(LEDGER, 'src', 'config.ts')]: '../ledger-service/dist/config.js',
  [join(LEDGER, 'src', 'index.ts')]: '../ledger-service/dist/index.js',
  [join(LEDGER, 'src', 'db', 'database.ts')]: '../ledger-service/dist/database.js',
  [join(GATEWAY, 'src', 'config.ts')]: '../mcp-gateway/dist/config.js',
  [join(GATEWAY, 'src', 'index.ts')]: '../mcp-gateway/dist/index.js',
};

/**
 * Packages that stay imports of node_modules: native code (better-sqlite3, canvas), WebAssembly
 * or data files found beside their own code (PGlite, pdfjs, ZXing, pdfkit's fonts, the API
 * reference's bundle), files they start as threads (piscina, pino's transports), a dialect or
 * driver required by a computed name (knex, pg's optional native binding), a package whose
 * state an external one shares (pg), and packages read only when first needed (they stay out
 * of every bundle's start).
 */
export const EXTERNAL_PACKAGES = new Set([
  'better-sqlite3',
  '@napi-rs/canvas',
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  'pdfjs-dist',
  'zxing-wasm',
  'pdfkit',
  'swissqrbill',
  '@scalar/api-reference',
  'piscina',
  'pino',
  'knex',
  'pg-native',
  // one copy with knex and pg-boss, which require it themselves: the type parsers db/knex.ts
  // sets (ids as numbers, dates as text) must be those of the pg that runs the queries
  'pg',
  'pg-boss',
  'nodemailer',
  'ioredis',
]);

export const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Node's built-ins and EXTERNAL_PACKAGES stay imports; everything else is bundled. */
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

/** In dist/start.js the services are the packages' own builds, not a second copy of them. */
const serviceEntries = {
  name: 'service-entries',
  setup(build) {
    build.onResolve({ filter: /\/(ledger-service|mcp-gateway)\// }, (args) => {
      const target = join(args.resolveDir, args.path);
      const compiled = PACKAGE_ENTRIES[target];
      if (!compiled) {
        return {
          errors: [
            {
              text:
                `scripts/start.ts imports ${args.path}: import the service's src/config.ts or src/index.ts (or ` +
                `the ledger's src/db/database.ts) instead, so it is not bundled twice`,
            },
          ],
        };
      }
      return { path: compiled, external: true };
    });
  },
};

const DAY_MS = 24 * 3600_000;

/** The embedded database's template and what it was made from (ledger-service/src/db/embedded.ts). */
const TEMPLATE = join(LEDGER, 'dist', 'pglite-template.tgz');
const TEMPLATE_KEY = join(LEDGER, 'dist', 'pglite-template.json');
const KEPT = new Set(['pglite-template.tgz', 'pglite-template.json']);

/** What the template depends on: the migrations, the code that runs them, PGlite's version. */
function templateKey() {
  const hash = createHash('sha256');
  const migrations = join(LEDGER, 'src', 'db', 'migrations');
  for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(join(migrations, name)));
  for (const file of [
    join(ROOT, 'shared', 'src', 'migrate.ts'),
    join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
  ]) {
    hash.update(existsSync(file) ? readFileSync(file) : 'missing');
  }
  return hash.digest('hex');
}

/**
 * Makes the template when the migrations (or PGlite) changed since it was made: about as
 * much work as one first start, done once per change instead of at every new data directory.
 */
async function buildTemplate() {
  const key = templateKey();
  try {
    if (existsSync(TEMPLATE) && JSON.parse(readFileSync(TEMPLATE_KEY, 'utf8')).key === key) return;
  } catch {
    /* no key yet */
  }
  const { writeEmbeddedTemplate } = await import(pathToFileURL(join(LEDGER, 'dist', 'template.js')).href);
  await writeEmbeddedTemplate(TEMPLATE);
  writeFileSync(TEMPLATE_KEY, `${JSON.stringify({ key })}\n`);
}

/** Replaces a file in one step: a process reading it meanwhile sees the old or the new one whole. */
function writeWhole(path, contents) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

/**
 * Writes one bundle's files: chunks first, then the entries that name them, then old chunks nobody names any more are
 * dropped.
 */
function writeOutputs(outdir, outputFiles, entryNames) {
  mkdirSync(outdir, { recursive: true });
  const written = new Set();
  const entries = [];
  for (const file of outputFiles) {
    const name = relative(outdir, file.path);
    written.add(name);
    if (entryNames.has(name)) entries.push(file);
    else writeWhole(file.path, file.contents);
  }
  for (const file of entries) writeWhole(file.path, file.contents);
  for (const name of readdirSync(outdir)) {
    if (written.has(name) || entryNames.has(name) || KEPT.has(name) || name.endsWith('.partial')) continue;
    const path = join(outdir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      /* removed meanwhile */
    }
  }
}

async function bundle(esbuild, { outdir, entryPoints, plugins, splitting = true }) {
  const result = await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    sourcemap: 'linked',
    // the maps name the sources' lines without carrying the bundled packages' text
    sourcesContent: false,
    chunkNames: '[name]-[hash]',
    banner: {
      js: [
        '// compiled by scripts/build.mjs from the TypeScript sources; do not edit',
        // bundled CommonJS packages require Node's built-ins; ESM has no `require` of its own
        "import { createRequire as __bundleCreateRequire } from 'node:module';",
        'const require = __bundleCreateRequire(import.meta.url);',
      ].join('\n'),
    },
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    plugins,
  });
  const entryNames = new Set(Object.keys(entryPoints).flatMap((name) => [`${name}.js`, `${name}.js.map`]));
  writeOutputs(outdir, result.outputFiles, entryNames);
}

/** Builds all three bundles and stamps them with the sources' fingerprint. */
export async function build() {
  const started = performance.now();
  const fingerprint = sourceFingerprint();
  const esbuild = await import('esbuild').catch(() => {
    throw new Error(
      'the compiled build is missing or out of date, and esbuild (a dev dependency) is not installed: run "npm ci" ' +
        'and "npm run build"',
    );
  });
  await Promise.all([
    bundle(esbuild, {
      outdir: join(LEDGER, 'dist'),
      entryPoints: {
        index: join(LEDGER, 'src/index.ts'),
        config: join(LEDGER, 'src/config.ts'),
        database: join(LEDGER, 'src/db/database.ts'),
        cli: join(LEDGER, 'src/cli/main.ts'),
        template: join(LEDGER, 'src/db/embeddedTemplate.ts'),
        statementJob: join(LEDGER, 'src/modules/bankTransactions/statementJob.ts'),
        extractJob: join(LEDGER, 'src/modules/inbox/extractJob.ts'),
      },
      plugins: [externalPackages],
    }),
    bundle(esbuild, {
      outdir: join(GATEWAY, 'dist'),
      entryPoints: {
        index: join(GATEWAY, 'src/index.ts'),
        config: join(GATEWAY, 'src/config.ts'),
        cli: join(GATEWAY, 'src/cli.ts'),
      },
      plugins: [externalPackages],
    }),
    bundle(esbuild, {
      outdir: join(ROOT, 'dist'),
      entryPoints: { start: join(ROOT, 'scripts/start.ts') },
      plugins: [serviceEntries, externalPackages],
      splitting: false,
    }),
  ]);
  await buildTemplate();
  mkdirSync(dirname(STAMP), { recursive: true });
  writeWhole(
    STAMP,
    `${JSON.stringify({ fingerprint, built_at: new Date().toISOString(), esbuild: esbuild.version })}\n`,
  );
  return performance.now() - started;
}

const LOCK = join(ROOT, 'dist', '.build.lock');

/**
 * Builds unless the build is fresh. Two `npm start`s at once build once: the second waits
 * for the first's lock and then finds the build fresh (a lock older than ten minutes is
 * left over from a build that died and is taken over).
 */
export async function buildIfStale(log = (line) => process.stderr.write(`${line}\n`)) {
  if (buildIsFresh()) return false;
  mkdirSync(dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 600_000) rmSync(LOCK, { force: true });
      } catch {
        /* released meanwhile */
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (buildIsFresh()) return false;
    log('building the compiled JavaScript (missing, or older than the sources) ...');
    const ms = await build();
    log(`built in ${(ms / 1000).toFixed(1)} s`);
    return true;
  } finally {
    rmSync(LOCK, { force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  build().then(
    (ms) =>
      process.stdout.write(
        `built ledger-service/dist, mcp-gateway/dist and dist/start.js in ${(ms / 1000).toFixed(1)} s\n`,
      ),
    (err) => {
      process.stderr.write(`build: ${err.message}\n`);
      process.exit(1);
    },
  );
}
