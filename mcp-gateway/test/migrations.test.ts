import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import pg from 'pg';
import t from 'tap';
import { openDb, type Db } from '../src/db/knex.ts';
import { migrationSource } from '../src/db/migrations/index.ts';
import { TEST_DATABASE_URL } from '../../ledger-service/test/helpers.ts';

type Asserts = Pick<typeof t, 'same'>;

/**
 * Before 002, one person could have several active connections of one app to one company
 * (with different access): two of user 7's to acme, one of user 8's.
 */
async function insertSideBySide(db: Db, now: number): Promise<void> {
  const base = {
    user_name: 'P',
    user_email: 'p@x',
    dataset: 'acme',
    resource: 'https://x/mcp/acme',
    client_id: 'dcr_side',
    client_name: 'C',
    state: 'active',
    last_used_at: now,
  };
  await db('connections').insert([
    {
      ...base,
      id: '00000000-0000-0000-0000-0000000000a1',
      user_id: 7,
      scopes: 'accounting:read',
      created_at: now - 2000,
    },
    {
      ...base,
      id: '00000000-0000-0000-0000-0000000000a2',
      user_id: 7,
      scopes: 'accounting:read bank:read',
      created_at: now - 1000,
    },
    {
      ...base,
      id: '00000000-0000-0000-0000-0000000000b1',
      user_id: 8,
      scopes: 'accounting:read',
      created_at: now - 2000,
    },
  ]);
}

/** 002 kept the newest of each person's side-by-side connections and ended the others as replaced by it. */
async function checkSideBySideEnded(t: Asserts, db: Db): Promise<void> {
  const rows = await db('connections')
    .whereIn('user_id', [7, 8])
    .orderBy('id')
    .select('id', 'state', 'end_reason', 'replaced_by');
  t.same(
    rows,
    [
      {
        id: '00000000-0000-0000-0000-0000000000a1',
        state: 'ended',
        end_reason: 'replaced',
        replaced_by: '00000000-0000-0000-0000-0000000000a2',
      },
      { id: '00000000-0000-0000-0000-0000000000a2', state: 'active', end_reason: null, replaced_by: null },
      { id: '00000000-0000-0000-0000-0000000000b1', state: 'active', end_reason: null, replaced_by: null },
    ],
    'side-by-side connections: the newest kept, the others replaced by it',
  );
}

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

  await db.migrate.up({ migrationSource });
  const now = Date.now();
  await insertSideBySide(db, now);
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  t.same(applied, ['002_one_active_connection', '003_person_settings']);
  await checkSideBySideEnded(t, db);
  const tables = await db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
  for (const table of ['oauth_clients', 'sessions', 'connections', 'authorization_codes', 'tokens'])
    t.ok(tables.includes(table), table);
  await db('connections').insert({
    id: '00000000-0000-0000-0000-000000000001',
    user_id: 1,
    user_name: 'A',
    user_email: 'a@x',
    dataset: 'acme',
    resource: 'https://x/mcp/acme',
    client_id: 'https://c.example/c.json',
    client_name: 'C',
    scopes: 'accounting:read',
    state: 'active',
    created_at: now,
    last_used_at: now,
  });
  await db('tokens').insert({
    token_hash: 'h'.repeat(64),
    connection_id: '00000000-0000-0000-0000-000000000001',
    kind: 'access',
    created_at: now,
    expires_at: now + 1,
  });
  t.equal(Number((await db('connections').first())?.last_used_at), now, 'epoch milliseconds fit');
  await db.migrate.rollback({ migrationSource }, true);
  t.notOk(await db.schema.hasTable('connections'), 'down migration works');
});

t.test('002 on SQLite: side-by-side connections of one app end as replaced, the index refuses new ones', async (t) => {
  const db = openDb(':memory:');
  t.teardown(() => db.destroy());
  await db.migrate.up({ migrationSource });
  await insertSideBySide(db, Date.now());
  await db.migrate.latest({ migrationSource });
  await checkSideBySideEnded(t, db);
  const active = await db('connections').where({ id: '00000000-0000-0000-0000-0000000000a2' }).first();
  await t.rejects(
    db('connections').insert({ ...active, id: '00000000-0000-0000-0000-0000000000a3' }),
    'a second active one is refused',
  );
  await db.migrate.rollback({ migrationSource }, true);
  t.notOk(await db.schema.hasTable('connections'), 'down migrations work');
});
