/**
 * Runs once before the test files (tap `before`): the test database, created when missing
 * and migrated. TEST_DATABASE_URL names it (default postgres://postgres@127.0.0.1:5432/ledger_test).
 * Tests isolate themselves by creating their own companies, so a database is reused;
 * TEST_DB_RESET=1 (set by CI) drops and recreates it first. Dropping is opt-in because a
 * forced drop would kill another test run using the same database.
 */
import { createDb } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import { ensureDatabase, recreateDatabase } from './database.ts';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';
if (process.env.TEST_DB_RESET === '1') await recreateDatabase(url);
else await ensureDatabase(url);

const db = createDb(url);
await migrateLatest(db);
await db.destroy();
console.log(`test database ${new URL(url).pathname.slice(1)} ready`);
