/**
 * eachStore (helpers.ts): a store-dependent test runs once on each store, SQLite with its limits
 * in memory and Postgres (a schema of its own) with its limits in Redis, and the stack it starts
 * really keeps its state there (docs/testing.md "The gateway's two stores").
 */
import t from 'tap';
import { DEFAULT_STORE, eachStore, REPLICA_STORE } from './helpers.ts';

const ran: string[] = [];

eachStore(t, 'the stack of each store', async (t, { store, startStack }) => {
  const stack = await startStack(t);
  const { config, db } = stack.gateway.deps;
  ran.push(store.name);
  if (store.db === 'postgres') {
    t.match(config.databaseUrl, /search_path/, 'Postgres, in a schema of its own');
    t.equal(db.client.config.client, 'pg');
    const { rows } = await db.raw<{ rows: { schema: string }[] }>('select current_schema() as schema');
    t.match(rows[0]!.schema, /^gw_/, 'its tables are in that schema');
    t.equal(config.redisUrl, REPLICA_STORE.redisUrl, 'the limits in Redis');
  } else {
    t.equal(config.databaseUrl, undefined, 'no Postgres');
    t.equal(db.client.config.client, 'better-sqlite3', 'SQLite');
    t.equal(config.redisUrl, undefined, 'the limits in memory');
  }
});

t.test('each store once, in order', async (t) => {
  const replicaEverywhere = DEFAULT_STORE.db === 'postgres' && DEFAULT_STORE.redisUrl !== undefined;
  t.same(ran, replicaEverywhere ? [DEFAULT_STORE.name] : ['SQLite', 'Postgres with Redis']);
});
