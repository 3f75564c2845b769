/**
 * Gateway configuration from the environment (DESIGN.md §7). The parsers are shared with
 * the ledger (shared/src/config.ts); a malformed value is a ConfigError, which entry points
 * print on one line and exit with code 2.
 */
import { ConfigError, readFlag, readHttpBaseUrl, readLogLevel, readPort, readPositiveInt, readText, type EnvVars } from '@ledger/shared';

export { ConfigError };

export interface GatewayConfig {
  /** the public origin `{api_url}`, without a trailing slash; also the OAuth issuer */
  publicUrl: string;
  port: number;
  host: string;
  ledgerUrl: string;
  /** SQLite file of the gateway's own store */
  dbFile: string;
  dataDir: string;
  logLevel: string;
  /** the gateway's private Ed25519 JWK (JSON); unset: `<dataDir>/gateway-private.jwk`, created on first start */
  privateJwk: string | undefined;
  /** trust X-Forwarded-For from a reverse proxy in front of the gateway */
  trustProxy: boolean;
  /**
   * TEST ONLY (GATEWAY_TEST_CIMD_ALLOW_PRIVATE=1): client metadata documents may be fetched
   * from loopback and private addresses. Never set in production.
   */
  cimdAllowPrivate: boolean;
  /** TEST ONLY (GATEWAY_TEST_CIMD_CA): a PEM CA file trusted for client metadata fetches */
  cimdCaFile: string | undefined;
  /** MCP requests per minute per connection (MCP_RATE_LIMIT, default 120 as SPEC.md "Limits"; raised only for benchmarks) */
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
    publicUrl: readHttpBaseUrl(env, 'PUBLIC_URL', 'http://localhost:3000'),
    port: readPort(env, 'PORT', 3000),
    host: readText(env, 'HOST') ?? '0.0.0.0',
    ledgerUrl: readHttpBaseUrl(env, 'LEDGER_URL', 'http://127.0.0.1:3001'),
    dbFile: readText(env, 'GATEWAY_DB') ?? `${dataDir.replace(/\/+$/, '')}/gateway.sqlite`,
    dataDir,
    logLevel,
    privateJwk,
    trustProxy: readFlag(env, 'TRUST_PROXY'),
    cimdAllowPrivate: readFlag(env, 'GATEWAY_TEST_CIMD_ALLOW_PRIVATE'),
    cimdCaFile: readText(env, 'GATEWAY_TEST_CIMD_CA'),
    mcpRateLimit: readPositiveInt(env, 'MCP_RATE_LIMIT', 120),
  };
}
