/**
 * Runs once before the test files (tap `before`): a fresh test database, migrated.
 * TEST_DATABASE_URL names it (default postgres://postgres@127.0.0.1:5432/ledger_test).
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
await client.query(`drop database if exists "${name}" with (force)`);
await client.query(`create database "${name}"`);
await client.end();

const db = createDb(url.toString());
await migrateLatest(db);
await db.destroy();
console.log(`test database ${name} ready`);
