/**
 * Is the compiled build (scripts/build.mjs) up to date with the sources? Plain JavaScript
 * with no dependencies, because `npm start` and the `ledger`/`gateway` commands ask it before
 * anything else is loaded, also where only production dependencies are installed.
 *
 * The build records a fingerprint of its inputs (path, size and modification time of every
 * source file, like make) in dist/build.json; the build is fresh when the sources still
 * have that fingerprint. Without sources beside it (a container image that ships only the
 * build) the build is all there is, so it counts as fresh.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The source trees bundled into the build (tests excluded: they are not part of it). */
const SOURCE_DIRS = ['shared/src', 'ledger-service/src', 'mcp-gateway/src'];
/** Single files that change what the build contains. */
const SOURCE_FILES = [
  'scripts/start.ts',
  'scripts/build.mjs',
  'package.json',
  'shared/package.json',
  'ledger-service/package.json',
  'mcp-gateway/package.json',
];

export const STAMP = join(ROOT, 'dist', 'build.json');

/** The compiled entry points, by name (scripts/build.mjs writes them). */
export const COMPILED = {
  start: join(ROOT, 'dist', 'start.js'),
  ledgerCli: join(ROOT, 'ledger-service', 'dist', 'cli.js'),
  gatewayCli: join(ROOT, 'mcp-gateway', 'dist', 'cli.js'),
};

function walk(dir, rel, lines) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const relPath = `${rel}/${entry.name}`;
    if (entry.isDirectory()) walk(path, relPath, lines);
    else if (entry.isFile() && !entry.name.endsWith('.test.ts')) {
      const s = statSync(path);
      lines.push(`${relPath}\t${s.size}\t${s.mtimeMs}`);
    }
  }
}

/** The fingerprint of the sources, or undefined when there are none (only a build is installed). */
export function sourceFingerprint() {
  if (!SOURCE_DIRS.every((dir) => existsSync(join(ROOT, dir)))) return undefined;
  const lines = [];
  for (const dir of SOURCE_DIRS) walk(join(ROOT, dir), dir, lines);
  for (const file of SOURCE_FILES) {
    try {
      const s = statSync(join(ROOT, file));
      lines.push(`${file}\t${s.size}\t${s.mtimeMs}`);
    } catch {
      lines.push(`${file}\tmissing`);
    }
  }
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

export function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when every compiled entry exists and was built from the sources as they are now. */
export function buildIsFresh() {
  if (!Object.values(COMPILED).every((file) => existsSync(file))) return false;
  const stamp = readStamp();
  if (!stamp) return false;
  const now = sourceFingerprint();
  return now === undefined || stamp.fingerprint === now;
}
