/**
 * Runs before the test files (tap `before`; scripts/test.sh runs it once per `npm test` and tells
 * the tap runs after it so, TEST_SETUP_DONE=1): the test database, migrated. TEST_DATABASE_URL names
 * it (default postgres://postgres@127.0.0.1:5432/ledger_test).
 *
 * Migrations run once per run, on a template database beside it (`<name>_template`,
 * scripts/database.ts): the test database, and any database a test file needs migrated, is a
 * copy of the template (CREATE DATABASE … TEMPLATE: under a second, where migrating a fresh
 * database takes several). Tests isolate themselves by creating their own companies, so a test
 * database is reused between runs (and only migrated forward); TEST_DB_RESET=1 (set by CI)
 * makes the template afresh and the test database a new copy of it. Dropping is opt-in because
 * a forced drop would kill another test run using the same database. Both are set for commits
 * that do not wait for the disk (`synchronous_commit = off`, scripts/database.ts relaxCommits).
 */
import { createDb } from '../ledger-service/src/db/knex.ts';
import { migrateLatest } from '../ledger-service/src/db/migrate.ts';
import {
  copyOfTemplate,
  databaseExists,
  ensureDatabase,
  recreateDatabase,
  relaxCommits,
  templateUrl,
} from './database.ts';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';
const name = new URL(url).pathname.slice(1);

async function migrate(target: string): Promise<void> {
  const db = createDb(target);
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

if (process.env.TEST_SETUP_DONE === '1') {
  console.log(`test database ${name} ready (set up at the start of this run)`);
} else {
  const template = templateUrl(url);
  const reset = process.env.TEST_DB_RESET === '1';
  if (reset) await recreateDatabase(template);
  else await ensureDatabase(template);
  // commits that do not wait for the disk, in the template's migrations and in the test database
  // (scripts/database.ts relaxCommits)
  await relaxCommits(template);
  await migrate(template);
  const copied = reset || !(await databaseExists(url));
  if (copied) await copyOfTemplate(url, template);
  else {
    await relaxCommits(url);
    await migrate(url);
  }
  const how = copied ? `a copy of ${new URL(template).pathname.slice(1)}` : 'migrated forward';
  console.log(`test database ${name} ready (${how})`);
}
