import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded Postgres (PGlite) served over the Postgres wire protocol on loopback, so the
 * ledger talks to it through the very same `pg` code path as to a real server.
 * PGlite is single-connection: the knex pool is set to one connection for it.
 *
 * The socket takes a few more connections than that one, for `ledger` CLI commands run while
 * the server is up: pglite-socket runs one protocol message at a time and, while a
 * connection is inside a transaction, only that connection's messages, so each connection
 * keeps its own transactions. Once the server has migrated, it writes this address into
 * <dataDir>/embedded.lock (publishEmbeddedUrl; see cli/context.ts). Loopback only.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** the server's own pool (1) plus a few CLI commands at once */
const MAX_CONNECTIONS = 8;

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: MAX_CONNECTIONS });
  await server.start();
  const address = (server as unknown as { server?: { address(): { port: number } } }).server?.address();
  const port = address?.port;
  if (!port) throw new Error('embedded Postgres did not report its port');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
