/**
 * Runs once before the test files (tap `before`): the test database, created when missing
 * and migrated. TEST_DATABASE_URL names it (default postgres://postgres@127.0.0.1:5432/ledger_test).
 * Tests isolate themselves by creating their own companies, so a database is reused;
 * TEST_DB_RESET=1 (set by CI) drops and recreates it first. Dropping is opt-in because a
 * forced drop would kill another test run using the same database.
 */
import pg from 'pg';
import { createDb } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';

const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test');
const name = url.pathname.slice(1);
const admin = new URL(url);
admin.pathname = '/postgres';

const client = new pg.Client({ connectionString: admin.toString() });
await client.connect();
if (process.env.TEST_DB_RESET === '1') {
  await client.query(`drop database if exists "${name}" with (force)`);
}
const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
if (exists.rowCount === 0) {
  await client.query(`create database "${name}"`).catch((err: { code?: string }) => {
    if (err.code !== '42P04') throw err; // created meanwhile by a parallel run
  });
}
await client.end();

const db = createDb(url.toString());
await migrateLatest(db);
await db.destroy();
console.log(`test database ${name} ready`);
