/** Turns a tool declaration and validated input into the ledger REST request. */
import type { LedgerMethod } from '../types.ts';
import type { ResolvedTool, ToolInput } from './declare.ts';

export interface LedgerRequest {
  method: LedgerMethod;
  /** absolute ledger path including the query string */
  path: string;
  body?: Record<string, unknown>;
}

function queryString(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function buildLedgerRequest(tool: Pick<ResolvedTool, 'name' | 'rest'>, dataset: string, input: ToolInput): LedgerRequest {
  const rest: Record<string, unknown> = { ...input };
  const path = tool.rest.path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null) throw new Error(`tool ${tool.name}: input lacks path parameter ${name}`);
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  const base = `/client/${encodeURIComponent(dataset)}${path}`;
  const { method } = tool.rest;
  if (method === 'GET' || method === 'DELETE') return { method, path: base + queryString(rest) };
  return { method, path: base, body: { ...rest, ...tool.rest.fixedBody } };
}
