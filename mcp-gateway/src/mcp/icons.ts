/**
 * The MCP server's icon and one icon per area (2025-11-25 `icons` on the server's info and
 * on each tool), served by the gateway itself at `{api_url}/mcp-icons/{name}.svg`. Served,
 * not inlined as data: URIs: every tool carries its area's icon, and a URL is a tenth of the
 * bytes in a tools/list every conversation reads. Small square SVGs with no script, served
 * with a CSP that forbids any; long cacheable (their content never changes under a name —
 * a changed icon gets a new name).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Area } from '@ledger/shared';

/** Where the icons are served, relative to `{api_url}`. */
export const ICONS_PATH = '/mcp-icons/';

/** A 24×24 tile in the area's colour with a white glyph (path data). */
function tile(colour: string, glyph: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" ` +
    `fill="${colour}"/>` +
    `<path d="${glyph}" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" ` +
    `stroke-linejoin="round"/></svg>`
  );
}

const ICONS: Readonly<Record<string, string>> = {
  // the server: a ledger book
  ledger: tile('#1f4e79', 'M7 5h9a1 1 0 0 1 1 1v13H8a1 1 0 0 1-1-1zM10 9h4M10 12h4'),
  // accounting: a balance
  accounting: tile('#2e7d32', 'M12 5v14M6 8h12M6 8l-2 5h4zM18 8l-2 5h4zM9 19h6'),
  // invoices and bills: a document with lines
  invoices: tile('#b45309', 'M7 4h7l3 3v13H7zM10 10h4M10 13h4M10 16h2'),
  // contacts: a person
  contacts: tile('#6a1b9a', 'M12 12a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 19a6 6 0 0 1 12 0'),
  // bank: a building with columns
  bank: tile('#00838f', 'M4 9l8-4 8 4M6 9v8M10 9v8M14 9v8M18 9v8M4 19h16'),
  // documents: a paper clip
  documents: tile('#455a64', 'M15 7l-6 6a2 2 0 0 0 3 3l6-6a4 4 0 0 0-6-6l-6 6a6 6 0 0 0 8 8l5-5'),
};

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

function iconUrl(publicUrl: string, name: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${ICONS_PATH}${name}.svg`;
}

/** The server's icons (its info at initialize / server/discover): media type and size named. */
export function serverIcons(publicUrl: string): Icon[] {
  return [{ src: iconUrl(publicUrl, 'ledger'), mimeType: 'image/svg+xml', sizes: ['any'] }];
}

/** A tool's icons: its area's, by URL alone (the media type is the served one; bytes count here). */
export function areaIcons(publicUrl: string, area: Area): Icon[] {
  return [{ src: iconUrl(publicUrl, area) }];
}

/**
 * Answers a request for an icon (`GET`/`HEAD` `/mcp-icons/{name}.svg`); false when the path is
 * not an icon's, so the caller routes the request on.
 */
export function serveIcon(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  if (!url.startsWith(ICONS_PATH)) return false;
  const m = /^\/mcp-icons\/([a-z]+)\.svg(?:\?.*)?$/.exec(url);
  const svg = m ? ICONS[m[1]!] : undefined;
  if (svg === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(svg === undefined ? 404 : 405, {
      'content-type': 'text/plain; charset=utf-8',
      ...(svg === undefined ? {} : { allow: 'GET, HEAD' }),
    });
    res.end(svg === undefined ? 'Not found' : 'Method not allowed');
    return true;
  }
  res.writeHead(200, {
    'content-type': 'image/svg+xml',
    'content-length': String(Buffer.byteLength(svg)),
    'cache-control': 'public, max-age=86400',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    // assistants' web clients load these from their own origin
    'cross-origin-resource-policy': 'cross-origin',
  });
  res.end(req.method === 'HEAD' ? undefined : svg);
  return true;
}
