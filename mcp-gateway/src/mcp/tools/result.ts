/** Shapes a ledger response into an MCP tool result: structuredContent plus a short text. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { LedgerResponse } from '../types.ts';
import type { ToolDeclaration, ToolInput } from './declare.ts';
import { isRecord } from './isRecord.ts';

export interface ToolErrorInfo {
  code: string;
  message: string;
  field?: string;
}

/** The ledger's `{ error: { code, message, field } }`, or a generic description of the status. */
export function ledgerError(res: LedgerResponse): ToolErrorInfo {
  const err = isRecord(res.body) ? res.body.error : undefined;
  if (isRecord(err) && typeof err.code === 'string' && typeof err.message === 'string') {
    return typeof err.field === 'string'
      ? { code: err.code, message: err.message, field: err.field }
      : { code: err.code, message: err.message };
  }
  return { code: res.status >= 500 ? 'unavailable' : 'ledger_error', message: `The ledger answered HTTP ${res.status}.` };
}

export function toolError(error: ToolErrorInfo): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${error.field ? ` (field ${error.field})` : ''}` }],
    structuredContent: { error: { ...error } },
  };
}

export function toolSuccess(tool: Pick<ToolDeclaration, 'listKey' | 'summary'>, input: ToolInput, data: unknown): CallToolResult {
  const structured: Record<string, unknown> = Array.isArray(data)
    ? { [tool.listKey ?? 'items']: data }
    : isRecord(data)
      ? data
      : { result: data ?? null };
  return {
    // the short text first; the JSON text block serves clients that ignore structuredContent
    content: [
      { type: 'text', text: tool.summary(data, input) },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

/**
 * A file answer (download contracts such as the invoice PDF) as an embedded resource: the
 * bytes base64 in `blob`, named by `uri`; the short text first. No structuredContent (the
 * contract has no JSON answer, so the tool declares no output schema).
 */
export function toolFile(
  tool: Pick<ToolDeclaration, 'summary'>,
  input: ToolInput,
  file: NonNullable<LedgerResponse['file']>,
  uri: string,
): CallToolResult {
  return {
    content: [
      { type: 'text', text: tool.summary(file.name ?? null, input) },
      { type: 'resource', resource: { uri, mimeType: file.mediaType, blob: file.data.toString('base64') } },
    ],
  };
}

/** `uri` names a file answer's resource (see toolFile). */
export function toToolResult(tool: Pick<ToolDeclaration, 'listKey' | 'summary'>, input: ToolInput, res: LedgerResponse, uri = 'ledger:file'): CallToolResult {
  if (res.status >= 200 && res.status < 300) return res.file ? toolFile(tool, input, res.file, uri) : toolSuccess(tool, input, res.body);
  return toolError(ledgerError(res));
}
