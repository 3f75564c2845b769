/**
 * ensureRole (roles.ts) on a cluster where another migration is creating the same role at the
 * same moment: the second one waits for the first's commit and then takes the unique violation
 * as "it exists" instead of failing its migration. Made deterministic: the first creation is
 * held open in a transaction until the second is seen waiting on it.
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { createDb } from './knex.ts';
import { ensureRole } from './roles.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/ledger_test';

t.test('a role created by another session at the same moment', async (t) => {
  const first = createDb(TEST_DATABASE_URL);
  const second = createDb(TEST_DATABASE_URL);
  const role = `roles_test_${randomBytes(4).toString('hex')}`;
  t.teardown(async () => {
    await first.raw(`drop role if exists ${role}`);
    await first.destroy();
    await second.destroy();
  });

  const trx = await first.transaction();
  await trx.raw(`create role ${role} nologin`);
  const racing = ensureRole(second, role).then(
    () => null,
    (e: unknown) => e,
  );
  // the second session's create waits on the first's uncommitted row in pg_authid
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await first.raw<{ rows: { waiting: number }[] }>(
      `select count(*)::int as waiting from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%create role ${role}%' and pid <> pg_backend_pid()`,
    );
    if (rows[0]!.waiting > 0) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await trx.commit();
  t.equal(await racing, null, 'the second migration went on');
  const { rows } = await first.raw<{ rows: { n: number }[] }>(
    'select count(*)::int as n from pg_roles where rolname = ?',
    [role],
  );
  t.equal(rows[0]!.n, 1, 'one role');
  await ensureRole(second, role);
  t.pass('and once more when it exists');
});

t.test('only plain role names', async (t) => {
  const db = createDb(TEST_DATABASE_URL);
  t.teardown(() => db.destroy());
  await t.rejects(ensureRole(db, 'x; drop table companies'), /not a plain role name/);
});
