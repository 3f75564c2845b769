/**
 * The MCP endpoint `{api_url}/mcp/{dataset}`: a request first passes the admission steps
 * (steps.ts: Host/Origin, token, rate limit, body, scope, connection check), then goes to the
 * SDK's handler (2026-07-28, and 2025-era clients through its stateless fallback) with a
 * per-request server holding the tools this request may use.
 *
 * The connection check at the ledger (person still an active owner/admin, AI connections
 * on) is made by a separate lookup for every request except a 2026-07-28 `tools/call`: there
 * the tool's own REST call is the check, because the ledger enforces the same preconditions
 * on every service-credential request (403 `connection_not_allowed`). When the ledger
 * refuses, the connection ends for good and the request is answered 401 `invalid_token`
 * like any ended connection; when the call never reached the ledger (e.g. invalid input),
 * the lookup is made after all, before the answer is sent.
 *
 * A single 2026-07-28 `tools/call` the request may make is answered without the SDK
 * (directCall.ts): the same tool run, checks and answer, at a fraction of the cost.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isInputRequiredResult,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { AccessCache } from './access.ts';
import { allowOrigin, answerPreflight } from './cors.ts';
import { McpAnswer, type TokenRefusal } from './answer.ts';
import { bodylessRequest, toNodeHandler } from './nodeBridge.ts';
import { elicitsForms, mayAsk, runConfirmed, type RunTool } from './confirm.ts';
import { CallStream, ElicitationClients, PendingElicitations } from './legacyConfirm.ts';
import { isRecord } from './tools/isRecord.ts';
import { ConnectionRateLimiter } from './rateLimit.ts';
import { checkedOutput, directCallOf, encodeCallAnswer, type DirectCall } from './directCall.ts';
import { buildMcpServer, runTool, serverInfo, type ToolRunDeps } from './server.ts';
import { ADMISSION, type Admitted, type JsonRpcRequest, type StepEnv } from './steps.ts';
import { endpointKeys } from './tools/declare.ts';
import { toolsForScopes, type CatalogueTool } from './tools/catalogue.ts';
import type { LedgerResponse, McpConnection, McpDeps } from './types.ts';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What the SDK's side of one admitted request needs and finds out. */
interface ServedRequest {
  connection: McpConnection;
  dataset: string;
  tools: readonly CatalogueTool[];
  /** for resource lists: the person's permitted endpoints (undefined: scopes alone filter) */
  permitted?: ReadonlySet<string> | undefined;
  /** the ledger check is left to the request's own ledger REST call */
  deferred: boolean;
  /** a ledger REST call of this request confirmed the connection */
  verified: boolean;
  /** the ledger refused the connection during this request: it has ended */
  ended?: TokenRefusal;
}

/** The ledger's reason when it refused the connection's service credential, else undefined. */
export function connectionRefusal(res: LedgerResponse): string | undefined {
  if (res.status !== 403 || typeof res.body !== 'object' || res.body === null) return undefined;
  const error = (res.body as { error?: { code?: unknown; reason?: unknown } }).error;
  if (error?.code !== 'connection_not_allowed') return undefined;
  return typeof error.reason === 'string' ? error.reason : '';
}

/**
 * A single message carrying the per-request envelope claim (`_meta` key
 * `io.modelcontextprotocol/protocolVersion`): the SDK never serves it as a
 * 2025-era request (isLegacyRequest documents "true only for requests with no per-request
 * _meta envelope claim"), so its classification need not run twice. Anything else is
 * classified by the SDK itself.
 */
export function claimsModernEra(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const meta = (body as { params?: { _meta?: unknown } }).params?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

export interface McpEndpoint {
  /** Serves one request to `/mcp/{dataset}`; the endpoint reads the body itself. */
  handle(req: IncomingMessage, res: ServerResponse, dataset: string): Promise<void>;
  close(): Promise<void>;
}

export function createMcpEndpoint(deps: McpDeps): McpEndpoint {
  const env: StepEnv = {
    deps,
    publicOrigin: new URL(deps.publicUrl),
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    limiter: deps.rateLimiter ?? ConnectionRateLimiter.inMemory(deps.requestsPerMinute ?? 120, deps.log),
  };
  const maxBody = env.maxBodyBytes;
  const access = new AccessCache(deps, deps.accessCacheMs ?? 30_000);
  const served = new WeakMap<AuthInfo, ServedRequest>();
  const stateKey = deps.confirmationKey ?? randomBytes(32);
  const elicitationClients = new ElicitationClients();
  const pendingElicitations = new PendingElicitations();

  /** The tool-run dependencies of one request: its ledger calls tell whether the connection stands. */
  const trackedRun = (state: ServedRequest): ToolRunDeps => {
    const callLedger: McpDeps['callLedger'] = async (connection, method, path, body, headers) => {
      const res = await deps.callLedger(connection, method, path, body, headers);
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
    // a call during which the ledger refused the connection counts as refused, not as a tool error
    const onToolCall: McpDeps['onToolCall'] = (tool, result) =>
      deps.onToolCall?.(tool, state.ended ? 'refused' : result);
    return { callLedger, log: deps.log, onToolCall, publicUrl: deps.publicUrl, stateKey };
  };
  const factory = (ctx: McpRequestContext) => {
    const state = ctx.authInfo ? served.get(ctx.authInfo) : undefined;
    if (!state) throw new Error('MCP request reached the SDK without an authenticated connection');
    return buildMcpServer(trackedRun(state), state.connection, state.tools, state.permitted);
  };
  /** After a request with a deferred connection check: why its answer must be a refusal, if it must. */
  async function deferredRefusal(state: ServedRequest): Promise<TokenRefusal | undefined> {
    if (state.ended) return state.ended;
    const confirmed = await deps.confirmConnection(state.connection, state.verified);
    return confirmed.ok ? undefined : confirmed;
  }
  const onerror = (err: Error) => deps.log.warn({ err: err.message }, 'MCP request rejected by the SDK');
  const handler = createMcpHandler(factory, { legacy: 'stateless', onerror, maxRequestBodySize: maxBody });
  const refused = (state: ServedRequest, r: TokenRefusal) => McpAnswer.tokenRefused(deps.publicUrl, state.dataset, r);
  /** The SDK's handler, with the deferred connection check completed before an answer leaves. */
  const checked = {
    async fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response> {
      const state = options?.authInfo ? served.get(options.authInfo) : undefined;
      if (
        state?.deferred &&
        !claimsModernEra(options?.parsedBody) &&
        (await isLegacyRequest(request, options?.parsedBody, { maxRequestBodySize: maxBody }))
      ) {
        // 2025-era answers may start streaming before the tool has run: check first
        state.deferred = false;
        const confirmed = await deps.confirmConnection(state.connection, false);
        if (!confirmed.ok) return refused(state, confirmed).toResponse();
      }
      const response = await handler.fetch(request, options);
      if (!state?.deferred) return response;
      const refusal = await deferredRefusal(state);
      if (!refusal) return response;
      await response.body?.cancel().catch(() => undefined);
      return refused(state, refusal).toResponse();
    },
  };
  const nodeHandler = toNodeHandler(checked, { onerror });

  /**
   * The tools the request's server registers: for a `tools/call`, only the called tool (a
   * server per request is built from this list, so a short list is cheaper); for
   * `tools/list`, the tools of the granted scopes that the person's role may use.
   */
  async function toolsFor(
    connection: McpConnection,
    requests: readonly JsonRpcRequest[],
  ): Promise<readonly CatalogueTool[]> {
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
    return endpoints ? byScope.filter((t) => endpointKeys(t.declaration).some((key) => endpoints.has(key))) : byScope;
  }

  /** Answers a call without the SDK (directCall.ts), with the same connection check after it. */
  async function answerDirectly(res: ServerResponse, state: ServedRequest, call: DirectCall): Promise<void> {
    const result = await checkedOutput(
      call.tool,
      await runTool(trackedRun(state), state.connection, call.tool, call.args, call.id),
    );
    const refusal = state.deferred ? await deferredRefusal(state) : undefined;
    if (refusal) return refused(state, refusal).send(res);
    const payload = encodeCallAnswer(call.id, result, serverInfo(deps.publicUrl));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
    res.end(payload);
  }

  /**
   * A single 2025-era call of a consequential write from a client that declared elicitation
   * at its initialize: answered by serveLegacyConfirm (legacyConfirm.ts), else undefined.
   */
  async function legacyConfirmCall(req: IncomingMessage, body: unknown, state: ServedRequest) {
    if (!isRecord(body) || body.method !== 'tools/call' || !isRecord(body.params)) return undefined;
    const { id, params } = body;
    if (!(typeof id === 'string' || Number.isSafeInteger(id)) || typeof params.name !== 'string') return undefined;
    if (!elicitationClients.elicits(state.connection.id)) return undefined;
    if (!(req.headers.accept ?? '').toLowerCase().includes('text/event-stream')) return undefined;
    const tool = state.tools.find((t) => t.declaration.name === params.name);
    const args = params.arguments ?? {};
    if (!tool || !isRecord(args)) return undefined;
    const checked = await tool.inputSchema['~standard'].validate(args);
    if (checked.issues || !mayAsk(tool.declaration)) return undefined;
    if (claimsModernEra(body)) return undefined;
    const probe = new AbortController();
    if (!(await isLegacyRequest(bodylessRequest(req, probe.signal), body, { maxRequestBodySize: maxBody })))
      return undefined;
    return { id: id as string | number, tool, args: checked.value };
  }

  /** Asks the person on the call's SSE stream, then answers the call there (legacyConfirm.ts). */
  async function serveLegacyConfirm(res: ServerResponse, state: ServedRequest, call: DirectCall): Promise<void> {
    if (state.deferred) {
      // the stream opens before the tool runs: the connection is checked first
      state.deferred = false;
      const confirmed = await deps.confirmConnection(state.connection, false);
      if (!confirmed.ok) return refused(state, confirmed).send(res);
    }
    const stream = new CallStream(res);
    stream.open();
    const tracked = trackedRun(state);
    const run: RunTool = async (input, confirmation) =>
      stream.signal.aborted
        ? { isError: true, content: [{ type: 'text', text: 'The client went away; nothing was done.' }] }
        : runTool(tracked, state.connection, call.tool, input, call.id, confirmation);
    const result = await runConfirmed(
      { callLedger: tracked.callLedger, stateKey },
      state.connection,
      call.tool,
      call.args,
      {
        kind: 'elicit',
        elicit: (params) => pendingElicitations.ask(state.connection.id, params, (m) => stream.send(m), stream.signal),
      },
      run,
    );
    // an elicit asker never yields an input_required result
    if (stream.signal.aborted || isInputRequiredResult(result)) return;
    stream.finish(call.id, await checkedOutput(call.tool, result));
  }

  /** Serves an admitted request: a direct call, else through the SDK, authenticated as its connection. */
  async function serve(res: ServerResponse, admitted: Admitted): Promise<void> {
    const { req, token, connection, dataset, requests, deferred } = admitted;
    const state: ServedRequest = {
      connection,
      dataset,
      tools: await toolsFor(connection, requests),
      deferred,
      verified: false,
    };
    // resource lists show what the person's role may read, as tools/list does
    if (requests.some((r) => r.method === 'resources/list' || r.method === 'resources/templates/list'))
      state.permitted = await access.permittedEndpoints(connection);
    // the client's answer to a question of a waiting 2025-era call (legacyConfirm.ts)
    if (pendingElicitations.answer(connection.id, admitted.body)) {
      res.writeHead(202).end();
      return;
    }
    for (const r of requests) {
      if (r.method === 'initialize')
        elicitationClients.remember(
          connection.id,
          elicitsForms(isRecord(r.params?.capabilities) ? r.params.capabilities : undefined),
        );
    }
    const confirming = await legacyConfirmCall(req, admitted.body, state);
    if (confirming) {
      deps.onServed?.('direct');
      return serveLegacyConfirm(res, state, confirming);
    }
    let call = deps.directToolCalls === false ? undefined : await directCallOf(req, admitted.body, state.tools);
    // a write the person may have to confirm is served by the SDK (its input_required result and retry)
    if (call && mayAsk(call.tool.declaration)) call = undefined;
    deps.onServed?.(call ? 'direct' : 'sdk');
    if (call) return answerDirectly(res, state, call);
    const authInfo: AuthInfo = {
      token,
      clientId: connection.clientName,
      scopes: [...connection.scopes],
      resource: new URL(admitted.resource),
      extra: { connectionId: connection.id },
    };
    served.set(authInfo, state);
    (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    await nodeHandler(req, res, admitted.body);
  }

  return {
    async handle(req, res, dataset) {
      try {
        // browser clients: the preflight is answered first, every answer readable by the caller's origin (cors.ts)
        if (answerPreflight(req, res)) return;
        allowOrigin(req, res);
        const admitted = await ADMISSION.run(env, { req, dataset });
        if (admitted instanceof McpAnswer) return admitted.send(res);
        await serve(res, admitted);
      } catch (err) {
        deps.log.error({ dataset, err: err instanceof Error ? err.message : String(err) }, 'MCP request failed');
        McpAnswer.jsonRpcError(500, -32603, 'Internal error.').send(res);
      }
    },
    close: () => handler.close(),
  };
}
