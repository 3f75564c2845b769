/**
 * Builds the per-request McpServer: the tools this request may see, each calling the ledger
 * as the connected person, and the resources of the granted areas (resources.ts).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  type CallToolResult,
  type Implementation,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  confirmationHeaders,
  elicitsForms,
  holdResult,
  runConfirmed,
  type Asker,
  type Confirmed,
  type RunTool,
} from './confirm.ts';
import { areaIcons, serverIcons, type Icon } from './icons.ts';
import { appResources, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, readAppResource, TOOL_APPS } from './apps.ts';
import { listResources, listResourceTemplates, readResource, type PermittedEndpoints } from './resources.ts';
import type { CatalogueTool } from './tools/catalogue.ts';
import { toolError, toToolResult } from './tools/result.ts';
import { buildLedgerRequest, idempotencyKeyFor } from './tools/request.ts';
import { listedAnnotations, type ToolAnnotations } from './tools/declare.ts';
import type { McpConnection, McpDeps } from './types.ts';

export const SERVER_INFO = { name: 'ledger-mcp', version: '1.0.0' } as const;

const serverInfos = new Map<string, Implementation>();

/**
 * The server's identity with its icon, served from `publicUrl` (2026-07-28 answers carry it in
 * `_meta`). Frozen, icons and all: one object per public URL shared by every request, whose
 * JSON the direct path writes from a copy made once (directCall.ts `encodeCallAnswer`).
 */
export function serverInfo(publicUrl: string): Implementation {
  let info = serverInfos.get(publicUrl);
  if (!info) {
    const icons = serverIcons(publicUrl).map((icon) =>
      Object.freeze({ ...icon, ...(icon.sizes ? { sizes: Object.freeze([...icon.sizes]) as string[] } : {}) }),
    );
    info = Object.freeze({ ...SERVER_INFO, title: 'Ledger', icons: Object.freeze(icons) as Icon[] });
    serverInfos.set(publicUrl, info);
  }
  return info;
}

const INSTRUCTIONS =
  'Bookkeeping tools for one company. Amounts are JSON numbers in the document currency; dates yyyy-mm-dd; ' +
  'accounts are referenced by their number as a string. Look up vendors before creating them, and read the chart ' +
  'of accounts and tax codes once before creating bills.';

/** The name of a file answer of a tool without a resource link: its REST path (made only for a file answer). */
function fileUri(path: string): string {
  return `ledger://${path.replace(/^\/client\//, '')}`;
}

/** What running a tool needs of the endpoint. */
export type ToolRunDeps = Pick<McpDeps, 'callLedger' | 'log' | 'onToolCall' | 'publicUrl'> & {
  /** the MAC key of confirmation request states (confirm.ts) */
  stateKey: Uint8Array;
};

/** Runs one tool call: its REST call to the ledger as the connected person, the answer as a tool result. */
export async function runTool(
  deps: ToolRunDeps,
  connection: McpConnection,
  tool: CatalogueTool,
  input: Record<string, unknown>,
  /** the JSON-RPC id of the tools/call: with the connection, it keys the ledger write */
  rpcId: string | number,
  /** how the person confirmed this consequential write and the ledger's token (confirm.ts) */
  confirmation?: Confirmed,
): Promise<CallToolResult> {
  const { declaration } = tool;
  const request = buildLedgerRequest(declaration, connection.dataset, input);
  const key = idempotencyKeyFor(connection.id, rpcId, declaration.name, request);
  const started = performance.now();
  try {
    const res = await deps.callLedger(
      connection,
      request.method,
      request.path,
      request.body,
      request.method === 'GET'
        ? undefined
        : { ...(key ? { 'Idempotency-Key': key } : {}), ...confirmationHeaders(declaration.name, confirmation) },
    );
    if (res.status >= 500) {
      deps.log.error(
        { conn: connection.id, tool: declaration.name, status: res.status },
        'ledger error during MCP tool call',
      );
    }
    // a file answer of a tool without a resource link is named by its REST path
    // a write the ledger holds for the person's confirmation keeps its preview and token beside the result (confirm.ts)
    const result = holdResult(
      toToolResult(declaration, input, res, connection.dataset, res.file ? fileUri(request.path) : undefined),
      res.status === 428 ? res.body : undefined,
    );
    deps.onToolCall?.(declaration.name, result.isError ? 'tool_error' : 'ok');
    return result;
  } catch (err) {
    deps.log.error(
      {
        conn: connection.id,
        tool: declaration.name,
        err: err instanceof Error ? err.message : String(err),
        ms: Math.round(performance.now() - started),
      },
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
  annotations: Partial<ToolAnnotations>;
  icons: Icon[];
  _meta?: Record<string, unknown>;
}

/**
 * Registration data per catalogue tool and public URL (the icons' origin), built once (a server is built per request).
 */
const toolConfigs = new WeakMap<CatalogueTool, { publicUrl: string; config: ToolConfig }>();

function toolConfig(tool: CatalogueTool, publicUrl: string): ToolConfig {
  const cached = toolConfigs.get(tool);
  if (cached?.publicUrl === publicUrl) return cached.config;
  const d = tool.declaration;
  const config: ToolConfig = {
    title: d.title,
    description: d.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: listedAnnotations(d),
    icons: areaIcons(publicUrl, d.area),
    // the MCP Apps view a host may show the result in (apps.ts)
    ...(TOOL_APPS[d.name] ? { _meta: { ui: { resourceUri: TOOL_APPS[d.name] } } } : {}),
  };
  toolConfigs.set(tool, { publicUrl, config });
  return config;
}

/** The raw requestState of a retried call (the MAC is checked by confirm.ts, not by a hook). */
function requestStateOf(ctx: ServerContext): string | undefined {
  const state: unknown = ctx.mcpReq.requestState();
  return typeof state === 'string' ? state : undefined;
}

export function buildMcpServer(
  deps: ToolRunDeps,
  connection: McpConnection,
  tools: readonly CatalogueTool[],
  /** the person's permitted endpoints, for the resource lists (undefined: scopes alone filter) */
  permitted?: PermittedEndpoints,
): McpServer {
  const server = new McpServer(serverInfo(deps.publicUrl), {
    // the MCP Apps extension: views of type text/html;profile=mcp-app (apps.ts)
    capabilities: {
      tools: {},
      resources: {},
      extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } },
    },
    instructions: INSTRUCTIONS,
  });
  for (const tool of tools) {
    server.registerTool(
      tool.declaration.name,
      toolConfig(tool, deps.publicUrl),
      (args: Record<string, unknown>, ctx) => {
        const run: RunTool = (input, confirmation) =>
          runTool(deps, connection, tool, input, ctx.mcpReq.id, confirmation);
        // 2026-07-28 asks by an input_required result; a 2025-era client able to answer an
        // elicitation was served before the SDK (legacyConfirm.ts), so here it cannot be asked
        const envelope = ctx.mcpReq.envelope;
        const asker: Asker =
          envelope !== undefined &&
          elicitsForms(
            (envelope as Record<string, unknown>)[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined,
          )
            ? { kind: 'input_required', responses: ctx.mcpReq.inputResponses, state: requestStateOf(ctx) }
            : { kind: 'none' };
        return runConfirmed(
          { callLedger: deps.callLedger, stateKey: deps.stateKey },
          connection,
          tool,
          args,
          asker,
          run,
        );
      },
    );
  }
  // resources are answered by the low-level handlers: resources/list pages through the ledger's documents
  server.server.setRequestHandler('resources/list', async (request) => {
    const cursor = request.params?.cursor;
    const page = await listResources(deps, connection, permitted, cursor);
    // the two views close the first page (they hold no data: every view reads through tools)
    return cursor === undefined
      ? { ...page, resources: [...page.resources, ...appResources(connection.scopes)] }
      : page;
  });
  server.server.setRequestHandler('resources/templates/list', () => listResourceTemplates(deps, connection, permitted));
  server.server.setRequestHandler(
    'resources/read',
    async (request) => readAppResource(request.params.uri) ?? readResource(deps, connection, request.params.uri),
  );
  return server;
}
