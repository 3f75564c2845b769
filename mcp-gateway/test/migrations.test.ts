import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import pg from 'pg';
import t from 'tap';
import { migrationSource } from '../src/db/migrations/index.ts';
import { TEST_DATABASE_URL } from '../../ledger-service/test/helpers.ts';

/** The gateway's migrations also run on Postgres (for several replicas sharing state later). */
t.test('gateway migrations on Postgres', async (t) => {
  const name = `gateway_mig_${randomBytes(4).toString('hex')}`;
  const admin = new URL(TEST_DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database "${name}"`);
  t.teardown(async () => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  });
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 2 } });
  t.teardown(() => db.destroy());

  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  t.same(applied, ['001_oauth']);
  const tables = await db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
  for (const table of ['oauth_clients', 'sessions', 'connections', 'authorization_codes', 'tokens']) t.ok(tables.includes(table), table);
  const now = Date.now();
  await db('connections').insert({
    id: '00000000-0000-0000-0000-000000000001', user_id: 1, user_name: 'A', user_email: 'a@x', dataset: 'acme', resource: 'https://x/mcp/acme',
    client_id: 'https://c.example/c.json', client_name: 'C', scopes: 'accounting:read', state: 'active', created_at: now, last_used_at: now,
  });
  await db('tokens').insert({ token_hash: 'h'.repeat(64), connection_id: '00000000-0000-0000-0000-000000000001', kind: 'access', created_at: now, expires_at: now + 1 });
  t.equal(Number((await db('connections').first()).last_used_at), now, 'epoch milliseconds fit');
  await db.migrate.rollback({ migrationSource }, true);
  t.notOk(await db.schema.hasTable('connections'), 'down migration works');
});
