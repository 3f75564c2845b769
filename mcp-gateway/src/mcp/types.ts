/**
 * The MCP endpoint's view of the rest of the gateway: a small structural interface, so the
 * endpoint does not depend on how tokens are stored or how the ledger is called.
 */
import type { McpServedBy, ToolResult } from '../metrics.ts';
import type { McpLogger } from './log.ts';
import type { ConnectionRateLimiter } from './rateLimit.ts';
import type { Maybe } from './maybe.ts';

export type { ToolResult };

/** An active assistant connection, as resolved from a Bearer access token. */
export interface McpConnection {
  id: string;
  /** the ledger user id of the person who connected */
  userId: number | string;
  dataset: string;
  /** the MCP URL (OAuth resource) the token was issued for */
  resource: string;
  /** granted scopes */
  scopes: readonly string[];
  clientName: string;
}

/**
 * Why a presented token does not grant access (never includes the token itself).
 * `unavailable`: the lifecycle checks could not reach the ledger (answered 503, not 401).
 */
export type TokenResolution =
  | { ok: true; connection: McpConnection }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'ended' | 'unavailable'; description: string };

export type LedgerMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface LedgerResponse {
  status: number;
  /** parsed JSON body, or undefined for an empty body */
  body: unknown;
  /** a file answer (download contracts): its bytes instead of a body */
  file?: { mediaType: string; name?: string; data: Buffer };
  /** the ledger confirmed the connection's preconditions for this request (X-Connection-Checked) */
  connectionChecked?: boolean;
}

export type { McpLogger } from './log.ts';

export interface McpDeps {
  /** the public origin `{api_url}`, e.g. https://books.example.com */
  publicUrl: string;
  /**
   * Resolves a Bearer access token to its active connection, with lifecycle checks and a
   * throttled last-used touch. With `deferLedgerCheck` only the gateway's own checks run
   * (token, state, expiry, idle) and `confirmConnection` must follow. A value at once when
   * nothing had to wait (the token's row read synchronously), else a promise.
   */
  resolveAccessToken(token: string, options?: { deferLedgerCheck?: boolean }): Maybe<TokenResolution>;
  /**
   * Completes a deferred check: `verifiedByLedger` when a ledger REST call of this request
   * confirmed the connection (then only the use is recorded); otherwise the ledger is asked.
   * A value at once when nothing had to be asked or written.
   */
  confirmConnection(connection: McpConnection, verifiedByLedger: boolean): Maybe<TokenResolution>;
  /** The ledger refused the connection's credential (403 connection_not_allowed, `reason`): end it for good. */
  connectionRefused(connection: McpConnection, reason: string): Promise<TokenResolution>;
  /**
   * Calls the ledger as the connected person (service credential of docs/oauth.md "Gateway ↔ ledger").
   * `path` is absolute on the ledger, e.g. `/client/acme/arap/vendor?name=x`; `headers` go
   * along as given (the request id is added by the ledger client itself).
   */
  callLedger(
    connection: McpConnection,
    method: LedgerMethod,
    path: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ): Promise<LedgerResponse>;
  /** Calls the ledger's internal API with the gateway's internal credential; `path` starts with `/internal/`. */
  callInternal(method: LedgerMethod, path: string, body?: unknown): Promise<LedgerResponse>;
  log: McpLogger;
  /** largest accepted MCP request body in bytes (default 4 MiB) */
  maxBodyBytes?: number;
  /** MCP requests per minute per connection (default 120), counted in memory unless `rateLimiter` is given */
  requestsPerMinute?: number;
  /** the per-connection limit in the gateway's limit store (Redis or memory, src/limits.ts) */
  rateLimiter?: ConnectionRateLimiter;
  /** counts a tool call's outcome (the gateway's metrics) */
  onToolCall?(tool: string, result: ToolResult): void;
  /** counts an admitted request by who answered it (the gateway's metrics) */
  onServed?(by: McpServedBy): void;
  /** answer single 2026-07-28 tools/calls without the SDK (directCall.ts; default true) */
  directToolCalls?: boolean;
  /** how long the person's endpoint access is cached per connection for tools/list, ms (default 30 s) */
  accessCacheMs?: number;
  /**
   * The key of the MAC binding a confirmation's answer to its call (confirm.ts requestState);
   * the same on every replica. Default: random per process (a retry at another replica asks again).
   */
  confirmationKey?: Uint8Array;
}
