/** The MCP endpoint `{api_url}/mcp/{dataset}`, served on the gateway's Node server (origin/listener.ts). */
export type { McpConnection, McpDeps, TokenResolution, LedgerResponse, LedgerMethod, McpLogger } from './types.ts';
export { resourceMetadataUrl } from './challenge.ts';
export { CATALOGUE } from './tools/catalogue.ts';
export { createMcpEndpoint, type McpEndpoint } from './http.ts';

/**
 * The dataset of a request to the MCP endpoint, or undefined for any other request: the path
 * (origin-form, query string aside) is `/mcp/{dataset}`, with an optional trailing slash and
 * `mcp` in any case, as the Koa router that served it before matched it; the segment is
 * percent-decoded when it decodes (the endpoint then judges the name itself).
 */
export function mcpDatasetOf(url: string | undefined): string | undefined {
  if (!url || url.length < 6 || url.charCodeAt(0) !== 47 /* / */ || url.slice(1, 5).toLowerCase() !== 'mcp/')
    return undefined;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const m = /^\/mcp\/([^/]+)\/?$/i.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}
