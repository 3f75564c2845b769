/**
 * The MCP endpoint's hot path: the one request shape an assistant sends most — a single
 * 2026-07-28 `tools/call` of a tool this request may use, with arguments its input schema
 * accepts — is answered by the gateway itself instead of through a per-request SDK server.
 * Everything else (other methods, batches, 2025-era requests, anything unusual in the
 * message, its `_meta` envelope or its headers, arguments the schema refuses) goes to the
 * SDK, which stays the authority on the protocol and on every error answer.
 *
 * Why: through the SDK a call costs a web Request and Response, the JSON-RPC message parsed
 * again with zod, a new McpServer with its transport and protocol state, and the result
 * re-encoded — about 0.6 ms of the gateway's CPU per call on the benchmark machine
 * (docs/benchmarks.md "Gateway"), more than the rest of the call's own work.
 *
 * What stays the same: the tool runs exactly as under the SDK (`runTool`, the same input and
 * output validators compiled once in the catalogue), and the answer is what the SDK's
 * 2026-07-28 codec would write for it: the tool result, `resultType: "complete"` and the
 * server's identity in `_meta`; a result that fails the tool's output schema becomes the
 * SDK's tool error. `mcp-gateway/test/directCall.test.ts` sends the same requests to a
 * gateway with and without this path and requires the same answers.
 */
import type { IncomingMessage } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  isJsonContentType,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { andThen, type Maybe } from './maybe.ts';
import type { CatalogueTool } from './tools/catalogue.ts';
import { isRecord } from './tools/isRecord.ts';
import { structuredTextOf } from './tools/result.ts';

/**
 * The revisions the hot path answers: the per-request revision the SDK serves (it does not
 * export its list of those; directCall.test.ts fails if the SDK answers it differently).
 */
export const DIRECT_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** A call the gateway answers itself. */
export interface DirectCall {
  id: string | number;
  tool: CatalogueTool;
  /** the arguments as the tool's input schema accepted them */
  args: Record<string, unknown>;
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);
const META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title']);

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * What the SDK's `isJsonContentType` says of a Content-Type, and whether an Accept names both
 * JSON and the event stream, remembered per header value: a client sends the same two headers
 * on every call, and the first parses a media type with its parameters each time. Bounded: a
 * client sending ever new values only makes the memo start afresh.
 */
const JSON_TYPES = new Map<string, boolean>();
const ACCEPTS = new Map<string, boolean>();
const HEADER_MEMO = 100;

function remembered(memo: Map<string, boolean>, value: string, judge: (value: string) => boolean): boolean {
  let verdict = memo.get(value);
  if (verdict === undefined) {
    verdict = judge(value);
    if (memo.size >= HEADER_MEMO) memo.clear();
    memo.set(value, verdict);
  }
  return verdict;
}

function jsonContentType(value: string | undefined): boolean {
  return value === undefined ? isJsonContentType(null) : remembered(JSON_TYPES, value, isJsonContentType);
}

function acceptsJsonAndStream(value: string): boolean {
  return remembered(ACCEPTS, value, acceptsBoth);
}

function acceptsBoth(value: string): boolean {
  const accept = value.toLowerCase();
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The client info of the envelope: name and version (and a title), all strings. */
function plainClientInfo(value: unknown): boolean {
  return (
    isRecord(value) &&
    onlyKeys(value, CLIENT_INFO_KEYS) &&
    typeof value.name === 'string' &&
    typeof value.version === 'string' &&
    (value.title === undefined || typeof value.title === 'string')
  );
}

/** Client capabilities: an object of capability objects (what every client declares). */
function plainCapabilities(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) if (!isRecord(value[key])) return false;
  return true;
}

/**
 * The call when `body` is a request the hot path may answer, else undefined (the SDK serves
 * it). `tools` are the tools this request may use (serve/chooseTools.ts). At once when the
 * input schema validates at once (the catalogue's compiled validators do).
 */
export function directCallOf(
  req: IncomingMessage,
  body: unknown,
  tools: readonly CatalogueTool[],
): Maybe<DirectCall | undefined> {
  if (req.method !== 'POST' || !jsonContentType(header(req, 'content-type'))) return undefined;
  if (!acceptsJsonAndStream(header(req, 'accept') ?? '')) return undefined;
  if (!isRecord(body) || !onlyKeys(body, MESSAGE_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call')
    return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (!isRecord(params) || !onlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  const args = params.arguments ?? {};
  const meta = params._meta;
  if (!isRecord(args) || !isRecord(meta) || !onlyKeys(meta, META_KEYS)) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || !DIRECT_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (!plainClientInfo(meta[CLIENT_INFO_META_KEY]) || !plainCapabilities(meta[CLIENT_CAPABILITIES_META_KEY]))
    return undefined;
  // the standard headers must agree with the body; the SDK answers every disagreement
  if (
    header(req, 'mcp-protocol-version') !== version ||
    header(req, 'mcp-method') !== 'tools/call' ||
    header(req, 'mcp-name') !== params.name
  )
    return undefined;
  const tool = tools.find((t) => t.declaration.name === params.name);
  if (!tool) return undefined;
  return andThen(tool.inputSchema['~standard'].validate(args), (checked) =>
    checked.issues ? undefined : { id: id as string | number, tool, args: checked.value },
  );
}

/** A tool result after the tool's output schema, as the SDK's McpServer checks it (at once when the schema is). */
export function checkedOutput(tool: CatalogueTool, result: CallToolResult): Maybe<CallToolResult> {
  if (!tool.outputSchema || result.isError) return result;
  const name = tool.declaration.name;
  if (result.structuredContent === undefined)
    return toolError(
      `Output validation error: Tool ${name} has an output schema but no structured content was provided`,
    );
  return andThen(tool.outputSchema['~standard'].validate(result.structuredContent), (checked) => {
    if (!checked.issues) return result;
    return toolError(
      `Output validation error: Invalid structured content for tool ${name}: ` +
        `${checked.issues.map((i) => i.message).join(', ')}`,
    );
  });
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The JSON-RPC answer to a call, as the SDK's 2026-07-28 codec encodes a tools/call result:
 * `{ result: { ...result, resultType: 'complete', _meta }, jsonrpc, id }`, written member by
 * member so that a structuredContent whose JSON text the result already carries (its text
 * block, tools/result.ts `structuredTextOf`) is written from that text rather than serialised
 * again — the ledger's answer was the larger part of a call's JSON work. Same members in the
 * same order as JSON.stringify of that object (a member the result already has keeps its place).
 */
export function encodeCallAnswer(
  id: string | number,
  result: CallToolResult,
  serverInfo: { name: string; version: string },
): string {
  let members = '';
  let hasResultType = false;
  let hasMeta = false;
  for (const key of Object.keys(result)) {
    let json: string | undefined;
    if (key === 'resultType') {
      hasResultType = true;
      json = '"complete"';
    } else if (key === '_meta') {
      hasMeta = true;
      json = answerMetaJson(result, serverInfo);
    } else {
      const value: unknown = result[key];
      json = (key === 'structuredContent' && structuredTextOf(value)) || JSON.stringify(value);
    }
    // a member whose value JSON leaves out (undefined) is left out here too
    if (json !== undefined) members += `${members ? ',' : ''}${JSON.stringify(key)}:${json}`;
  }
  if (!hasResultType) members += `${members ? ',' : ''}"resultType":"complete"`;
  if (!hasMeta) members += `${members ? ',' : ''}"_meta":${answerMetaJson(result, serverInfo)}`;
  return `{"result":{${members}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/**
 * The answer's `_meta` as JSON: the result's own with the server's identity added. For a result
 * without `_meta` (every catalogue tool's) that is the identity alone, serialised once per
 * frozen identity (server.ts `serverInfo`, one per public URL) instead of on every call.
 */
function answerMetaJson(result: CallToolResult, serverInfo: { name: string; version: string }): string {
  const meta = result._meta;
  if (isRecord(meta))
    return JSON.stringify({ ...meta, [SERVER_INFO_META_KEY]: meta[SERVER_INFO_META_KEY] ?? serverInfo });
  if (!Object.isFrozen(serverInfo)) return JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo });
  let json = serverMetas.get(serverInfo);
  if (json === undefined) {
    json = JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo });
    serverMetas.set(serverInfo, json);
  }
  return json;
}

const serverMetas = new WeakMap<object, string>();
