import type { Db } from './knex.ts';
import { migrationSource } from './migrations/index.ts';

/** Brings the schema up to date; safe to run concurrently (knex takes a lock). */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, names] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return names;
}
