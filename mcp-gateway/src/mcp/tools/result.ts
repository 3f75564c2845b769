/** Shapes a ledger response into an MCP tool result: structuredContent plus a short text. */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import type { LedgerResponse } from '../types.ts';
import type { ToolDeclaration, ToolInput, ToolLink } from './declare.ts';
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
  return {
    code: res.status >= 500 ? 'unavailable' : 'ledger_error',
    message: `The ledger answered HTTP ${res.status}.`,
  };
}

export function toolError(error: ToolErrorInfo): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${error.field ? ` (field ${error.field})` : ''}` }],
    structuredContent: { error: { ...error } },
  };
}

/**
 * The JSON text of a success result's structuredContent, as its text block carries it: the
 * direct path writes it again as the answer's structuredContent (directCall.ts
 * `encodeCallAnswer`) instead of serialising the same ledger answer a second time. Nothing
 * changes a result's structuredContent after it is made (the output schema's validator only
 * reads it), so the text stays that object's.
 */
const structuredTexts = new WeakMap<object, string>();

/** The JSON text `toolSuccess` made of this structuredContent object, if it made it. */
export function structuredTextOf(structured: unknown): string | undefined {
  return typeof structured === 'object' && structured !== null ? structuredTexts.get(structured) : undefined;
}

export function toolSuccess(
  tool: Pick<ToolDeclaration, 'listKey' | 'summary'>,
  input: ToolInput,
  data: unknown,
): CallToolResult {
  const structured: Record<string, unknown> = Array.isArray(data)
    ? { [tool.listKey ?? 'items']: data }
    : isRecord(data)
      ? data
      : { result: data ?? null };
  const text = JSON.stringify(structured);
  structuredTexts.set(structured, text);
  return {
    // the short text first; the JSON text block serves clients that ignore structuredContent
    content: [
      { type: 'text', text: tool.summary(data, input) },
      { type: 'text', text },
    ],
    structuredContent: structured,
  };
}

/** A `resource_link` to `link` of `dataset` (the URI resources.ts reads). */
export function resourceLink(dataset: string, link: ToolLink): ContentBlock {
  return {
    type: 'resource_link',
    uri: `ledger://${encodeURIComponent(dataset)}/${link.path}`,
    name: link.name,
    ...(link.title ? { title: link.title } : {}),
    ...(link.mimeType ? { mimeType: link.mimeType } : {}),
    ...(link.size !== undefined ? { size: link.size } : {}),
  };
}

/**
 * A file answer (download contracts such as the invoice PDF) of a tool that declares no link,
 * as an embedded resource: the bytes base64 in `blob`, named by `uri`; the short text first.
 * No structuredContent (the contract has no JSON answer, so the tool declares no output schema).
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

/**
 * The tool result of a ledger answer. A tool with `link` points to its resource of `dataset`
 * (a file answer then carries no bytes: the assistant reads the resource when it needs them);
 * `uri` names the embedded file answer of a tool without one.
 */
export function toToolResult(
  tool: Pick<ToolDeclaration, 'listKey' | 'summary' | 'link'>,
  input: ToolInput,
  res: LedgerResponse,
  dataset: string,
  uri = 'ledger:file',
): CallToolResult {
  if (res.status < 200 || res.status >= 300) return toolError(ledgerError(res));
  const { file } = res;
  const link = tool.link?.(
    input,
    file ? { name: file.name, mediaType: file.mediaType, size: file.data.length } : res.body,
  );
  if (file && !link) return toolFile(tool, input, file, uri);
  if (file && link)
    return { content: [{ type: 'text', text: tool.summary(file.name ?? null, input) }, resourceLink(dataset, link)] };
  const result = toolSuccess(tool, input, res.body);
  return link ? { ...result, content: [...result.content, resourceLink(dataset, link)] } : result;
}
