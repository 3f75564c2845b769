import type { Knex } from 'knex';

/** A pg client as knex's `acquireRawConnection` hands it out (only what is used here). */
type RawPgConnection = { query(text: string, values?: unknown[]): Promise<unknown> };

/**
 * Applies pending migrations; replicas starting together on one Postgres wait for each
 * other. knex's own migration lock is a row that a second migrator finds taken and then
 * fails with `MigrationLocked` (and two first starts race to create knex's bookkeeping
 * tables), so on Postgres the whole `migrate.latest` runs under a session advisory lock
 * named by `lockName`: the next replica blocks in Postgres for as long as the first one
 * needs, then finds nothing left to do. The lock sits on a connection of its own, outside
 * the pool, so a pool of one (the embedded database, the CLI) still has its connection for
 * the migrations; the lock ends with that connection even if the process dies. SQLite is
 * one process's file and needs no lock.
 *
 * Most starts have nothing to migrate: when knex's bookkeeping already lists exactly the
 * source's migrations, one query answers that and neither the lock nor knex's own checks
 * (a dozen round trips, a good part of a start on the embedded database) are needed. Anything
 * else — no bookkeeping yet, a pending migration, an applied one the source does not know —
 * takes the full path, which also reports the last case as knex does.
 */
export async function migrateSerialised(
  db: Knex,
  migrationSource: Knex.MigrationSource<unknown>,
  lockName: string,
): Promise<string[]> {
  if (await upToDate(db, migrationSource)) return [];
  const latest = async () => ((await db.migrate.latest({ migrationSource })) as [number, string[]])[1];
  if (!isPostgres(db)) return latest();
  const lockHolder = (await db.client.acquireRawConnection()) as RawPgConnection;
  try {
    await lockHolder.query('select pg_advisory_lock(hashtext($1))', [lockName]);
    return await latest();
  } finally {
    // Closing the connection releases the session lock as well; unlocking first is only politeness.
    await lockHolder.query('select pg_advisory_unlock(hashtext($1))', [lockName]).catch(() => undefined);
    await db.client.destroyRawConnection(lockHolder);
  }
}

/** knex's bookkeeping (table `knex_migrations`) lists exactly the migrations of the source. */
async function upToDate(db: Knex, source: Knex.MigrationSource<unknown>): Promise<boolean> {
  const names = (await source.getMigrations([])).map((m) => source.getMigrationName(m));
  let applied: string[];
  try {
    applied = await db('knex_migrations').pluck('name');
  } catch {
    return false; // no bookkeeping table yet: the first migration of this database
  }
  const known = new Set(names);
  return applied.length === known.size && applied.every((name) => known.has(name));
}

/** The knex instance talks to Postgres (else SQLite here). */
export function isPostgres(db: Knex): boolean {
  const client = (db.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}

/** A migration module: what knex runs up (and down). */
export type MigrationModule = { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> };

/**
 * A knex migration source over a list written in code (name → module, in order) rather than
 * files discovered on disk, so migrations load the same way under tsx, in tests, from the
 * CLI and bundled. Both services list theirs this way.
 */
export function listedMigrations(migrations: Readonly<Record<string, MigrationModule>>): Knex.MigrationSource<string> {
  return {
    async getMigrations() {
      return Object.keys(migrations);
    },
    getMigrationName(name) {
      return name;
    },
    async getMigration(name) {
      return migrations[name]!;
    },
  };
}
