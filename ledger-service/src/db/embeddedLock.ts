import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded database is in use by another process (PGlite allows one process at a time). */
export class EmbeddedDatabaseBusy extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dataDir>/embedded.lock` for this process, so a CLI command cannot open the
 * embedded database while `npm start` has it open (two PGlite instances on one
 * directory corrupt it). A lock left by a process that is gone is taken over.
 * Returns the release function.
 */
export function lockEmbedded(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'embedded.lock');
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(file, 'utf8').trim()) || undefined;
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && alive(holder)) {
    throw new EmbeddedDatabaseBusy(
      `the embedded database in ${dataDir} is in use by process ${holder} (npm start or ledger serve); stop it first, or set DATABASE_URL`,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}
