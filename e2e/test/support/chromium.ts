/**
 * Which Chromium the browser tests drive, in one place for the gateway and e2e suites.
 *
 * Order: `CHROMIUM_PATH` when set (an explicit choice must exist), then the `chromium`
 * command on PATH (Debian's Chromium, `/usr/bin/chromium`). npm test makes sure one of them
 * is there before any test runs (scripts/test-prerequisites.sh installs Debian's as root),
 * so no browser comes with the npm packages and nothing is downloaded at run time.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** The flags the tests need (no sandbox: tests may run as root). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

export class NoChromiumError extends Error {}

export interface ChromiumChoice {
  executablePath: string;
  source: 'env' | 'system';
}

export interface ChooseOptions {
  env?: NodeJS.ProcessEnv;
  /** where a system Chromium may be, most preferred first; `chromium` in each PATH folder by default */
  systemPaths?: readonly string[];
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `chromium` in each folder of PATH, in PATH's order (what the shell would run). */
export function chromiumOnPath(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'chromium'));
}

export async function chooseChromium(opts: ChooseOptions = {}): Promise<ChromiumChoice> {
  const env = opts.env ?? process.env;
  const explicit = env.CHROMIUM_PATH;
  if (explicit) {
    if (!executable(explicit)) throw new NoChromiumError(`CHROMIUM_PATH=${explicit} is not an executable file`);
    return { executablePath: explicit, source: 'env' };
  }
  const candidates = opts.systemPaths ?? chromiumOnPath(env);
  const found = candidates.find(executable);
  if (found) return { executablePath: found, source: 'system' };
  throw new NoChromiumError(
    `no Chromium for the browser tests: none at ${candidates.join(', ') || '(empty PATH)'}; ` +
      'install it (Debian: apt-get install chromium; npm test does this itself as root) or set CHROMIUM_PATH',
  );
}

/** A headless Chromium for a test; the caller closes it. */
export async function launchChromium(opts: ChooseOptions = {}): Promise<Browser> {
  const { executablePath } = await chooseChromium(opts);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}
