import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded database is in use by another process (PGlite allows one process at a time). */
export class EmbeddedDatabaseBusy extends Error {}

/**
 * `<dataDir>/embedded.lock`: which process has the embedded database open and, once its
 * Postgres socket listens, where other processes on this machine reach it (loopback only).
 * Older versions wrote just the pid; that form is still read.
 */
export interface EmbeddedLockInfo {
  pid: number;
  url?: string;
}

const LOCK_FILE = 'embedded.lock';

function lockPath(dataDir: string): string {
  return join(dataDir, LOCK_FILE);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseLock(text: string): EmbeddedLockInfo | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const value = JSON.parse(trimmed) as { pid?: unknown; url?: unknown };
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    return { pid: value.pid, ...(typeof value.url === 'string' ? { url: value.url } : {}) };
  } catch {
    return undefined;
  }
}

export function readEmbeddedLock(dataDir: string): EmbeddedLockInfo | undefined {
  try {
    return parseLock(readFileSync(lockPath(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The lock of another process that is still running, if there is one. */
export function liveEmbeddedHolder(dataDir: string): EmbeddedLockInfo | undefined {
  const holder = readEmbeddedLock(dataDir);
  return holder && holder.pid !== process.pid && alive(holder.pid) ? holder : undefined;
}

/** Replaces the file in one step, so a reader never sees half of it. */
function writeAtomically(file: string, info: EmbeddedLockInfo): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}

/** Creates the lock only if there is none; it appears complete or not at all (link is atomic). */
function createExclusively(file: string, info: EmbeddedLockInfo): boolean {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  try {
    linkSync(partial, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Locks this process still holds. Released on every way out of the process that runs
 * JavaScript — a normal end, process.exit() (a second Ctrl-C), an uncaught exception — so a
 * lock is left behind only by a process that was killed outright (the next one takes it over).
 */
const held = new Set<() => void>();
let exitHookInstalled = false;

function releaseOnExit(release: () => void): void {
  held.add(release);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const r of [...held]) r();
  });
}

/**
 * Takes `<dataDir>/embedded.lock` for this process, so no second process opens the embedded
 * database files while `npm start` has them open (two PGlite instances on one directory
 * corrupt it). A lock left by a process that is gone is taken over. Returns the release
 * function.
 */
export function lockEmbedded(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  for (let attempt = 0; ; attempt++) {
    if (createExclusively(file, { pid: process.pid })) break;
    if (attempt > 0) {
      throw new EmbeddedDatabaseBusy(
        `the embedded database in ${dataDir} was locked by another process starting at the same time; try again`,
      );
    }
    const holder = readEmbeddedLock(dataDir);
    if (holder && holder.pid !== process.pid && alive(holder.pid)) {
      throw new EmbeddedDatabaseBusy(
        `the embedded database in ${dataDir} is in use by process ${holder.pid} (npm start or ledger serve); ` +
          `stop it first, or set DATABASE_URL`,
      );
    }
    // stale (its process is gone) or unreadable: take it over with one more exclusive create
    try {
      unlinkSync(file);
    } catch {
      /* someone else removed it first */
    }
  }
  const release = () => {
    held.delete(release);
    try {
      if (readEmbeddedLock(dataDir)?.pid === process.pid) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  releaseOnExit(release);
  return release;
}

/**
 * Records in this process's lock where its embedded Postgres listens, so the `ledger` CLI
 * can work through the running server instead of refusing. Only the lock's owner writes it.
 */
export function publishEmbeddedUrl(dataDir: string, url: string): void {
  if (readEmbeddedLock(dataDir)?.pid !== process.pid) return;
  writeAtomically(lockPath(dataDir), { pid: process.pid, url });
}
