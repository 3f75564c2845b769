/**
 * The gateway's typed rows (src/db/tables.ts) hold: the row types name exactly the columns the
 * migrations make (compared with a migrated SQLite store), and the compiler refuses a wrong column
 * through knex's builder (`npm run typecheck` compiles this file: each `@ts-expect-error` below
 * must meet an error, or the typecheck fails).
 */
import t from 'tap';
import { migrateLatest, openDb, type Db } from '../src/db/knex.ts';
import type { GatewayTables } from '../src/db/tables.ts';

/** Every column of every row type, by table; the types below make it complete and exact. */
const COLUMNS = {
  oauth_clients: ['client_id', 'client_name', 'redirect_uris', 'verified_host', 'metadata', 'created_at'],
  sessions: ['id_hash', 'user_id', 'user_name', 'user_email', 'created_at', 'expires_at'],
  connections: [
    'id',
    'user_id',
    'user_name',
    'user_email',
    'dataset',
    'resource',
    'client_id',
    'client_name',
    'verified_host',
    'scopes',
    'state',
    'end_reason',
    'created_at',
    'last_used_at',
    'ended_at',
    'replaced_by',
  ],
  authorization_codes: [
    'code_hash',
    'client_id',
    'client_name',
    'verified_host',
    'user_id',
    'user_name',
    'user_email',
    'dataset',
    'resource',
    'scopes',
    'redirect_uri',
    'redirect_uri_sent',
    'code_challenge',
    'created_at',
    'expires_at',
    'used_at',
    'replayed',
    'connection_id',
  ],
  tokens: ['token_hash', 'connection_id', 'kind', 'created_at', 'expires_at', 'used_at'],
  person_settings: ['user_id', 'language', 'updated_at'],
} as const satisfies { [T in keyof GatewayTables]: readonly (keyof GatewayTables[T])[] };

/** A column a row type has and COLUMNS lacks: the table's entry here is that column's name, not `never`. */
type Missing = { [T in keyof GatewayTables]: Exclude<keyof GatewayTables[T], (typeof COLUMNS)[T][number]> };
type AllNever<M extends { [K in keyof M]: never }> = M;
export type ColumnsComplete = AllNever<Missing>;

t.test('each table of the migrated store has a row type naming exactly its columns', async (t) => {
  const db = openDb(':memory:');
  t.teardown(() => db.destroy());
  await migrateLatest(db);
  const tables: { name: string }[] = await db.raw(
    `select name from sqlite_master where type = 'table' and name not like 'knex%' and name not like 'sqlite%'`,
  );
  const typed = new Map<string, readonly string[]>(Object.entries(COLUMNS));
  t.same(tables.map((r) => r.name).sort(), [...typed.keys()].sort(), 'the same tables (a new table gets its row type)');
  for (const { name } of tables) {
    const columns: { name: string }[] = await db.raw(`select name from pragma_table_info(?)`, [name]);
    t.same([...(typed.get(name) ?? [])].sort(), columns.map((c) => c.name).sort(), `${name}: the same columns`);
  }
});

/** Compiled, never run: what the typed builder refuses. */
export async function refusedByTheCompiler(db: Db): Promise<void> {
  const connection = await db('connections').where({ id: 'c' }).first();
  // @ts-expect-error a column the row has not (a renamed column reads like this)
  connection?.scope;
  // @ts-expect-error a filter on a column the table has not
  await db('tokens').where({ token: 'x' });
  // @ts-expect-error an update of a column the table has not
  await db('sessions').where({ id_hash: 'x' }).update({ expires: 1 });
  const [code] = await db('authorization_codes')
    .where({ code_hash: 'x' })
    .update({ replayed: true })
    .returning(['client_id']);
  // @ts-expect-error only the returned columns come back
  code?.scopes;
}
