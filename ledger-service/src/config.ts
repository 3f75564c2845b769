/**
 * Ledger configuration from the environment (DESIGN.md §7). The parsers are shared with
 * the gateway (shared/src/config.ts); a malformed value is a ConfigError, which entry
 * points print on one line and exit with code 2.
 */
import { ConfigError, readHttpBaseUrl, readLogLevel, readNonNegativeInt, readPort, readText, readUrl, type EnvVars } from '@ledger/shared';

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
  /** how long a POST waits for another one holding its Idempotency-Key before a 409 (ms; default 10 s) */
  idempotencyWaitMs?: number;
}

export function loadConfig(env: EnvVars = process.env): LedgerConfig {
  const level = readLogLevel(env);
  const databaseUrl = readUrl(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL`);
  }
  return {
    databaseUrl,
    dataDir: readText(env, 'DATA_DIR') ?? './data',
    port: readPort(env, 'LEDGER_PORT', 3001),
    host: readText(env, 'LEDGER_HOST') ?? '127.0.0.1',
    publicUrl: readHttpBaseUrl(env, 'PUBLIC_URL', 'http://localhost:3000'),
    logLevel: level,
    jsonLimit: readNonNegativeInt(env, 'LEDGER_JSON_LIMIT', 15 * 1024 * 1024),
    fileLimit: readNonNegativeInt(env, 'LEDGER_FILE_LIMIT', 10 * 1024 * 1024),
    encryptionKey: readText(env, 'LEDGER_ENCRYPTION_KEY'),
    gatewayPublicJwk: readText(env, 'GATEWAY_PUBLIC_JWK'),
    smtpUrl: readSmtpUrl(env),
    mailQueue: readMailQueue(env),
  };
}

/** `MAIL_QUEUE`: a pg-boss queue name (letters, digits, `_ - .`), default `mail_send`. */
function readMailQueue(env: EnvVars): string {
  const name = readText(env, 'MAIL_QUEUE') ?? 'mail_send';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new ConfigError('MAIL_QUEUE must be 1–64 letters, digits, "_", "-" or "."');
  return name;
}

function readSmtpUrl(env: EnvVars): string | undefined {
  const url = readUrl(env, 'SMTP_URL');
  if (url && !/^smtps?:\/\//.test(url)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  return url;
}
