/**
 * Builds the per-request McpServer: the tools this request may see, each calling the ledger
 * as the connected person.
 */
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import type { CatalogueTool } from './tools/catalogue.ts';
import { toolError, toToolResult } from './tools/result.ts';
import { buildLedgerRequest, idempotencyKeyFor } from './tools/request.ts';
import { toolAnnotations, type ToolAnnotations } from './tools/declare.ts';
import type { McpConnection, McpDeps } from './types.ts';

export const SERVER_INFO = { name: 'ledger-mcp', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Bookkeeping tools for one company. Amounts are JSON numbers in the document currency; dates yyyy-mm-dd; ' +
  'accounts are referenced by their number as a string. Look up vendors before creating them, and read the chart ' +
  'of accounts and tax codes once before creating bills.';

/** What running a tool needs of the endpoint. */
export type ToolRunDeps = Pick<McpDeps, 'callLedger' | 'log' | 'onToolCall'>;

/** Runs one tool call: its REST call to the ledger as the connected person, the answer as a tool result. */
export async function runTool(
  deps: ToolRunDeps,
  connection: McpConnection,
  tool: CatalogueTool,
  input: Record<string, unknown>,
  /** the JSON-RPC id of the tools/call: with the connection, it keys the ledger write */
  rpcId: string | number,
): Promise<CallToolResult> {
  const { declaration } = tool;
  const request = buildLedgerRequest(declaration, connection.dataset, input);
  const key = idempotencyKeyFor(connection.id, rpcId, declaration.name, request);
  const started = performance.now();
  try {
    const res = await deps.callLedger(connection, request.method, request.path, request.body, key ? { 'Idempotency-Key': key } : undefined);
    if (res.status >= 500) {
      deps.log.error({ conn: connection.id, tool: declaration.name, status: res.status }, 'ledger error during MCP tool call');
    }
    // a file answer is named by its REST path: ledger://{dataset}/arap/invoice/customer/5/pdf
    const result = toToolResult(declaration, input, res, `ledger://${request.path.replace(/^\/client\//, '')}`);
    deps.onToolCall?.(declaration.name, result.isError ? 'tool_error' : 'ok');
    return result;
  } catch (err) {
    deps.log.error(
      { conn: connection.id, tool: declaration.name, err: err instanceof Error ? err.message : String(err), ms: Math.round(performance.now() - started) },
      'ledger unreachable during MCP tool call',
    );
    deps.onToolCall?.(declaration.name, 'tool_error');
    return toolError({ code: 'unavailable', message: 'The ledger service is not reachable; try again shortly.' });
  }
}

interface ToolConfig {
  title: string;
  description: string;
  inputSchema: CatalogueTool['inputSchema'];
  outputSchema?: CatalogueTool['outputSchema'];
  annotations: ToolAnnotations;
}

/** Registration data per catalogue tool, built once (a server is built per request). */
const toolConfigs = new WeakMap<CatalogueTool, ToolConfig>();

function toolConfig(tool: CatalogueTool): ToolConfig {
  let config = toolConfigs.get(tool);
  if (!config) {
    const d = tool.declaration;
    config = {
      title: d.title,
      description: d.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: toolAnnotations(d),
    };
    toolConfigs.set(tool, config);
  }
  return config;
}

export function buildMcpServer(
  deps: ToolRunDeps,
  connection: McpConnection,
  tools: readonly CatalogueTool[],
): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of tools) {
    server.registerTool(tool.declaration.name, toolConfig(tool), (args: Record<string, unknown>, ctx) => runTool(deps, connection, tool, args, ctx.mcpReq.id));
  }
  return server;
}
