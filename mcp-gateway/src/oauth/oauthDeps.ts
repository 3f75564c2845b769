/**
 * What the authorization server's routes need from the running gateway: the services of this
 * folder and the foundation below it. Declared here, not in deps.ts, because deps.ts builds
 * these services and so sits above oauth/ (the folder order of docs/architecture.md
 * "The gateway"); the gateway's OAuthDeps extends it.
 */
import type { GatewayConfig } from '../config.ts';
import type { Db } from '../db/knex.ts';
import type { LedgerClient } from '../ledgerClient.ts';
import type { Limiter } from '../limits.ts';
import type { Logger } from '../logger.ts';
import type { GatewayMetrics } from '../metrics.ts';
import type { ClientRegistry } from './clients.ts';
import type { ConnectionService } from './connections.ts';
import type { Sessions } from './session.ts';

export interface OAuthDeps {
  config: GatewayConfig;
  db: Db;
  log: Logger;
  ledger: LedgerClient;
  clients: ClientRegistry;
  connections: ConnectionService;
  sessions: Sessions;
  /** the clock, epoch ms (tests move it forward); the limits count in real time */
  now: () => number;
  /** dynamic client registration: 10 per hour per IP */
  registrationLimiter: Limiter;
  metrics: GatewayMetrics;
  /** the issuer (= the public origin) */
  issuer: string;
}
