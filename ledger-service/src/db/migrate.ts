import { migrateSerialised } from '@ledger/shared/migrate';
import type { Db } from './knex.ts';
import { migrationSource } from './migrations/index.ts';

/** Brings the schema up to date; ledgers starting together on one database wait for each other. */
export function migrateLatest(db: Db): Promise<string[]> {
  return migrateSerialised(db, migrationSource, 'ledger-service migrations');
}
