import type { LedgerConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { createDb } from '../db/knex.ts';
import { liveEmbeddedHolder, type EmbeddedLockInfo } from '../db/embeddedLock.ts';
import { findCompanyByDataset, type Company } from '../db/companies.ts';
import { findUserByEmail, type UserRow } from '../db/users.ts';
import { loadEncryptionKey } from '../secretKey.ts';
import type { Db } from '../db/knex.ts';
import type { Output } from './output.ts';

/** A command that cannot be carried out (unknown dataset, existing user, ...): exit code 1. */
export class CliError extends Error {}

export interface CliContext {
  config: LedgerConfig;
  out: Output;
  /** standard output is a terminal that takes colours (QR codes are drawn with them) */
  color: boolean;
  /** everything on standard input, for --password-stdin */
  readStdin(): Promise<string>;
  /** the database, migrated to the latest schema; opened on first use */
  db(): Promise<Db>;
  encryptionKey(): Buffer;
  /** releases the database; called once the command has finished */
  close(): Promise<void>;
}

/** How long to wait for a server that holds the embedded database but is still starting. */
const STARTING_SERVER_WAIT_MS = 30_000;

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * The lock of a running process that has the embedded database open, once that process
 * offers it to other processes (it writes the address after its migrations); undefined
 * when no live process holds it, so the CLI opens the files itself.
 */
async function runningEmbedded(dataDir: string): Promise<EmbeddedLockInfo | undefined> {
  const deadline = Date.now() + STARTING_SERVER_WAIT_MS;
  for (;;) {
    const holder = liveEmbeddedHolder(dataDir);
    if (!holder || holder.url) return holder;
    if (Date.now() > deadline) {
      throw new CliError(
        `the embedded database in ${dataDir} is in use by process ${holder.pid}, which does not offer it to ` +
          `the CLI (still starting, or "ledger serve" of an older version); try again, stop it, or set ` +
          `DATABASE_URL`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Works through the running server's embedded Postgres (loopback socket, same `pg` path)
 * instead of opening the files a second time. The server migrated the schema at start.
 */
async function attachToRunning(holder: EmbeddedLockInfo & { url: string }): Promise<Database> {
  const url = new URL(holder.url);
  if (!isLoopback(url))
    throw new CliError(`embedded.lock names ${url.host} for the running database; only a loopback address is accepted`);
  const db = createDb(holder.url, { poolMax: 1 });
  try {
    await db.raw('select 1');
  } catch (err) {
    await db.destroy();
    throw new CliError(
      `could not reach the embedded database of the running process ${holder.pid} at ${url.host}: ` +
        `${(err as Error).message}`,
    );
  }
  return { db, url: holder.url, close: () => db.destroy() };
}

async function openForCli(config: LedgerConfig): Promise<Database> {
  if (!config.databaseUrl) {
    const holder = await runningEmbedded(config.dataDir);
    if (holder?.url) return attachToRunning({ ...holder, url: holder.url });
  }
  const database = await openDatabase(config);
  try {
    // the migrations (and pg-boss's schema) are read only by a command that opens the files itself
    const { migrateLatest } = await import('../db/migrate.ts');
    await migrateLatest(database.db);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

export function createContext(
  config: LedgerConfig,
  out: Output,
  readStdin: () => Promise<string>,
  color = false,
): CliContext {
  let database: Promise<Database> | undefined;
  return {
    config,
    out,
    color,
    readStdin,
    async db() {
      database ??= openForCli(config);
      return (await database).db;
    },
    encryptionKey: () => loadEncryptionKey(config),
    async close() {
      if (database) await (await database.catch(() => undefined))?.close();
    },
  };
}

export async function companyOrFail(db: Db, dataset: string): Promise<Company> {
  const company = await findCompanyByDataset(db, dataset);
  if (!company) throw new CliError(`dataset "${dataset}" does not exist`);
  return company;
}

export async function userOrFail(db: Db, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`user "${email}" does not exist`);
  return user;
}
