/**
 * Ledger configuration from the environment (DESIGN.md §7). A malformed value is a
 * ConfigError; entry points print it on one line and exit with code 2.
 */
export class ConfigError extends Error {}

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
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const isPort = name.endsWith('PORT');
  if (!/^\d+$/.test(raw) || (isPort && Number(raw) > 65535)) {
    throw new ConfigError(`${name} must be ${isPort ? 'a port number' : 'a non-negative integer'}, got "${raw}"`);
  }
  return Number(raw);
}

function url(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const raw = env[name] ?? fallback;
  if (raw === undefined || raw === '') return undefined;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  return raw.replace(/\/$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LedgerConfig {
  const level = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${level}"`);
  }
  const databaseUrl = url(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL`);
  }
  return {
    databaseUrl,
    dataDir: env.DATA_DIR ?? './data',
    port: int(env, 'LEDGER_PORT', 3001),
    host: env.LEDGER_HOST ?? '127.0.0.1',
    publicUrl: url(env, 'PUBLIC_URL', 'http://localhost:3000')!,
    logLevel: level,
    jsonLimit: int(env, 'LEDGER_JSON_LIMIT', 15 * 1024 * 1024),
    fileLimit: int(env, 'LEDGER_FILE_LIMIT', 10 * 1024 * 1024),
    encryptionKey: env.LEDGER_ENCRYPTION_KEY || undefined,
    gatewayPublicJwk: env.GATEWAY_PUBLIC_JWK || undefined,
  };
}
