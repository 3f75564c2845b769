/** Creating the throw-away Postgres databases of tests and benchmarks (through the server's `postgres` database). */
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
