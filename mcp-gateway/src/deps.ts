/** Everything the gateway's routes need, built once per running gateway. */
import { readFileSync } from 'node:fs';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from './config.ts';
import type { Db } from './db/knex.ts';
import type { GatewayKeys } from './keys.ts';
import { LedgerClient } from './ledgerClient.ts';
import type { Logger } from './logger.ts';
import { Backoff, SIGN_IN_BACKOFF } from './oauth/backoff.ts';
import { CimdFetcher } from './oauth/cimd.ts';
import { ClientRegistry } from './oauth/clients.ts';
import { ConnectionService } from './oauth/connections.ts';
import { Sessions } from './oauth/session.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  db: Db;
  log: Logger;
  keys: GatewayKeys;
  ledger: LedgerClient;
  cimd: CimdFetcher;
  clients: ClientRegistry;
  connections: ConnectionService;
  sessions: Sessions;
  /** the clock, epoch ms (tests move it forward) */
  now: () => number;
  signInBackoff: { account: Backoff; ip: Backoff };
  /** dynamic client registration: 10 per hour per IP */
  registrationLimiter: RateLimiterMemory;
  /** the issuer (= the public origin) */
  issuer: string;
}

export const REGISTRATIONS_PER_HOUR = 10;

export interface DepsOverrides {
  now?: () => number;
  /** TEST ONLY: a shorter time limit for client metadata document fetches than CIMD_LIMITS.timeoutMs */
  cimdTimeoutMs?: number;
}

export function createDeps(input: { config: GatewayConfig; db: Db; log: Logger; keys: GatewayKeys } & DepsOverrides): GatewayDeps {
  const { config, db, log, keys } = input;
  const now = input.now ?? Date.now;
  const ledger = new LedgerClient(config.ledgerUrl, keys);
  const cimd = new CimdFetcher({
    allowPrivate: config.cimdAllowPrivate,
    ca: config.cimdCaFile ? readFileSync(config.cimdCaFile, 'utf8') : undefined,
    timeoutMs: input.cimdTimeoutMs,
    log,
  });
  return {
    config, db, log, keys, ledger, cimd, now,
    clients: new ClientRegistry(db, cimd, now),
    connections: new ConnectionService(db, ledger, now),
    sessions: new Sessions(db, config.publicUrl, keys.hmacSecret, now),
    signInBackoff: { account: new Backoff(SIGN_IN_BACKOFF.account, now), ip: new Backoff(SIGN_IN_BACKOFF.ip, now) },
    registrationLimiter: new RateLimiterMemory({ points: REGISTRATIONS_PER_HOUR, duration: 3600 }),
    issuer: config.publicUrl,
  };
}
