import type { Db } from '../db/knex.ts';
import type { LedgerConfig } from '../config.ts';
import type { Logger } from '../logger.ts';

/**
 * What the app and the routers it mounts are built from. In its own file so that the
 * routers (modules/meta, modules/internal) need not import app.ts, which imports them.
 */
export interface AppDeps {
  db: Db;
  config: LedgerConfig;
  log: Logger;
  /** key encrypting TOTP secrets (internal sign-in check) */
  encryptionKey: Buffer;
}
