/**
 * The request pipeline of `{api_url}/mcp/{dataset}`:
 * Host/Origin check → Bearer token (the gateway's own checks) → rate limit → body (size
 * and nesting limits, body.ts) → scope check for tools/call → the connection check at the
 * ledger → the SDK's handler (2026-07-28, and 2025-era clients through its stateless
 * fallback) with a per-request server holding the tools this request may use.
 *
 * The connection check at the ledger (person still an active owner/admin, AI connections
 * on) is made by a separate lookup for every request except a 2026-07-28 `tools/call`: there
 * the tool's own REST call is the check, because the ledger enforces the same preconditions
 * on every service-credential request (403 `connection_not_allowed`). When the ledger
 * refuses, the connection ends for good and the request is answered 401 `invalid_token`
 * like any ended connection; when the call never reached the ledger (e.g. invalid input),
 * the lookup is made after all, before the answer is sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpHandlerRequestOptions, type McpRequestContext } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { scopeSatisfied } from '@ledger/shared';
import { AccessCache } from './access.ts';
import { BodyNotJsonError, BodyTooDeepError, BodyTooLargeError, checkParsedBody, readJsonBody } from './body.ts';
import { mcpUrl } from '@ledger/shared';
import { insufficientScopeChallenge, invalidTokenChallenge, missingTokenChallenge, type Challenge } from './challenge.ts';
import { ConnectionRateLimiter } from './rateLimit.ts';
import { buildMcpServer } from './server.ts';
import { endpointKey, toolScope } from './tools/declare.ts';
import { findTool, toolsForScopes, type CatalogueTool } from './tools/catalogue.ts';
import type { LedgerResponse, McpConnection, McpDeps, TokenResolution } from './types.ts';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

interface RequestState {
  connection: McpConnection;
  dataset: string;
  tools: readonly CatalogueTool[];
  /** the ledger check is left to the request's own ledger REST call */
  deferred: boolean;
  /** a ledger REST call of this request confirmed the connection */
  verified: boolean;
  /** the ledger refused the connection during this request: it has ended */
  ended?: Refusal;
}

type Refusal = Extract<TokenResolution, { ok: false }>;

/** The ledger's reason when it refused the connection's service credential, else undefined. */
export function connectionRefusal(res: LedgerResponse): string | undefined {
  if (res.status !== 403 || typeof res.body !== 'object' || res.body === null) return undefined;
  const error = (res.body as { error?: { code?: unknown; reason?: unknown } }).error;
  if (error?.code !== 'connection_not_allowed') return undefined;
  return typeof error.reason === 'string' ? error.reason : '';
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

/** The answer to a token or connection that does not (or no longer) work: 401 invalid_token, or 503 when the ledger is unreachable. */
function refusalAnswer(publicUrl: string, dataset: string, r: Refusal): { status: number; body: unknown; headers: Record<string, string> } {
  if (r.reason === 'unavailable') {
    return { status: 503, body: { error: 'temporarily_unavailable', error_description: r.description }, headers: { 'Retry-After': '5' } };
  }
  return invalidTokenChallenge(publicUrl, dataset, r.description);
}

function refusalResponse(publicUrl: string, dataset: string, r: Refusal): Response {
  const a = refusalAnswer(publicUrl, dataset, r);
  return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...a.headers } });
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

interface JsonRpcRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** The JSON-RPC requests in a body (one message, or a 2025-03-26 batch). */
function requestsIn(body: unknown): JsonRpcRequest[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter(
    (m): m is JsonRpcRequest =>
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
    const callLedger: McpDeps['callLedger'] = async (connection, method, path, body) => {
      const res = await deps.callLedger(connection, method, path, body);
      const refused = connectionRefusal(res);
      if (refused !== undefined) {
        const ended = await deps.connectionRefused(connection, refused);
        state.ended = ended.ok ? { ok: false, reason: 'ended', description: 'The connection has ended.' } : ended;
        deps.log.info({ conn: connection.id, reason: refused }, 'connection ended: the ledger refused its credential');
      } else if (res.connectionChecked) {
        state.verified = true;
      }
      return res;
    };
    return buildMcpServer({ callLedger, log: deps.log }, state.connection, state.tools);
  };
  const onerror = (err: Error) => deps.log.warn({ err: err.message }, 'MCP request rejected by the SDK');
  const handler = createMcpHandler(factory, { legacy: 'stateless', onerror, maxRequestBodySize: maxBody });
  /** The SDK's handler, with the deferred connection check completed before an answer leaves. */
  const checked = {
    async fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response> {
      const state = options?.authInfo ? states.get(options.authInfo) : undefined;
      if (state?.deferred && (await isLegacyRequest(request, options?.parsedBody, { maxRequestBodySize: maxBody }))) {
        // 2025-era answers may start streaming before the tool has run: check first
        state.deferred = false;
        const confirmed = await deps.confirmConnection(state.connection, false);
        if (!confirmed.ok) return refusalResponse(deps.publicUrl, state.dataset, confirmed);
      }
      const response = await handler.fetch(request, options);
      if (!state?.deferred) return response;
      let refusal = state.ended;
      if (!refusal) {
        const confirmed = await deps.confirmConnection(state.connection, state.verified);
        if (!confirmed.ok) refusal = confirmed;
      }
      if (!refusal) return response;
      await response.body?.cancel().catch(() => undefined);
      return refusalResponse(deps.publicUrl, state.dataset, refusal);
    },
  };
  const nodeHandler = toNodeHandler(checked, { onerror, maxRequestBodySize: maxBody });

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

  /**
   * The tools the request's server registers: for a `tools/call`, only the called tool (a
   * server per request is built from this list, so a short list is cheaper); for
   * `tools/list`, the tools of the granted scopes that the person's role may use.
   */
  async function toolsFor(connection: McpConnection, requests: readonly JsonRpcRequest[]): Promise<readonly CatalogueTool[]> {
    const byScope = toolsForScopes(connection.scopes);
    if (requests.length > 0 && requests.every((r) => r.method === 'tools/call')) {
      const names = new Set(requests.map((r) => r.params?.name));
      const called = byScope.filter((t) => names.has(t.declaration.name));
      // an unknown tool: the whole list, so the SDK answers exactly as it does for any unknown tool
      if (called.length === names.size) return called;
    }
    // tools/list shows scopes ∩ role; a call goes through with the scope and the ledger enforces the role
    if (!requests.some((r) => r.method === 'tools/list')) return byScope;
    const endpoints = await access.permittedEndpoints(connection);
    return endpoints ? byScope.filter((t) => endpoints.has(endpointKey(t.declaration))) : byScope;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, dataset: string, parsedBody?: unknown): Promise<void> {
    const refused = hostAndOriginAllowed(req);
    if (refused) return jsonRpcError(res, 403, -32000, refused);

    const token = bearerToken(req);
    if (token === undefined) return sendChallenge(res, missingTokenChallenge(deps.publicUrl, dataset));
    if (token === null) return sendChallenge(res, invalidTokenChallenge(deps.publicUrl, dataset, 'The Authorization header is not a Bearer token.'));

    const resolution = await deps.resolveAccessToken(token, { deferLedgerCheck: true });
    if (!resolution.ok) {
      const a = refusalAnswer(deps.publicUrl, dataset, resolution);
      return sendJson(res, a.status, a.body, a.headers);
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

    let body: unknown;
    try {
      if (req.method === 'POST' && parsedBody === undefined) body = await readJsonBody(req, { maxBytes: maxBody });
      else body = checkParsedBody(parsedBody);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return jsonRpcError(res, 413, -32600, `Request body larger than ${maxBody} bytes.`);
      if (err instanceof BodyTooDeepError) return jsonRpcError(res, 400, -32600, `Invalid Request: ${err.message}`);
      if (err instanceof BodyNotJsonError) return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
      throw err;
    }

    const requests = requestsIn(body);
    for (const r of requests) {
      if (r.method !== 'tools/call' || typeof r.params?.name !== 'string') continue;
      const tool = findTool(r.params.name);
      if (!tool) continue;
      const needed = toolScope(tool.declaration);
      if (!scopeSatisfied(connection.scopes, needed)) {
        // a connection that may no longer live answers as ended, not with a step-up hint
        const confirmed = await deps.confirmConnection(connection, false);
        if (!confirmed.ok) {
          const a = refusalAnswer(deps.publicUrl, dataset, confirmed);
          return sendJson(res, a.status, a.body, a.headers);
        }
        deps.log.info({ conn: connection.id, tool: tool.declaration.name, needed }, 'MCP tool call refused: insufficient scope');
        return sendChallenge(res, insufficientScopeChallenge(deps.publicUrl, dataset, needed, `The tool ${tool.declaration.name} needs the scope ${needed}.`));
      }
    }

    // every message a catalogue tool call within scope: its REST call checks the connection
    const deferred = requests.length > 0 && requests.every((r) => r.method === 'tools/call' && typeof r.params?.name === 'string' && findTool(r.params.name) !== undefined);
    if (!deferred) {
      const confirmed = await deps.confirmConnection(connection, false);
      if (!confirmed.ok) {
        const a = refusalAnswer(deps.publicUrl, dataset, confirmed);
        return sendJson(res, a.status, a.body, a.headers);
      }
    }

    const authInfo: AuthInfo = {
      token,
      clientId: connection.clientName,
      scopes: [...connection.scopes],
      resource: new URL(expected),
      extra: { connectionId: connection.id },
    };
    states.set(authInfo, { connection, dataset, tools: await toolsFor(connection, requests), deferred, verified: false });
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
