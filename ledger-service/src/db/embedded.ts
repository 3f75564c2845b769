import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded Postgres (PGlite) served over the Postgres wire protocol on loopback, so the
 * ledger talks to it through the very same `pg` code path as to a real server.
 * PGlite is single-connection: the knex pool is set to one connection for it.
 */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
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
