/**
 * The checks a request to `{api_url}/mcp/{dataset}` passes before it is served (serve/paths.ts), in order
 * (ADMISSION below). Each step refuses with an answer or hands on what it established:
 *
 *   checkHostAndOrigin → authenticate → limitRate → readMessages → checkScope → checkConnection
 *
 * The body is read only after the token and the rate limit, so an unauthenticated or
 * throttled caller cannot make the gateway buffer 4 MiB. The scope is checked before the
 * connection so a missing scope can be answered with a step-up challenge; the connection
 * check is left to the tool's own REST call when every message is a catalogue tool call
 * (serve/connectionCheck.ts completes it before the answer leaves).
 */
import type { IncomingMessage } from 'node:http';
import { mcpUrl, scopeSatisfied } from '@ledger/shared';
import { McpAnswer } from './answer.ts';
import { BodyNotJsonError, BodyTooDeepError, BodyTooLargeError, readJsonBody } from './body.ts';
import { andThen, type Maybe } from './maybe.ts';
import { insufficientScopeChallenge, invalidTokenChallenge, missingTokenChallenge } from './challenge.ts';
import { extended, Pipeline } from './pipeline.ts';
import { rateLimitHeaders, type RateDecision } from '../limits.ts';
import type { ConnectionRateLimiter } from './rateLimit.ts';
import { toolScope } from './tools/declare.ts';
import { findTool } from './tools/catalogue.ts';
import { resolveResource, resourceScope, type ResolvedResource } from './resources.ts';
import type { McpConnection, McpDeps, TokenResolution } from './types.ts';

/** What every step shares: built once per endpoint. */
export interface StepEnv {
  deps: McpDeps;
  /** the public URL's parts, read once (a URL's getters build their strings on every read) */
  publicOrigin: PublicOrigin;
  maxBodyBytes: number;
  limiter: ConnectionRateLimiter;
}

export interface PublicOrigin {
  /** `https:` */
  protocol: string;
  hostname: string;
  /** scheme, host and port */
  origin: string;
}

/** The parts of the public URL the Host and Origin checks compare with. */
export function publicOriginOf(publicUrl: string): PublicOrigin {
  const { protocol, hostname, origin } = new URL(publicUrl);
  return { protocol, hostname, origin };
}

export interface IncomingRequest {
  req: IncomingMessage;
  dataset: string;
}

export interface Authenticated extends IncomingRequest {
  token: string;
  connection: McpConnection;
  /** this endpoint's MCP URL, the resource the token was issued for */
  resource: string;
}

export interface JsonRpcRequest {
  method: string;
  params?: Record<string, unknown>;
}

export interface WithMessages extends Authenticated {
  body: unknown;
  /** the JSON-RPC requests in the body (one message, or a 2025-03-26 batch) */
  requests: readonly JsonRpcRequest[];
}

export interface Admitted extends WithMessages {
  /** the ledger check is left to the request's own ledger REST call */
  deferred: boolean;
}

/**
 * DNS-rebinding protection: the Host must be the public host, and a browser Origin the
 * public origin — unless the request carries a token in `Authorization` (cors.ts): a token
 * is no ambient credential, so a browser client on any origin may send its own (the token
 * is checked by the next step like any other).
 */
export function checkHostAndOrigin({ publicOrigin }: StepEnv, state: IncomingRequest): IncomingRequest | McpAnswer {
  const host = state.req.headers.host;
  if (hostnameOf(publicOrigin, host) !== publicOrigin.hostname)
    return McpAnswer.jsonRpcError(403, -32000, `Host ${JSON.stringify(host ?? '')} is not this server.`);
  const origin = state.req.headers.origin;
  if (origin !== undefined && origin !== publicOrigin.origin && state.req.headers.authorization === undefined) {
    return McpAnswer.jsonRpcError(
      403,
      -32000,
      `Origin ${JSON.stringify(origin)} is not allowed without an access token.`,
    );
  }
  return state;
}

/**
 * The host name of a Host header as a URL reads it, remembered per header value: a client
 * sends the same Host on every call, and parsing a URL for it was a share of each call's CPU.
 * Bounded: a client sending ever new Host values only makes the memo start afresh.
 */
const HOSTNAMES = new Map<string, Map<string, string | undefined>>();
const HOSTNAMES_MEMO = 1_000;

function hostnameOf(publicOrigin: PublicOrigin, host: string | undefined): string | undefined {
  if (!host) return undefined;
  // by scheme, then by the header's own string: no key string built (and hashed) per call
  let byHost = HOSTNAMES.get(publicOrigin.protocol);
  if (byHost === undefined) {
    byHost = new Map();
    HOSTNAMES.set(publicOrigin.protocol, byHost);
  }
  if (byHost.has(host)) return byHost.get(host);
  let hostname: string | undefined;
  try {
    hostname = new URL(`${publicOrigin.protocol}//${host}`).hostname;
  } catch {
    hostname = undefined;
  }
  if (byHost.size >= HOSTNAMES_MEMO) byHost.clear();
  byHost.set(host, hostname);
  return hostname;
}

/**
 * This gateway's MCP URL of a dataset (`mcpUrl`), remembered per public URL and dataset: every
 * call compares its token's resource with it. Bounded like the Host memo above.
 */
const MCP_URLS = new Map<string, Map<string, string>>();

function mcpUrlOf(publicUrl: string, dataset: string): string {
  let urls = MCP_URLS.get(publicUrl);
  if (urls === undefined) {
    urls = new Map();
    MCP_URLS.set(publicUrl, urls);
  }
  let url = urls.get(dataset);
  if (url === undefined) {
    url = mcpUrl(publicUrl, dataset);
    if (urls.size >= HOSTNAMES_MEMO) urls.clear();
    urls.set(dataset, url);
  }
  return url;
}

/** `Bearer <token68>` (RFC 6750), the scheme in any case; one RegExp for every request. */
const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i;

/** The token from `Authorization: Bearer …`; undefined without the header, null when it is not a Bearer token. */
function bearerToken(req: IncomingMessage): string | undefined | null {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = BEARER.exec(header.trim());
  return m ? m[1]! : null;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The Bearer token resolved to its connection with the gateway's own checks (state, expiry,
 * idle); the ledger's check comes last (checkConnection). The token must have been issued
 * for this dataset's MCP URL.
 */
export function authenticate({ deps }: StepEnv, state: IncomingRequest): Maybe<Authenticated | McpAnswer> {
  const { publicUrl } = deps;
  const token = bearerToken(state.req);
  if (token === undefined) return McpAnswer.challenge(missingTokenChallenge(publicUrl, state.dataset));
  if (token === null)
    return McpAnswer.challenge(
      invalidTokenChallenge(publicUrl, state.dataset, 'The Authorization header is not a Bearer token.'),
    );
  // at once when the token's row is read synchronously (the SQLite store): no promise per call
  return andThen(deps.resolveAccessToken(token, { deferLedgerCheck: true }), (resolution) =>
    authenticated(publicUrl, state, token, resolution),
  );
}

function authenticated(
  publicUrl: string,
  state: IncomingRequest,
  token: string,
  resolution: TokenResolution,
): Authenticated | McpAnswer {
  if (!resolution.ok) return McpAnswer.tokenRefused(publicUrl, state.dataset, resolution);
  const { connection } = resolution;
  const resource = mcpUrlOf(publicUrl, state.dataset);
  if (
    connection.dataset !== state.dataset ||
    // the same URL as issued (every call of a client) needs no normalising
    (connection.resource !== resource && withoutTrailingSlash(connection.resource) !== withoutTrailingSlash(resource))
  ) {
    return McpAnswer.challenge(
      invalidTokenChallenge(publicUrl, state.dataset, 'The access token was issued for another MCP server URL.'),
    );
  }
  return extended(state, { token, connection, resource });
}

/**
 * At most the configured number of requests per minute per connection (429 with Retry-After and the RateLimit headers).
 */
export function limitRate({ deps, limiter }: StepEnv, state: Authenticated): Maybe<Authenticated | McpAnswer> {
  return andThen(limiter.take(state.connection.id), (rate) =>
    rate.allowed ? state : refuseRate(deps, limiter, state, rate),
  );
}

function refuseRate(
  deps: McpDeps,
  limiter: ConnectionRateLimiter,
  state: Authenticated,
  rate: RateDecision,
): McpAnswer {
  deps.log.info({ conn: state.connection.id, dataset: state.dataset }, 'MCP rate limit reached');
  const retry = `retry in ${rate.retryAfterSeconds} s.`;
  return new McpAnswer(
    429,
    {
      error: 'rate_limited',
      error_description: `More than the allowed MCP requests per minute on this connection; ${retry}`,
    },
    rateLimitHeaders(limiter.policy, rate),
  );
}

function requestsIn(body: unknown): JsonRpcRequest[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter(
    (m): m is JsonRpcRequest =>
      typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string',
  );
}

/**
 * The JSON body within the size and nesting bounds (body.ts), and the JSON-RPC requests in it.
 * At once when the body has fully arrived (readJsonBody), as it has for a small request.
 */
export function readMessages({ maxBodyBytes }: StepEnv, state: Authenticated): Maybe<WithMessages | McpAnswer> {
  if (state.req.method !== 'POST') return withBody(state, undefined);
  let read: Maybe<unknown>;
  try {
    read = readJsonBody(state.req, { maxBytes: maxBodyBytes });
  } catch (err) {
    return bodyRefusal(err, maxBodyBytes);
  }
  return read instanceof Promise
    ? read.then(
        (body) => withBody(state, body),
        (err: unknown) => bodyRefusal(err, maxBodyBytes),
      )
    : withBody(state, read);
}

function withBody(state: Authenticated, body: unknown): WithMessages {
  return extended(state, { body, requests: requestsIn(body) });
}

/** The answer to a body out of bounds or not JSON; anything else is the request's failure. */
function bodyRefusal(err: unknown, maxBodyBytes: number): McpAnswer {
  if (err instanceof BodyTooLargeError)
    return McpAnswer.jsonRpcError(413, -32600, `Request body larger than ${maxBodyBytes} bytes.`);
  if (err instanceof BodyTooDeepError) return McpAnswer.jsonRpcError(400, -32600, `Invalid Request: ${err.message}`);
  if (err instanceof BodyNotJsonError) return McpAnswer.jsonRpcError(400, -32700, 'Parse error: the body is not JSON.');
  throw err;
}

/** The catalogue tool a request calls, or undefined (not a tools/call, or an unknown tool the SDK answers). */
function calledTool(r: JsonRpcRequest) {
  return r.method === 'tools/call' && typeof r.params?.name === 'string' ? findTool(r.params.name) : undefined;
}

/** The resource a `resources/read` of this company names (another company's is left to the server: not found). */
function readResourceOf(r: JsonRpcRequest, dataset: string): ResolvedResource | undefined {
  if (r.method !== 'resources/read' || typeof r.params?.uri !== 'string') return undefined;
  try {
    const resource = resolveResource(r.params.uri);
    return resource?.dataset === dataset ? resource : undefined;
  } catch {
    return undefined; // a malformed URI: the server answers it
  }
}

/**
 * Every called tool and read resource within the granted scopes, else 403
 * insufficient_scope naming the scope (a step-up hint) — unless the connection may no longer
 * live: that answers as ended.
 */
export function checkScope(env: StepEnv, state: WithMessages): WithMessages | Promise<WithMessages | McpAnswer> {
  const { connection, dataset } = state;
  for (const r of state.requests) {
    const tool = calledTool(r);
    const resource = tool ? undefined : readResourceOf(r, dataset);
    if (!tool && !resource) continue;
    const needed = tool ? toolScope(tool.declaration) : resourceScope(resource!);
    if (!scopeSatisfied(connection.scopes, needed)) return refuseScope(env, state, needed, tool, resource);
  }
  // synchronous when every scope is granted: no promise on every MCP request
  return state;
}

/** 403 insufficient_scope naming the scope — or the connection's end, when it may no longer live. */
async function refuseScope(
  { deps }: StepEnv,
  { connection, dataset }: WithMessages,
  needed: string,
  tool: ReturnType<typeof calledTool>,
  resource: ResolvedResource | undefined,
): Promise<McpAnswer> {
  const confirmed = await deps.confirmConnection(connection, false);
  if (!confirmed.ok) return McpAnswer.tokenRefused(deps.publicUrl, dataset, confirmed);
  if (tool) {
    deps.log.info(
      { conn: connection.id, tool: tool.declaration.name, needed },
      'MCP tool call refused: insufficient scope',
    );
    deps.onToolCall?.(tool.declaration.name, 'refused');
    return McpAnswer.challenge(
      insufficientScopeChallenge(
        deps.publicUrl,
        dataset,
        needed,
        `The tool ${tool.declaration.name} needs the scope ${needed}.`,
      ),
    );
  }
  deps.log.info(
    { conn: connection.id, resource: resource!.uri, needed },
    'MCP resource read refused: insufficient scope',
  );
  return McpAnswer.challenge(
    insufficientScopeChallenge(
      deps.publicUrl,
      dataset,
      needed,
      `The resource ${resource!.uri} needs the scope ${needed}.`,
    ),
  );
}

/**
 * The ledger's check that the connection may still live (person an active owner/admin, AI
 * connections on). Deferred when every message is a catalogue tool call: its REST call is
 * the check.
 */
export function checkConnection(env: StepEnv, state: WithMessages): Admitted | Promise<Admitted | McpAnswer> {
  const deferred = state.requests.length > 0 && state.requests.every((r) => calledTool(r) !== undefined);
  return deferred ? extended(state, { deferred }) : checkedNow(env, state);
}

async function checkedNow({ deps }: StepEnv, state: WithMessages): Promise<Admitted | McpAnswer> {
  const confirmed = await deps.confirmConnection(state.connection, false);
  if (!confirmed.ok) return McpAnswer.tokenRefused(deps.publicUrl, state.dataset, confirmed);
  return extended(state, { deferred: false });
}

/** The MCP request pipeline: a request passing every step is served (serve/paths.ts). */
export const ADMISSION = Pipeline.start(checkHostAndOrigin)
  .andThen(authenticate)
  .andThen(limitRate)
  .andThen(readMessages)
  .andThen(checkScope)
  .andThen(checkConnection);
