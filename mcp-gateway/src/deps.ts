/** Everything the gateway's routes need, built once per running gateway. */
import { readFileSync } from 'node:fs';
import type { GatewayConfig } from './config.ts';
import type { Db } from './db/knex.ts';
import type { GatewayKeys } from './keys.ts';
import { LedgerClient } from './ledgerClient.ts';
import { memoryLimits, type LimitStore } from './limits.ts';
import type { Logger } from './logger.ts';
import { GatewayMetrics } from './metrics.ts';
import { Backoff, SIGN_IN_BACKOFF, type BackoffOptions } from './oauth/backoff.ts';
import { CimdFetcher } from './oauth/cimd.ts';
import { ClientRegistry } from './oauth/clients.ts';
import { ConnectionService } from './oauth/connections.ts';
import type { OAuthDeps } from './oauth/oauthDeps.ts';
import { Sessions } from './oauth/session.ts';

/** OAuthDeps (what the authorization server's routes use) and what the pages, the MCP endpoint and the origin add. */
export interface GatewayDeps extends OAuthDeps {
  keys: GatewayKeys;
  cimd: CimdFetcher;
  /** where the limits count: Redis (REDIS_URL) or process memory */
  limits: LimitStore;
  signInBackoff: { account: Backoff; ip: Backoff };
  /** the MCP endpoint answers single 2026-07-28 tools/calls itself (mcp/directCall.ts); tests turn it off */
  mcpDirectCalls: boolean;
}

export const REGISTRATIONS_PER_HOUR = 10;

export interface DepsOverrides {
  now?: () => number;
  /** TEST ONLY: a shorter time limit for client metadata document fetches than CIMD_LIMITS.timeoutMs */
  cimdTimeoutMs?: number;
  /** TEST ONLY: other backoff timings than SIGN_IN_BACKOFF (e.g. a 1 s block, to see it end) */
  signInBackoff?: { account?: Partial<BackoffOptions>; ip?: Partial<BackoffOptions> };
  /** TEST ONLY: the Redis key prefix (default `gw`), so tests sharing one Redis do not share counts */
  limitKeyPrefix?: string;
  /** TEST ONLY: `false` sends every MCP request through the SDK (mcp/directCall.ts), to compare answers */
  mcpDirectCalls?: boolean;
}

export function createDeps(
  input: {
    config: GatewayConfig;
    db: Db;
    log: Logger;
    keys: GatewayKeys;
    limits?: LimitStore;
    metrics?: GatewayMetrics;
  } & DepsOverrides,
): GatewayDeps {
  const { config, db, log, keys } = input;
  const now = input.now ?? Date.now;
  const limits = input.limits ?? memoryLimits();
  const ledger = new LedgerClient(config.ledgerUrl, keys);
  const cimd = new CimdFetcher({
    allowPrivate: config.cimdAllowPrivate,
    ca: config.cimdCaFile ? readFileSync(config.cimdCaFile, 'utf8') : undefined,
    timeoutMs: input.cimdTimeoutMs,
    log,
    now,
  });
  return {
    config,
    db,
    log,
    keys,
    ledger,
    cimd,
    now,
    limits,
    clients: new ClientRegistry(db, cimd, now),
    connections: new ConnectionService(db, ledger, now, log),
    sessions: new Sessions(db, config.publicUrl, keys.hmacSecret, now),
    signInBackoff: {
      account: new Backoff(limits, 'signin-account', { ...SIGN_IN_BACKOFF.account, ...input.signInBackoff?.account }),
      ip: new Backoff(limits, 'signin-ip', { ...SIGN_IN_BACKOFF.ip, ...input.signInBackoff?.ip }),
    },
    registrationLimiter: limits.limiter({ name: 'register', points: REGISTRATIONS_PER_HOUR, duration: 3600 }),
    metrics: input.metrics ?? new GatewayMetrics(),
    issuer: config.publicUrl,
    mcpDirectCalls: input.mcpDirectCalls ?? true,
  };
}
