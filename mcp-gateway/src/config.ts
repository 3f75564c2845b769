/**
 * Gateway configuration from the environment (docs/operations.md). The parsers are shared with
 * the ledger (shared/src/config.ts); a malformed value is a ConfigError, which entry points
 * print on one line and exit with code 2.
 */
import {
  ConfigError,
  readFlag,
  readHttpBaseUrl,
  readLogLevel,
  readPort,
  readPositiveInt,
  readPublicUrl,
  readText,
  readUrl,
  type EnvVars,
} from '@ledger/shared/config';

export { ConfigError };

export interface GatewayConfig {
  /** the public origin `{api_url}`, without a trailing slash; also the OAuth issuer */
  publicUrl: string;
  port: number;
  host: string;
  ledgerUrl: string;
  /** SQLite file of the gateway's own store (used when databaseUrl is unset) */
  dbFile: string;
  /** GATEWAY_DATABASE_URL: the gateway's state on Postgres, shared by several replicas */
  databaseUrl: string | undefined;
  /** REDIS_URL: registration limit, sign-in backoff and MCP rate limit shared by several replicas */
  redisUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  /** the gateway's private Ed25519 JWK (JSON); unset: `<dataDir>/gateway-private.jwk`, created on first start */
  privateJwk: string | undefined;
  /**
   * TRUST_PROXY: how many reverse proxies in front of the gateway append to X-Forwarded-For
   * (0 = none: the client IP is the socket's peer and X-Forwarded-For is never read).
   * The client IP is the address that many hops from the right (src/http/clientIp.ts).
   */
  trustProxy: number;
  /** GATEWAY_METRICS_PORT: the /metrics listener's port (0 = any free port); undefined = off */
  metricsPort: number | undefined;
  /** GATEWAY_METRICS_HOST: the /metrics listener's address (default 127.0.0.1, never the public one unless asked) */
  metricsHost: string;
  /**
   * TEST ONLY (GATEWAY_TEST_CIMD_ALLOW_PRIVATE=1): client metadata documents may be fetched
   * from loopback and private addresses. Never set in production.
   */
  cimdAllowPrivate: boolean;
  /** TEST ONLY (GATEWAY_TEST_CIMD_CA): a PEM CA file trusted for client metadata fetches */
  cimdCaFile: string | undefined;
  /**
   * In front of the embedded demo database (`npm start` without DATABASE_URL sets it; no
   * variable): the sign-in page says where the demo's authenticator code comes from.
   */
  demo?: boolean;
  /**
   * MCP requests per minute per connection (MCP_RATE_LIMIT, default 120 as docs/mcp.md promises; raised only for
   * benchmarks)
   */
  mcpRateLimit: number;
}

export function loadConfig(env: EnvVars = process.env): GatewayConfig {
  const logLevel = readLogLevel(env);
  const dataDir = readText(env, 'DATA_DIR') ?? './data';
  const privateJwk = readText(env, 'GATEWAY_PRIVATE_JWK');
  if (privateJwk) {
    let ok = false;
    try {
      const jwk = JSON.parse(privateJwk) as Record<string, unknown>;
      ok = jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.d === 'string' && typeof jwk.x === 'string';
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError('GATEWAY_PRIVATE_JWK must be an Ed25519 private JWK (kty OKP, crv Ed25519, d, x)');
  }
  return {
    publicUrl: readPublicUrl(env),
    port: readPort(env, 'PORT', 3000),
    host: readText(env, 'HOST') ?? '0.0.0.0',
    ledgerUrl: readHttpBaseUrl(env, 'LEDGER_URL', 'http://127.0.0.1:3001'),
    dbFile: readText(env, 'GATEWAY_DB') ?? `${dataDir.replace(/\/+$/, '')}/gateway.sqlite`,
    databaseUrl: readSchemeUrl(env, 'GATEWAY_DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: readSchemeUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataDir,
    logLevel,
    privateJwk,
    trustProxy: readTrustProxy(env),
    metricsPort: readMetricsPort(env),
    metricsHost: readText(env, 'GATEWAY_METRICS_HOST') ?? '127.0.0.1',
    cimdAllowPrivate: readFlag(env, 'GATEWAY_TEST_CIMD_ALLOW_PRIVATE'),
    cimdCaFile: readText(env, 'GATEWAY_TEST_CIMD_CA'),
    mcpRateLimit: readPositiveInt(env, 'MCP_RATE_LIMIT', 120),
  };
}

/** A URL of one of the given schemes, or undefined when unset. */
function readSchemeUrl(env: EnvVars, name: string, schemes: readonly string[]): string | undefined {
  const url = readUrl(env, name);
  if (url !== undefined && !schemes.includes(new URL(url).protocol)) {
    throw new ConfigError(`${name} must be a ${schemes.map((s) => s.slice(0, -1)).join(' or ')} URL`);
  }
  return url;
}

/** TRUST_PROXY: unset, 0 or false = no proxy; true = 1; else the number of proxies (1 to 10). */
function readTrustProxy(env: EnvVars): number {
  const raw = readText(env, 'TRUST_PROXY');
  if (raw === undefined || raw === '0' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  if (/^([1-9]|10)$/.test(raw)) return Number(raw);
  throw new ConfigError(
    `TRUST_PROXY must be 0/false, true, or the number of proxies in front of the gateway (1 to 10), got "${raw}"`,
  );
}

/** GATEWAY_METRICS_PORT: default 9464; `off` disables the listener; 0 takes any free port. */
function readMetricsPort(env: EnvVars): number | undefined {
  if (readText(env, 'GATEWAY_METRICS_PORT') === 'off') return undefined;
  return readPort(env, 'GATEWAY_METRICS_PORT', 9464);
}
