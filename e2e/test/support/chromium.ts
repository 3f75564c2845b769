/**
 * Which Chromium the browser tests drive, in one place for the gateway and e2e suites.
 *
 * Order: `CHROMIUM_PATH` when set (an explicit choice must exist), then Debian's Chromium
 * (`/usr/bin/chromium`, what CI installs), then the Chromium that `npm ci` brought with
 * `@sparticuz/chromium`: a brotli-compressed, self-contained Linux x64 build inside the
 * package tarball. Nothing is ever downloaded at run time.
 */
import { accessSync, constants, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

export const SYSTEM_CHROMIUM_PATHS: readonly string[] = ['/usr/bin/chromium'];

/** The flags the tests need; the same for both browsers (no sandbox: tests may run as root). */
export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export class NoChromiumError extends Error {}

export interface ChromiumChoice {
  executablePath: string;
  source: 'env' | 'system' | 'bundled';
}

export interface ChooseOptions {
  env?: NodeJS.ProcessEnv;
  /** where a system Chromium may be, most preferred first */
  systemPaths?: readonly string[];
  /** the compressed binary shipped by @sparticuz/chromium; found through module resolution when left out */
  bundledArchive?: string;
  /** where the bundled binary is unpacked; a per-version folder under the OS temp dir by default */
  unpackDir?: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface BundledPackage {
  archive: string;
  version: string;
}

function findBundledPackage(): BundledPackage | undefined {
  try {
    // the package exports only its entry point (build/index.js); bin/ sits beside build/
    const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
    const root = join(dirname(entry), '..');
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    return { archive: join(root, 'bin', 'chromium.br'), version };
  } catch {
    return undefined;
  }
}

/**
 * Unpacks the archive once per version. Test files run in parallel processes, so each one
 * writes its own temporary file and renames it into place: rename is atomic, a reader never
 * sees a half-written binary, and an interrupted unpack leaves no broken `chromium` behind.
 */
async function unpack(archive: string, dir: string): Promise<string> {
  const target = join(dir, 'chromium');
  if (executable(target)) return target;
  mkdirSync(dir, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

export async function chooseChromium(opts: ChooseOptions = {}): Promise<ChromiumChoice> {
  const env = opts.env ?? process.env;
  const explicit = env.CHROMIUM_PATH;
  if (explicit) {
    if (!executable(explicit)) throw new NoChromiumError(`CHROMIUM_PATH=${explicit} is not an executable file`);
    return { executablePath: explicit, source: 'env' };
  }
  for (const path of opts.systemPaths ?? SYSTEM_CHROMIUM_PATHS) {
    if (executable(path)) return { executablePath: path, source: 'system' };
  }
  const bundled = opts.bundledArchive ? { archive: opts.bundledArchive, version: 'custom' } : findBundledPackage();
  const tried = `no Chromium for the browser tests: none at ${(opts.systemPaths ?? SYSTEM_CHROMIUM_PATHS).join(', ')}`;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new NoChromiumError(`${tried}, and the bundled @sparticuz/chromium runs on Linux x64 only; install Chromium or set CHROMIUM_PATH`);
  }
  if (!bundled || !existsSync(bundled.archive)) {
    throw new NoChromiumError(`${tried}, and @sparticuz/chromium is not installed (run npm ci); or install Chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  const dir = opts.unpackDir ?? join(tmpdir(), `ledger-test-chromium-${bundled.version}`);
  return { executablePath: await unpack(bundled.archive, dir), source: 'bundled' };
}

/** A headless Chromium for a test; the caller closes it. */
export async function launchChromium(opts: ChooseOptions = {}): Promise<Browser> {
  const { executablePath } = await chooseChromium(opts);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}
