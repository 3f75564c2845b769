/**
 * Gateway configuration from the environment (DESIGN.md §7). A malformed value is a
 * ConfigError; entry points print it on one line and exit with code 2.
 */
export class ConfigError extends Error {}

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

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`${name} must be a port number, got "${raw}"`);
  return Number(raw);
}

function origin(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL, got "${raw}"`);
  if (u.search || u.hash || u.username || u.password) throw new ConfigError(`${name} must not carry a query, fragment or credentials`);
  return raw.replace(/\/+$/, '');
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1/true or 0/false, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LEVELS.join(', ')}; got "${logLevel}"`);
  const dataDir = env.DATA_DIR || './data';
  const privateJwk = env.GATEWAY_PRIVATE_JWK || undefined;
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
    publicUrl: origin(env, 'PUBLIC_URL', 'http://localhost:3000'),
    port: port(env, 'PORT', 3000),
    host: env.HOST || '0.0.0.0',
    ledgerUrl: origin(env, 'LEDGER_URL', 'http://127.0.0.1:3001'),
    dbFile: env.GATEWAY_DB || `${dataDir.replace(/\/+$/, '')}/gateway.sqlite`,
    dataDir,
    logLevel,
    privateJwk,
    trustProxy: flag(env, 'TRUST_PROXY'),
    cimdAllowPrivate: flag(env, 'GATEWAY_TEST_CIMD_ALLOW_PRIVATE'),
    cimdCaFile: env.GATEWAY_TEST_CIMD_CA || undefined,
    mcpRateLimit: positiveInt(env, 'MCP_RATE_LIMIT', 120),
  };
}
