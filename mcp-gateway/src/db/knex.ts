import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrateSerialised } from '@ledger/shared/migrate';
import { migrationSource } from './migrations/index.ts';

export type Db = Knex;

/**
 * Where the gateway keeps its state: a SQLite file for one process (the default), or
 * Postgres (GATEWAY_DATABASE_URL) for several replicas sharing clients, codes, tokens,
 * connections and sessions. Both run the same knex migrations and the same queries; every
 * state change that must happen once (code redemption, refresh rotation, connection ending)
 * is one conditional UPDATE, which both engines serialise per row.
 */
export type GatewayStore = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** The store a configuration names: Postgres when a database URL is set, else the SQLite file. */
export function storeOf(config: { databaseUrl?: string | undefined; dbFile: string }): GatewayStore {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'sqlite', file: config.dbFile };
}

/** Opens the store (a string is a SQLite file name). */
export function openDb(store: GatewayStore | string): Db {
  const s: GatewayStore = typeof store === 'string' ? { kind: 'sqlite', file: store } : store;
  return s.kind === 'postgres' ? openPostgres(s.url) : openSqlite(s.file);
}

/**
 * Postgres: a small pool per replica (the gateway's queries are short). A schema other than
 * `public` is chosen in the URL: `?options=-c%20search_path%3Dgateway`.
 */
function openPostgres(url: string): Db {
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 10 } });
}

/** The gateway's SQLite store (better-sqlite3), WAL mode, foreign keys on. */
function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
}

/** Applies pending migrations; replicas starting together on one Postgres wait for each other. */
export function migrateLatest(db: Db): Promise<string[]> {
  return migrateSerialised(db, migrationSource, 'mcp-gateway migrations');
}

/** Epoch milliseconds from a bigint column (Postgres returns strings). */
export function ms(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

/** A unique-index violation, on either store (Postgres SQLSTATE 23505, SQLite's constraint code). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
