/**
 * Ledger configuration from the environment (docs/operations.md). The parsers are shared with
 * the gateway (shared/src/config.ts); a malformed value is a ConfigError, which entry
 * points print on one line and exit with code 2.
 */
import {
  ConfigError,
  readFlag,
  readLogLevel,
  readNonNegativeInt,
  readPort,
  readPositiveInt,
  readPublicUrl,
  readText,
  readUrl,
  type EnvVars,
} from '@ledger/shared/config';
import { DEFAULT_COMPANY_JOBS, DEFAULT_FILE_JOB_LIMITS } from './untrusted/limits.ts';
import { documentStoreFromEnv } from './modules/files/storage.ts';
import { DEFAULT_WEBHOOK_SENDERS } from './modules/events/settings.ts';
import { QUEUE_NAMES } from './db/queue.ts';
import { DEFAULT_MAX_WAIT_MS, DEFAULT_MAX_WAITING_BYTES, DEFAULT_WRITE_TURNS } from './kernel/companyTurns.ts';

export { ConfigError };

export interface LedgerConfig {
  /** unset: embedded PGlite under dataDir */
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  host: string;
  publicUrl: string;
  logLevel: string;
  /** largest accepted JSON body, bytes */
  jsonLimit: number;
  /** largest accepted file (attachment), bytes */
  fileLimit: number;
  /**
   * Untrusted files (statements, inbox documents) are parsed on worker threads
   * (untrusted/pool.ts): how many at once, and each job's time and V8 heap limit.
   */
  /** the parsing threads (untrusted/limits.ts); `startMs` is left at its default outside tests */
  fileJobs: { threads: number; timeoutMs: number; memoryMb: number; startMs?: number; companyJobs?: number };
  /** 32-byte key encrypting TOTP secrets at rest; from LEDGER_ENCRYPTION_KEY or ./data/ledger.key */
  encryptionKey: string | undefined;
  /** the gateway's public JWK (JSON) for service credentials; or read from dataDir */
  gatewayPublicJwk: string | undefined;
  /** SMTP server of outgoing e-mail (smtp:// or smtps://); unset: .eml files under <dataDir>/outbox/ */
  smtpUrl: string | undefined;
  /**
   * The pg-boss queue of outgoing e-mail. Every ledger on one database sends from it; ledgers
   * that share a database but must not send each other's mail (tests) name their own.
   */
  mailQueue: string;
  /** the pg-boss queue of inbox extraction jobs (modules/inbox); default `inbox_extract`; tests name their own */
  inboxQueue?: string;
  /** days an invitation to become a member stays open (LEDGER_INVITATION_DAYS; default 7, modules/members) */
  invitationDays?: number;
  /** write transactions of one company at once in this process (kernel/companyTurns.ts; 0: no limit) */
  writeTurns?: number;
  /** longest a write waits for its company's turn before a 503 (ms; kernel/companyTurns.ts) */
  writeWaitMs?: number;
  /** bytes of one company's writes waiting for a turn before a new one is refused with 503 */
  writeWaitingBytes?: number;
  /** how long a POST waits for another one holding its Idempotency-Key before a 409 (ms; default 10 s) */
  idempotencyWaitMs?: number;
  /**
   * Events and webhooks (modules/events, docs/events.md): how long events are kept (the feed's
   * cursors stay valid that long), whether webhook targets may be http/loopback/private
   * (WEBHOOKS_ALLOW_LOOPBACK=1, development and tests only), the pg-boss queue of deliveries.
   */
  events?: { retentionDays: number; allowLoopback: boolean; webhookQueue: string; senders?: number };
  /**
   * LEDGER_CLOCK: an ISO date-time that is "now" for the recurring-invoice job and for resuming a
   * recurring invoice — development and tests only (modules/recurring). Unset: the real clock.
   */
  clock?: string;
  /** seconds between the recurring-invoice job's rounds (LEDGER_RECURRING_INTERVAL, default 60; 0: no rounds) */
  recurringIntervalSeconds?: number;
}

export function loadConfig(env: EnvVars = process.env): LedgerConfig {
  const level = readLogLevel(env);
  const databaseUrl = readUrl(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL`);
  }
  const dataDir = readText(env, 'DATA_DIR') ?? './data';
  // read again where they are used (server.ts, secretKey.ts, serviceCredential.ts), but checked
  // here so that a bad value stops a start before anything is written
  documentStoreFromEnv(env, dataDir);
  return {
    databaseUrl,
    dataDir,
    port: readPort(env, 'LEDGER_PORT', 3001),
    host: readText(env, 'LEDGER_HOST') ?? '127.0.0.1',
    publicUrl: readPublicUrl(env),
    logLevel: level,
    jsonLimit: readNonNegativeInt(env, 'LEDGER_JSON_LIMIT', 15 * 1024 * 1024),
    fileLimit: readNonNegativeInt(env, 'LEDGER_FILE_LIMIT', 10 * 1024 * 1024),
    fileJobs: {
      threads: readPositiveInt(env, 'LEDGER_FILE_THREADS', DEFAULT_FILE_JOB_LIMITS.threads),
      timeoutMs: readPositiveInt(env, 'LEDGER_FILE_TIMEOUT_MS', DEFAULT_FILE_JOB_LIMITS.timeoutMs),
      memoryMb: readPositiveInt(env, 'LEDGER_FILE_MEMORY_MB', DEFAULT_FILE_JOB_LIMITS.memoryMb),
      companyJobs: readPositiveInt(env, 'LEDGER_FILE_COMPANY_JOBS', DEFAULT_COMPANY_JOBS),
    },
    writeTurns: readNonNegativeInt(env, 'LEDGER_WRITE_TURNS', DEFAULT_WRITE_TURNS),
    invitationDays: readPositiveInt(env, 'LEDGER_INVITATION_DAYS', 7),
    writeWaitMs: readPositiveInt(env, 'LEDGER_WRITE_WAIT_MS', DEFAULT_MAX_WAIT_MS),
    writeWaitingBytes: readPositiveInt(env, 'LEDGER_WRITE_WAITING_BYTES', DEFAULT_MAX_WAITING_BYTES),
    encryptionKey: readEncryptionKey(env),
    gatewayPublicJwk: readGatewayPublicJwk(env),
    smtpUrl: readSmtpUrl(env),
    mailQueue: readMailQueue(env),
    clock: readClock(env),
    recurringIntervalSeconds: readNonNegativeInt(env, 'LEDGER_RECURRING_INTERVAL', 60),
    events: {
      retentionDays: readPositiveInt(env, 'EVENTS_RETENTION_DAYS', 400),
      allowLoopback: readFlag(env, 'WEBHOOKS_ALLOW_LOOPBACK'),
      webhookQueue: readText(env, 'WEBHOOKS_QUEUE') ?? QUEUE_NAMES.webhooks,
      senders: readPositiveInt(env, 'WEBHOOKS_SENDERS', DEFAULT_WEBHOOK_SENDERS),
    },
  };
}

/** LEDGER_CLOCK: an ISO date-time with its zone (2026-04-01T06:00:00Z), or unset. */
function readClock(env: EnvVars): string | undefined {
  const raw = readText(env, 'LEDGER_CLOCK');
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) || Number.isNaN(Date.parse(raw)))
    throw new ConfigError('LEDGER_CLOCK must be an ISO date-time with its zone, e.g. 2026-04-01T06:00:00Z');
  return raw;
}

/** LEDGER_ENCRYPTION_KEY: 32 bytes, base64 (unset: a key file under DATA_DIR, secretKey.ts). */
function readEncryptionKey(env: EnvVars): string | undefined {
  const raw = readText(env, 'LEDGER_ENCRYPTION_KEY');
  if (raw !== undefined && Buffer.from(raw, 'base64').length !== 32)
    throw new ConfigError('LEDGER_ENCRYPTION_KEY must be 32 bytes, base64 encoded');
  return raw;
}

/** GATEWAY_PUBLIC_JWK: the gateway's Ed25519 public key as a JWK (unset: read from DATA_DIR). */
function readGatewayPublicJwk(env: EnvVars): string | undefined {
  const raw = readText(env, 'GATEWAY_PUBLIC_JWK');
  if (raw === undefined) return undefined;
  let jwk: Record<string, unknown> | undefined;
  try {
    jwk = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    jwk = undefined;
  }
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new ConfigError('GATEWAY_PUBLIC_JWK must be an Ed25519 public JWK (kty OKP, crv Ed25519, x)');
  }
  return raw;
}

/** `MAIL_QUEUE`: a pg-boss queue name (letters, digits, `_ - .`), default `QUEUE_NAMES.mail` (db/queue.ts). */
function readMailQueue(env: EnvVars): string {
  const name = readText(env, 'MAIL_QUEUE') ?? QUEUE_NAMES.mail;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
    throw new ConfigError('MAIL_QUEUE must be 1–64 letters, digits, "_", "-" or "."');
  return name;
}

function readSmtpUrl(env: EnvVars): string | undefined {
  const url = readUrl(env, 'SMTP_URL');
  if (url && !/^smtps?:\/\//.test(url)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  return url;
}
