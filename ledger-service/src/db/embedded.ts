import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * A new cluster made by the build (scripts/build.mjs → embeddedTemplate.ts): initdb and every
 * migration already run, written beside the compiled code. Creating a cluster (PGlite runs
 * initdb in WebAssembly) and migrating it are most of a first start's work; unpacking this
 * is a fraction of it. Absent when running from the sources, which then make the cluster.
 */
export const TEMPLATE_FILE = fileURLToPath(new URL('./pglite-template.tgz', import.meta.url));

/** PGlite on `<dataDir>/pglite`; an empty directory starts from the template when there is one. */
async function openPGlite(dir: string): Promise<PGlite> {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'PG_VERSION')) || !existsSync(TEMPLATE_FILE)) return PGlite.create(dir);
  try {
    return await PGlite.create(dir, { loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]) });
  } catch {
    // a template this PGlite cannot read (another version installed since the build): make the cluster
    for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
    return PGlite.create(dir);
  }
}

/** Serves `db` on a loopback port through the Postgres wire protocol. */
export async function servePGlite(db: PGlite): Promise<EmbeddedPostgres> {
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

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  return servePGlite(await openPGlite(join(dataDir, 'pglite')));
}
