/** Builds the MCP endpoint's dependencies from the gateway's (one call in http/app.ts). */
import type { GatewayDeps } from '../deps.ts';
import type { McpDeps } from './types.ts';

export function mcpDepsFrom(deps: Pick<GatewayDeps, 'config' | 'connections' | 'ledger' | 'log'>): McpDeps {
  return {
    publicUrl: deps.config.publicUrl,
    resolveAccessToken: (token) => deps.connections.resolveAccessToken(token),
    callLedger: (connection, method, path, body) => deps.ledger.callAs(connection, method, path, body),
    callInternal: (method, path, body) => deps.ledger.callInternal(method, path, body),
    log: deps.log,
    requestsPerMinute: deps.config.mcpRateLimit,
  };
}
