/**
 * The logger the MCP endpoint writes to (pino's shape, narrowed to what it uses). Its own
 * file: the rate limiter and the endpoint's dependencies (types.ts) both need it, and the
 * dependencies name the rate limiter.
 */
export interface McpLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
