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
 */
export async function migrateSerialised(
  db: Knex,
  migrationSource: Knex.MigrationSource<unknown>,
  lockName: string,
): Promise<string[]> {
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

/** The knex instance talks to Postgres (else SQLite here). */
export function isPostgres(db: Knex): boolean {
  const client = (db.client as { config?: { client?: unknown } }).config?.client;
  return client === 'pg' || client === 'postgres' || client === 'postgresql';
}
