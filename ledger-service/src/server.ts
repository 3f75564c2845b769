import { createServer, type Server } from 'node:http';
import { answerClientErrors, discardAbandonedBody } from '@ledger/shared/httpServer';
import type { AddressInfo } from 'node:net';
import { loadConfig, type LedgerConfig } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { createDb, type Db } from './db/knex.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.ts';
import { migrateLatest } from './db/migrate.ts';
import { lockEmbedded } from './db/embeddedLock.ts';
import { createApp } from './kernel/app.ts';
import { loadEncryptionKey } from './secretKey.ts';
import { startMailWorker, type MailWorkerOptions } from './modules/mail/worker.ts';
import { startInboxWorker, type InboxWorkerOptions } from './modules/inbox/worker.ts';
import { configureDocumentStore, documentStoreFromEnv } from './modules/files/storage.ts';

export interface Database {
  db: Db;
  url: string;
  close(): Promise<void>;
}

/** DATABASE_URL when set; otherwise embedded PGlite (one connection) under the data directory. */
export async function openDatabase(config: LedgerConfig): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let release = () => {};
  let url = config.databaseUrl;
  if (!url) {
    release = lockEmbedded(config.dataDir);
    embedded = await startEmbeddedPostgres(config.dataDir).catch((err: unknown) => {
      release();
      throw err;
    });
    url = embedded.url;
  }
  const db = createDb(url, { poolMax: embedded ? 1 : 10 });
  return {
    db,
    url,
    async close() {
      await db.destroy();
      await embedded?.stop();
      release();
    },
  };
}

/** How long close() lets in-flight requests run before cutting their connections. */
const SHUTDOWN_GRACE_MS = 25_000;

export interface RunningLedger {
  url: string;
  port: number;
  db: Db;
  log: Logger;
  server: Server;
  /** resolves once the background workers take jobs */
  workersReady: Promise<void>;
  close(): Promise<void>;
}

/** Starts the HTTP server; close() lets in-flight requests finish, then releases the database. */
export async function startLedger(
  opts: {
    config?: LedgerConfig; database?: Database; migrate?: boolean; mail?: MailWorkerOptions | false;
    /** the inbox's extraction worker (modules/inbox); false: none (another process works the queue) */
    inbox?: InboxWorkerOptions | false;
  } = {},
): Promise<RunningLedger> {
  const config = opts.config ?? loadConfig();
  const log = createLogger(config.logLevel);
  const database = opts.database ?? (await openDatabase(config));
  if (opts.migrate) await migrateLatest(database.db);
  // the e-mail sender (modules/mail): every ledger process sends from the durable queue
  const mail = opts.mail === false ? undefined : startMailWorker({ db: database.db, databaseUrl: database.url, config, log, options: opts.mail });
  // where document bytes go (DOCUMENT_STORE, DOCUMENT_DIR; docs/documents.md), and the inbox's extraction worker
  configureDocumentStore(documentStoreFromEnv(process.env, config.dataDir));
  const inbox = opts.inbox === false
    ? undefined
    : startInboxWorker({ db: database.db, databaseUrl: database.url, log, options: { queue: config.inboxQueue, ...opts.inbox } });
  const app = createApp({ db: database.db, config, log, encryptionKey: loadEncryptionKey(config) });
  const handle = app.callback();
  const server = createServer((req, res) => {
    discardAbandonedBody(req, res);
    return handle(req, res);
  });
  answerClientErrors(server);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host}:${port}`,
    port,
    db: database.db,
    log,
    server,
    workersReady: inbox?.ready ?? Promise.resolve(),
    close() {
      closing ??= (async () => {
        // in-flight requests finish; keep-alive sockets are closed as soon as they go idle,
        // and whatever still hangs after the grace period is cut
        await new Promise<void>((resolve) => {
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
          server.close(() => {
            clearInterval(idle);
            clearTimeout(deadline);
            resolve();
          });
          server.closeIdleConnections();
        });
        await mail?.stop();
        await inbox?.stop();
        if (!opts.database) await database.close();
      })();
      return closing;
    },
  };
}
