/**
 * The token lookup's prepared read (preparedQuery.ts) on a SQLite file runs on its own
 * read-only connection: it answers while the store's one pooled connection is held by a
 * transaction, sees what was committed (not what a transaction has not), remembers its answers
 * only until the database changes, and works the same on an in-memory store through the pool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openDb } from '../src/db/knex.ts';
import { preparedQuery } from '../src/db/preparedQuery.ts';

t.test('a SQLite file: the read needs no pooled connection and sees only committed rows', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'prepared-'));
  const db = openDb(join(dir, 'gateway.sqlite'));
  t.teardown(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  await db.schema.createTable('things', (table) => {
    table.string('id').primary();
    table.string('name');
  });
  await db('things').insert({ id: 'a', name: 'first' });
  const find = preparedQuery<{ name: string }>(db, 'find_thing', 'select name from things where id = ?');
  t.same(await find(['a']), { name: 'first' });

  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let inTransaction!: () => void;
  const started = new Promise<void>((resolve) => {
    inTransaction = resolve;
  });
  const transaction = db.transaction(async (trx) => {
    await trx('things').insert({ id: 'b', name: 'uncommitted' });
    inTransaction();
    await held;
  });
  await started;
  const whileHeld = find(['a']);
  // answered at once, not by a promise: no pool turn, timer or I/O, nor a microtask (mcp/maybe.ts)
  t.notOk(whileHeld instanceof Promise, 'answered at once while the transaction holds the pool');
  t.same(whileHeld, { name: 'first' });
  t.equal(await find(['b']), undefined, 'a row of an open transaction is not seen');
  release();
  await transaction;
  t.same(await find(['b']), { name: 'uncommitted' }, 'seen once committed');
  // answers are remembered until the database changes (SQLite's data_version)
  t.equal(await find(['a']), await find(['a']), 'the same answer, remembered');
  await db('things').where({ id: 'a' }).update({ name: 'renamed' });
  t.same(await find(['a']), { name: 'renamed' }, 'a changed row is read again');
  await db('things').where({ id: 'b' }).delete();
  t.equal(await find(['b']), undefined, 'a deleted row is gone');
});

t.test('an in-memory store: the same read through the pool', async (t) => {
  const db = openDb(':memory:');
  t.teardown(() => db.destroy());
  await db.schema.createTable('things', (table) => {
    table.string('id').primary();
    table.string('name');
  });
  await db('things').insert({ id: 'a', name: 'first' });
  const find = preparedQuery<{ name: string }>(db, 'find_thing', 'select name from things where id = ?');
  t.same(await find(['a']), { name: 'first' });
  t.equal(await find(['z']), undefined);
});
