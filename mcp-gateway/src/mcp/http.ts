/**
 * The request pipeline of `{api_url}/mcp/{dataset}`:
 * Host/Origin check → Bearer token → rate limit → body (size limit) → scope check for
 * tools/call → the SDK's handler (2026-07-28, and 2025-era clients through its stateless
 * fallback) with a per-request server holding the tools this connection may use.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type AuthInfo, type McpRequestContext } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { scopeSatisfied } from '@ledger/shared';
import { AccessCache } from './access.ts';
import { BodyTooLargeError, readBody } from './body.ts';
import { insufficientScopeChallenge, invalidTokenChallenge, mcpUrl, missingTokenChallenge, type Challenge } from './challenge.ts';
import { ConnectionRateLimiter } from './rateLimit.ts';
import { buildMcpServer } from './server.ts';
import { endpointKey, toolScope } from './tools/declare.ts';
import { findTool, toolsForScopes, type CatalogueTool } from './tools/catalogue.ts';
import type { McpConnection, McpDeps } from './types.ts';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

interface RequestState {
  connection: McpConnection;
  tools: readonly CatalogueTool[];
}

export interface McpEndpoint {
  /**
   * Serves one request to `/mcp/{dataset}`. `parsedBody` is given only when a body parser
   * upstream already consumed the request stream.
   */
  handle(req: IncomingMessage, res: ServerResponse, dataset: string, parsedBody?: unknown): Promise<void>;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(payload);
}

function sendChallenge(res: ServerResponse, c: Challenge): void {
  sendJson(res, c.status, c.body, c.headers);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

function bearerToken(req: IncomingMessage): string | undefined | null {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return m ? m[1]! : null;
}

function normalizeResource(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The JSON-RPC requests in a body (one message, or a 2025-03-26 batch). */
function requestsIn(body: unknown): { method: string; params?: Record<string, unknown> }[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter(
    (m): m is { method: string; params?: Record<string, unknown> } =>
      typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string',
  );
}

export function createMcpEndpoint(deps: McpDeps): McpEndpoint {
  const publicOrigin = new URL(deps.publicUrl);
  const maxBody = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limiter = new ConnectionRateLimiter(deps.requestsPerMinute ?? 120);
  const access = new AccessCache(deps, deps.accessCacheMs ?? 30_000);
  const states = new WeakMap<AuthInfo, RequestState>();

  const factory = (ctx: McpRequestContext) => {
    const state = ctx.authInfo ? states.get(ctx.authInfo) : undefined;
    if (!state) throw new Error('MCP request reached the SDK without an authenticated connection');
    return buildMcpServer(deps, state.connection, state.tools);
  };
  const onerror = (err: Error) => deps.log.warn({ err: err.message }, 'MCP request rejected by the SDK');
  const handler = createMcpHandler(factory, { legacy: 'stateless', onerror, maxRequestBodySize: maxBody });
  const nodeHandler = toNodeHandler(handler, { onerror, maxRequestBodySize: maxBody });

  /** DNS-rebinding protection: the Host must be the public host, and a browser Origin the public origin. */
  function hostAndOriginAllowed(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    let hostname: string | undefined;
    try {
      hostname = host ? new URL(`${publicOrigin.protocol}//${host}`).hostname : undefined;
    } catch {
      hostname = undefined;
    }
    if (hostname !== publicOrigin.hostname) return `Host ${JSON.stringify(host ?? '')} is not this server.`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== publicOrigin.origin) return `Origin ${JSON.stringify(origin)} is not allowed.`;
    return undefined;
  }

  async function toolsFor(connection: McpConnection, methods: readonly string[]): Promise<readonly CatalogueTool[]> {
    const byScope = toolsForScopes(connection.scopes);
    // tools/list shows scopes ∩ role; a call goes through with the scope and the ledger enforces the role
    if (!methods.includes('tools/list')) return byScope;
    const endpoints = await access.permittedEndpoints(connection);
    return endpoints ? byScope.filter((t) => endpoints.has(endpointKey(t.declaration))) : byScope;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, dataset: string, parsedBody?: unknown): Promise<void> {
    const refused = hostAndOriginAllowed(req);
    if (refused) return jsonRpcError(res, 403, -32000, refused);

    const token = bearerToken(req);
    if (token === undefined) return sendChallenge(res, missingTokenChallenge(deps.publicUrl, dataset));
    if (token === null) return sendChallenge(res, invalidTokenChallenge(deps.publicUrl, dataset, 'The Authorization header is not a Bearer token.'));

    const resolution = await deps.resolveAccessToken(token);
    if (!resolution.ok) {
      if (resolution.reason === 'unavailable') {
        return sendJson(res, 503, { error: 'temporarily_unavailable', error_description: resolution.description }, { 'Retry-After': '5' });
      }
      return sendChallenge(res, invalidTokenChallenge(deps.publicUrl, dataset, resolution.description));
    }
    const { connection } = resolution;
    const expected = mcpUrl(deps.publicUrl, dataset);
    if (connection.dataset !== dataset || normalizeResource(connection.resource) !== normalizeResource(expected)) {
      return sendChallenge(res, invalidTokenChallenge(deps.publicUrl, dataset, 'The access token was issued for another MCP server URL.'));
    }

    const rate = await limiter.take(connection.id);
    if (!rate.allowed) {
      deps.log.info({ conn: connection.id, dataset }, 'MCP rate limit reached');
      return sendJson(
        res, 429,
        { error: 'rate_limited', error_description: `More than the allowed MCP requests per minute on this connection; retry in ${rate.retryAfterSeconds} s.` },
        { 'Retry-After': String(rate.retryAfterSeconds) },
      );
    }

    let body: unknown = parsedBody;
    if (req.method === 'POST' && parsedBody === undefined) {
      let raw: Buffer;
      try {
        raw = await readBody(req, maxBody);
      } catch (err) {
        if (err instanceof BodyTooLargeError) return jsonRpcError(res, 413, -32600, `Request body larger than ${maxBody} bytes.`);
        throw err;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
      }
    }

    const requests = requestsIn(body);
    for (const r of requests) {
      if (r.method !== 'tools/call' || typeof r.params?.name !== 'string') continue;
      const tool = findTool(r.params.name);
      if (!tool) continue;
      const needed = toolScope(tool.declaration);
      if (!scopeSatisfied(connection.scopes, needed)) {
        deps.log.info({ conn: connection.id, tool: tool.declaration.name, needed }, 'MCP tool call refused: insufficient scope');
        return sendChallenge(res, insufficientScopeChallenge(deps.publicUrl, dataset, needed, `The tool ${tool.declaration.name} needs the scope ${needed}.`));
      }
    }

    const authInfo: AuthInfo = {
      token,
      clientId: connection.clientName,
      scopes: [...connection.scopes],
      resource: new URL(expected),
      extra: { connectionId: connection.id },
    };
    states.set(authInfo, { connection, tools: await toolsFor(connection, requests.map((r) => r.method)) });
    (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    await nodeHandler(req, res, body);
  }

  return {
    async handle(req, res, dataset, parsedBody) {
      try {
        await handle(req, res, dataset, parsedBody);
      } catch (err) {
        deps.log.error({ dataset, err: err instanceof Error ? err.message : String(err) }, 'MCP request failed');
        jsonRpcError(res, 500, -32603, 'Internal error.');
      }
    },
    close: () => handler.close(),
  };
}
