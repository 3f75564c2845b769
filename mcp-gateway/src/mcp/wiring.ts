/** Builds the MCP endpoint's dependencies from the gateway's (one call in origin/listener.ts). */
import { createHash } from 'node:crypto';
import type { GatewayDeps } from '../deps.ts';
import type { ActiveConnection } from '../oauth/connections.ts';
import { ConnectionRateLimiter } from './rateLimit.ts';
import type { McpConnection, McpDeps } from './types.ts';

function toActiveConnection(c: McpConnection): ActiveConnection {
  return { ...c, userId: Number(c.userId), scopes: [...c.scopes] };
}

export function mcpDepsFrom(
  deps: Pick<GatewayDeps, 'config' | 'connections' | 'ledger' | 'log' | 'limits' | 'metrics' | 'mcpDirectCalls'>,
): McpDeps {
  const limiter = deps.limits.limiter({ name: 'mcp', points: deps.config.mcpRateLimit, duration: 60 });
  return {
    publicUrl: deps.config.publicUrl,
    resolveAccessToken: (token, options) => deps.connections.resolveAccessToken(token, options),
    confirmConnection: (connection, verifiedByLedger) =>
      deps.connections.confirm(toActiveConnection(connection), verifiedByLedger),
    connectionRefused: (connection, reason) => deps.connections.endRefused(connection.id, reason),
    callLedger: (connection, method, path, body, headers) =>
      deps.ledger.callAs(connection, method, path, body, headers),
    callInternal: (method, path, body) => deps.ledger.callInternal(method, path, body),
    log: deps.log,
    requestsPerMinute: deps.config.mcpRateLimit,
    rateLimiter: new ConnectionRateLimiter(limiter, deps.log, () => deps.metrics.limitStoreError('mcp')),
    onToolCall: (tool, result) => deps.metrics.toolCall(tool, result),
    onServed: (by) => deps.metrics.mcpServed(by),
    directToolCalls: deps.mcpDirectCalls,
    // derived from the gateway's signing key, so every replica checks the others' request states
    ...(deps.config.privateJwk
      ? {
          confirmationKey: createHash('sha256')
            .update('ledger-mcp confirmation request state\n')
            .update(deps.config.privateJwk)
            .digest(),
        }
      : {}),
  };
}
