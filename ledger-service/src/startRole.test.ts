/**
 * The start refuses a database set-up where the role the requests would run as could bypass
 * row-level security, and says which role (db/tenantTransaction.ts servingRole).
 */
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { createDb } from './db/knex.ts';
import { startLedger } from './server.ts';
import { TEST_DATABASE_URL, testConfig } from '../test/helpers.ts';

t.test('a ledger whose URL user could bypass row-level security, and cannot switch, does not start', async (t) => {
  const admin = createDb(TEST_DATABASE_URL, { poolMax: 1 });
  t.teardown(() => admin.destroy());
  const role = `tenancy_${randomBytes(4).toString('hex')}`;
  await admin.raw(`create role ${role} login nosuperuser bypassrls`);
  t.teardown(() => admin.raw(`drop role if exists ${role}`));
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  const started = startLedger({ config: testConfig({ databaseUrl: url.toString() }), mail: false, webhooks: false });
  await t.rejects(started, { name: 'UnsafeServingRole', message: new RegExp(`role "${role}" could bypass`) });
});
