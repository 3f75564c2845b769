import type { Context } from 'koa';
import type { Db } from '../db/knex.ts';
import type { LedgerConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { FileJobs } from '../untrusted/index.ts';

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
  /** the parsing threads of untrusted files (statements, inbox documents) */
  fileJobs: FileJobs;
  /** the clock of AI connections' confirmation tokens (kernel/confirmation.ts); default Date.now */
  now?: (() => number) | undefined;
}

/** The process's parsing threads, for a route that reads an uploaded file (set on the app context by createApp). */
export function fileJobsOf(ctx: Context): FileJobs {
  return (ctx as Context & { fileJobs: FileJobs }).fileJobs;
}

/** The company of an authenticated request (set by authentication, kernel/auth.ts), for a file's fair share. */
export function companyIdOf(ctx: Context): number | undefined {
  return (ctx.state.tenant as { company?: { id: number } } | undefined)?.company?.id;
}
