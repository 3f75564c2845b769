/** Turns a tool declaration and validated input into the ledger REST request. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@ledger/shared/canonicalJson';
import type { LedgerMethod } from '../types.ts';
import { restCallFor, type ResolvedTool, type ToolInput } from './declare.ts';

export interface LedgerRequest {
  method: LedgerMethod;
  /** absolute ledger path including the query string */
  path: string;
  body?: Record<string, unknown>;
}

/**
 * Characters URLSearchParams writes as they are (application/x-www-form-urlencoded): a query of
 * only these is written without it, as the same bytes — most tool calls' queries (a name, a
 * date, a number) — and any other goes through it.
 */
const FORM_PLAIN = /^[A-Za-z0-9*\-._]*$/;

/** The query of a GET or DELETE, as URLSearchParams writes it. */
export function queryString(fields: Record<string, unknown>): string {
  let plain = '';
  let params: URLSearchParams | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (params === undefined && FORM_PLAIN.test(key) && FORM_PLAIN.test(text)) {
      plain += `${plain ? '&' : ''}${key}=${text}`;
      continue;
    }
    // from the first value that needs encoding on, URLSearchParams writes the whole query
    params ??= new URLSearchParams(plain);
    params.append(key, text);
  }
  const s = params ? params.toString() : plain;
  return s ? `?${s}` : '';
}

/** `:name` in a contract's path (global: `replace` starts every search afresh). */
const PATH_PARAMETER = /:([A-Za-z_]\w*)/g;

export function buildLedgerRequest(
  tool: Pick<ResolvedTool, 'name' | 'rest' | 'alternative'>,
  dataset: string,
  input: ToolInput,
): LedgerRequest {
  const call = restCallFor(tool, input);
  const rest: Record<string, unknown> = { ...input };
  // a path without parameters (a search, a list) as it is, with no replace per call
  const path = !call.path.includes(':')
    ? call.path
    : call.path.replace(PATH_PARAMETER, (_m, name: string) => {
        const value = rest[name];
        if (value === undefined || value === null)
          throw new Error(`tool ${tool.name}: input lacks path parameter ${name}`);
        delete rest[name];
        return encodeURIComponent(String(value));
      });
  const base = `/client/${encodeURIComponent(dataset)}${path}`;
  const { method } = call;
  if (method === 'GET' || method === 'DELETE')
    return { method, path: base + queryString({ ...rest, ...call.fixedBody }) };
  return { method, path: base, body: { ...rest, ...call.fixedBody } };
}

/**
 * The Idempotency-Key a write tool sends with its ledger POST (docs/mcp.md "Retries"): a
 * hash of the connection, the JSON-RPC request id (with its type: 7 and "7" are different
 * ids), the tool and the request it makes. An assistant retrying a `tools/call` — same id,
 * same arguments, at any gateway replica — gets the ledger's kept answer instead of a second
 * booking. The arguments are part of the key because JSON-RPC ids restart with every MCP
 * session (SDK clients count from 0): without them a new conversation's first call would
 * meet the last one's key and be refused as "another request". Reads send no key.
 */
export function idempotencyKeyFor(
  connectionId: string,
  rpcId: string | number,
  tool: string,
  request: LedgerRequest,
): string | undefined {
  if (request.method !== 'POST') return undefined;
  const material = JSON.stringify([
    connectionId,
    typeof rpcId,
    String(rpcId),
    tool,
    request.method,
    request.path,
    canonicalJson(request.body ?? null),
  ]);
  return `mcp-${createHash('sha256').update(material).digest('base64url')}`;
}
