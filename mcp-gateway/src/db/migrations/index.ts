import type { Knex } from 'knex';
import { listedMigrations, type MigrationModule } from '@ledger/shared/migrate';
import * as m001 from './001_oauth.ts';
import * as m002 from './002_one_active_connection.ts';
import * as m003 from './003_person_settings.ts';

/**
 * Migrations are listed here rather than discovered on disk, so they load the same way
 * under tsx, in tests and from the CLI. Append new ones at the end.
 */
const migrations: Record<string, MigrationModule> = {
  '001_oauth': m001,
  '002_one_active_connection': m002,
  '003_person_settings': m003,
};

export const migrationSource: Knex.MigrationSource<string> = listedMigrations(migrations);
