/**
 * Creating the throw-away Postgres databases of tests and benchmarks (through the server's `postgres` database).
 * A test run migrates one template database once (`templateUrl`, scripts/test-setup.ts); a database a test
 * needs migrated is a copy of it (`copyOfTemplate`: CREATE DATABASE … TEMPLATE, under a second where
 * migrating a fresh database takes several), not a database migrated again.
 */
import pg from 'pg';

async function withAdmin<T>(url: string, fn: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const target = new URL(url);
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await fn(client, target.pathname.slice(1));
  } finally {
    await client.end();
  }
}

/** Drops (with force: it ends other sessions) and creates the database named in `url`. */
export async function recreateDatabase(url: string): Promise<void> {
  await withAdmin(url, async (client, name) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

/** Creates the database named in `url` unless it exists (safe when several runs race). */
export async function ensureDatabase(url: string): Promise<void> {
  await withAdmin(url, async (client, name) => {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount !== 0) return;
    await client.query(`create database "${name}"`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // created meanwhile by a parallel run
    });
  });
}

/** The template database of the test database named in `url`: the same name with `_template`. */
export function templateUrl(url: string): string {
  const template = new URL(url);
  template.pathname = `${template.pathname}_template`;
  return template.toString();
}

/**
 * (Re)creates the database named in `url` as a copy of the one named in `template` (which nobody
 * may be connected to meanwhile: only scripts/test-setup.ts connects to it, before the tests run).
 */
export async function copyOfTemplate(url: string, template: string): Promise<void> {
  const source = new URL(template).pathname.slice(1);
  await withAdmin(url, async (client, name) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}" template "${source}"`);
  });
  // a database's settings are not copied with it
  await relaxCommits(url);
}

/**
 * Marks the database named in `url` as a test database whose commits need not wait for the disk:
 * `synchronous_commit = off` for every session in it. A commit is still atomic, isolated and
 * visible to every other session at once; only a crash of the Postgres server itself could lose
 * the last few commits, which a test database does not care about. Measured on the CI machine
 * kind: 3.2 ms per single-row commit with the default, 0.16 ms without the wait, and the suite
 * commits tens of thousands of times (docs/testing.md "Databases from a template"). Not for
 * benchmarks: their figures are for a server as deployed.
 */
export async function relaxCommits(url: string): Promise<void> {
  await withAdmin(url, async (client, name) => {
    await client.query(`alter database "${name}" set synchronous_commit = off`);
  });
}

/** Whether the database named in `url` exists. */
export async function databaseExists(url: string): Promise<boolean> {
  return withAdmin(url, async (client, name) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    return found.rowCount !== 0;
  });
}
