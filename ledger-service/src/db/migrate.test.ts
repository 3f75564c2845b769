/**
 * Ledger replicas starting together on a fresh database: knex alone lets the second migrator
 * fail with MigrationLocked; under the advisory lock every replica waits, one migrates, all
 * start on the current schema. One replica has a pool of one connection (the embedded
 * database's size), which must not deadlock against the lock.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { createDb } from './knex.ts';
import { migrateLatest } from './migrate.ts';
import { migrationSource } from './migrations/index.ts';
import { recreateDatabase } from '../../../scripts/database.ts';
import { TEST_DATABASE_URL } from '../../test/helpers.ts';

t.test('three ledgers migrating one fresh database at once: the migrations run once, every one starts', async (t) => {
  const all = await migrationSource.getMigrations([]);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${url.pathname.slice(1)}_migrate_${randomBytes(4).toString('hex')}`;
  await recreateDatabase(url.toString());
  const dbs = [createDb(url.toString(), { poolMax: 1 }), createDb(url.toString()), createDb(url.toString())];
  t.teardown(async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
    const admin = createDb(Object.assign(new URL(url), { pathname: '/postgres' }).toString(), { poolMax: 1 });
    await admin.raw(`drop database if exists ?? with (force)`, [url.pathname.slice(1)]);
    await admin.destroy();
  });

  const applied = await Promise.all(dbs.map((db) => migrateLatest(db)));
  t.same(
    applied.map((names) => names.length).sort((x, y) => x - y),
    [0, 0, all.length],
    'one ledger applied every migration, the others none',
  );
  for (const db of dbs) t.ok(await db.schema.hasTable('companies'), 'the schema is there for each');
  const { rows } = await dbs[0]!.raw(
    `select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from ` +
      `pg_database where datname = current_database())`,
  );
  t.equal(rows[0].n, 0, 'no advisory lock is left behind');
  t.same(await Promise.all(dbs.map((db) => migrateLatest(db))), [[], [], []], 'a later start finds nothing to do');
});
