import type { LedgerConfig } from '../config.ts';
import { createDb, type Db } from './knex.ts';
import { lockEmbedded } from './embeddedLock.ts';

export interface Database {
  db: Db;
  url: string;
  /** the embedded PGlite: one session behind a socket of a few connections (db/embedded.ts) */
  embedded?: boolean;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise embedded PGlite (one connection) under the data directory.
 * PGlite (Postgres compiled to WebAssembly) is loaded only here, when the files are opened:
 * a `ledger` command that works through a running server, or a ledger on a real Postgres,
 * never reads it.
 */
export async function openDatabase(config: LedgerConfig): Promise<Database> {
  let embedded: { url: string; stop(): Promise<void> } | undefined;
  let release = () => {};
  let url = config.databaseUrl;
  if (!url) {
    release = lockEmbedded(config.dataDir);
    try {
      const { startEmbeddedPostgres } = await import('./embedded.ts');
      embedded = await startEmbeddedPostgres(config.dataDir);
    } catch (err) {
      release();
      throw err;
    }
    url = embedded.url;
  }
  const db = createDb(url, { poolMax: embedded ? 1 : 10, preparedStatements: !embedded });
  return {
    db,
    url,
    embedded: embedded !== undefined,
    async close() {
      await db.destroy();
      await embedded?.stop();
      release();
    },
  };
}
