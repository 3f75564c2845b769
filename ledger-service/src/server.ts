import { createServer, type Server } from 'node:http';
import { answerClientErrors, discardAbandonedBody } from '@ledger/shared/httpServer';
import { listenOn } from '@ledger/shared/ports';
import { loadConfig, type LedgerConfig } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import type { Db } from './db/knex.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrateLatest } from './db/migrate.ts';
import { DEFAULT_RETRY_POLICY, ensureQueue } from './db/queue.ts';
import { servingRole, UnsafeServingRole } from './db/tenantTransaction.ts';
import { createApp } from './kernel/app.ts';
import { loadEncryptionKey } from './secretKey.ts';
import { startMailWorker, type MailWorkerOptions } from './modules/outbox/index.ts';
import { startInboxWorker, type InboxWorkerOptions } from './modules/inbox/worker.ts';
import { startWebhookWorker, type WebhookWorkerOptions } from './modules/events/index.ts';
import { mailSettingsOf } from './modules/mail/index.ts';
import { ATTACHMENT_RENDERERS } from './modules/index.ts';
import { startRecurringJob, type RecurringJob } from './modules/recurring/index.ts';
import { DEFAULT_EVENT_SETTINGS } from './modules/events/settings.ts';
import { DEFAULT_FILE_JOB_LIMITS, FileJobs } from './untrusted/index.ts';
import { configureDocumentStore, documentStoreFromEnv } from './modules/files/storage.ts';

export { openDatabase, type Database };

/**
 * The events settings for this database: on the embedded one, whose socket takes a few
 * connections and whose one session serves them in turn, a single webhook sender.
 */
function eventsOn(database: Database, config: LedgerConfig): NonNullable<LedgerConfig['events']> {
  const events = config.events ?? DEFAULT_EVENT_SETTINGS;
  return database.embedded === true ? { ...events, senders: 1 } : events;
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
  /** the recurring-invoice job of this process (modules/recurring/job.ts); tests run its rounds */
  recurring: RecurringJob;
  close(): Promise<void>;
}

/** Starts the HTTP server; close() lets in-flight requests finish, then releases the database. */
export async function startLedger(
  opts: {
    config?: LedgerConfig;
    database?: Database;
    migrate?: boolean;
    mail?: MailWorkerOptions | false;
    /** the inbox's extraction worker (modules/inbox); false: none (another process works the queue) */
    inbox?: InboxWorkerOptions | false;
    /** the webhook sender (modules/events); false: none (another process sends) */
    webhooks?: WebhookWorkerOptions | false;
    /** the clock of AI connections' confirmation tokens (kernel/confirmation.ts); tests move it */
    now?: () => number;
  } = {},
): Promise<RunningLedger> {
  const config = opts.config ?? loadConfig();
  const log = createLogger(config.logLevel);
  const database = opts.database ?? (await openDatabase(config));
  try {
    if (opts.migrate) await migrateLatest(database.db);
    // every request runs as a role row-level security applies to; a set-up where it could bypass it does not start.
    // A database not reachable yet is no refusal (alive, not ready): the first tenant transaction decides then.
    const reachable = await servingRole(database.db).then(
      () => true,
      (err: unknown) => {
        if (err instanceof UnsafeServingRole) throw err;
        log.warn({ err: (err as Error).message }, 'the serving role is checked when the database answers');
        return false;
      },
    );
    // the mail queue is there before the first request: an e-mail asked for the moment the ledger
    // answers is queued, whatever its name (MAIL_QUEUE), instead of waiting for the worker to make it
    if (reachable && opts.mail !== false)
      await ensureQueue(database.db, config.mailQueue, opts.mail?.retry ?? DEFAULT_RETRY_POLICY);
  } catch (err) {
    if (!opts.database) await database.close();
    throw err;
  }
  // where document bytes go (DOCUMENT_STORE, DOCUMENT_DIR; docs/documents.md)
  configureDocumentStore(documentStoreFromEnv(process.env, config.dataDir));
  // untrusted files are parsed on these threads, never on the serving one (untrusted/pool.ts)
  const fileJobs = new FileJobs({ ...DEFAULT_FILE_JOB_LIMITS, ...config.fileJobs, maxBytes: config.fileLimit });
  const encryptionKey = loadEncryptionKey(config);
  const app = createApp({ db: database.db, config, log, encryptionKey, fileJobs, now: opts.now });
  const handle = app.callback();
  const server = createServer((req, res) => {
    discardAbandonedBody(req, res);
    return handle(req, res);
  });
  answerClientErrors(server);
  server.keepAliveTimeout = 5_000;
  let port: number;
  try {
    port = await listenOn(server, config.port, config.host, 'LEDGER_PORT');
  } catch (err) {
    // nothing was started yet but the database this call opened
    if (!opts.database) await database.close();
    throw err;
  }
  // the background workers start once the port is ours: a start that fails on a taken port
  // leaves no worker behind, and /healthz answers while they are still starting.
  // The e-mail sender (modules/mail): every ledger process sends from the durable queue
  const mail =
    opts.mail === false
      ? undefined
      : startMailWorker({
          db: database.db,
          databaseUrl: database.url,
          config,
          log,
          renderers: ATTACHMENT_RENDERERS,
          options: opts.mail,
        });
  // the inbox's extraction worker
  const inbox =
    opts.inbox === false
      ? undefined
      : startInboxWorker({
          db: database.db,
          databaseUrl: database.url,
          log,
          fileJobs,
          options: { queue: config.inboxQueue, ...opts.inbox },
        });
  // the webhook sender (modules/events): every ledger process sends from the durable queue
  const webhooks =
    opts.webhooks === false
      ? undefined
      : startWebhookWorker({
          db: database.db,
          databaseUrl: database.url,
          log,
          encryptionKey,
          publicUrl: config.publicUrl,
          mailQueue: config.mailQueue,
          events: eventsOn(database, config),
          options: opts.webhooks,
        });
  // the recurring-invoice job: every ledger process runs it; each due date is made once (modules/recurring)
  const recurring = startRecurringJob({
    db: database.db,
    log,
    settings: {
      mail: mailSettingsOf(config),
      invoiceUrlBase: (company) => `${config.publicUrl}/client/${company.dataset}/arap/invoice/customer`,
    },
    clock: () => config.clock,
    intervalSeconds: config.recurringIntervalSeconds ?? 60,
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host}:${port}`,
    port,
    db: database.db,
    log,
    server,
    workersReady: Promise.all([inbox?.ready, webhooks?.ready]).then(() => undefined),
    recurring,
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
        await recurring.stop();
        await mail?.stop();
        await inbox?.stop();
        await webhooks?.stop();
        await fileJobs.close();
        if (!opts.database) await database.close();
      })();
      return closing;
    },
  };
}
