import type { LedgerConfig } from '../config.ts';
import type { Database } from '../server.ts';
import { openDatabase } from '../server.ts';
import { migrateLatest } from '../db/migrate.ts';
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
  /** everything on standard input, for --password-stdin */
  readStdin(): Promise<string>;
  /** the database, migrated to the latest schema; opened on first use */
  db(): Promise<Db>;
  encryptionKey(): Buffer;
  /** releases the database; called once the command has finished */
  close(): Promise<void>;
}

export function createContext(config: LedgerConfig, out: Output, readStdin: () => Promise<string>): CliContext {
  let database: Promise<Database> | undefined;
  return {
    config,
    out,
    readStdin,
    async db() {
      database ??= openDatabase(config).then(async (d) => {
        await migrateLatest(d.db);
        return d;
      });
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
