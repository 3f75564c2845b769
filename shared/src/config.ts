/**
 * Reading settings from the environment, for both services: each service lists its own
 * variables and reads them with these parsers, so one variable (PUBLIC_URL, LOG_LEVEL, a
 * port) is checked the same way wherever it is read. A malformed value is a ConfigError
 * whose message is one line naming the variable; entry points print it and exit with code 2.
 * An empty value counts as unset, as shells make `VAR=` easy to leave behind.
 */
export class ConfigError extends Error {}

/** The environment as read (process.env fits). */
export type EnvVars = Readonly<Record<string, string | undefined>>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The value, or undefined when unset or empty. */
export function readText(env: EnvVars, name: string): string | undefined {
  return env[name] || undefined;
}

export function readPort(env: EnvVars, name: string, fallback: number): number {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`${name} must be a port number, got "${raw}"`);
  return Number(raw);
}

/** A count or size; 0 allowed. */
export function readNonNegativeInt(env: EnvVars, name: string, fallback: number): number {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** A limit or timeout; 0 is not allowed. */
export function readPositiveInt(env: EnvVars, name: string, fallback: number): number {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}

/** 1/true or 0/false; unset is false. */
export function readFlag(env: EnvVars, name: string): boolean {
  const raw = readText(env, name);
  if (raw === undefined || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1/true or 0/false, got "${raw}"`);
}

function parseUrl(name: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
}

/** Any absolute URL (e.g. a database URL), without trailing slashes; undefined when unset. */
export function readUrl(env: EnvVars, name: string): string | undefined {
  const raw = readText(env, name);
  if (raw === undefined) return undefined;
  parseUrl(name, raw);
  return raw.replace(/\/+$/, '');
}

/**
 * An http(s) base URL that paths are appended to (a public origin, a service's address):
 * no query, fragment or credentials, no trailing slash.
 */
export function readHttpBaseUrl(env: EnvVars, name: string, fallback: string): string {
  const raw = readText(env, name) ?? fallback;
  const u = parseUrl(name, raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http or https URL, got "${raw}"`);
  if (u.search || u.hash || u.username || u.password)
    throw new ConfigError(`${name} must not carry a query, fragment or credentials`);
  return raw.replace(/\/+$/, '');
}

/**
 * PUBLIC_URL, the public origin `{api_url}`: by default the gateway's own address on this
 * machine, `http://localhost:$PORT`, so moving the gateway with PORT alone moves every URL
 * that names it (OAuth metadata, MCP resource URLs, Link headers, demo.json) with it.
 */
export function readPublicUrl(env: EnvVars): string {
  return readHttpBaseUrl(env, 'PUBLIC_URL', `http://localhost:${readPort(env, 'PORT', 3000)}`);
}

/** LOG_LEVEL: a pino level, default info. */
export function readLogLevel(env: EnvVars): LogLevel {
  const raw = readText(env, 'LOG_LEVEL') ?? 'info';
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${raw}"`);
  return level;
}
