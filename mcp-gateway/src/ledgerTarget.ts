/**
 * Where a ledger call goes, as undici's dispatcher takes it (`origin` and `path`), without
 * parsing a URL per call where parsing would change nothing.
 *
 * undici's `request(url, opts)` parses `${baseUrl}${path}` with the WHATWG URL parser on every
 * call and copies the options into a new object; the MCP endpoint makes one ledger call per
 * `tools/call`, and that parse was part of each (docs/benchmarks.md "Gateway"). The parser
 * normalises what it reads — dot segments (`..`, `%2e%2e`) resolved, some characters
 * percent-encoded, an empty query dropped — so a path is handed on as written only when it is
 * one the parser would leave exactly as it is; any other path takes the parser as before
 * (`ledgerTarget.test.ts` holds the two to the same answer).
 */

export interface LedgerTarget {
  /** scheme, host and port, as `URL.origin` writes them */
  origin: string;
  /** the path and query sent on the request line */
  path: string;
}

/**
 * Characters the URL parser leaves as they are in a path and in a query of an http(s) URL
 * (no `'`, which a special scheme's query encodes; no `#`, `\`, space, quotes, brackets,
 * braces or non-ASCII).
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;

/** A dot, percent-encoded (the parser reads `%2e%2e` as a dot segment too). */
const ENCODED_DOT = /%2e/i;

/** The origin of a base URL when it is nothing but an origin (no path, not even `/`), else undefined. */
export function bareOrigin(baseUrl: string): string | undefined {
  try {
    const origin = new URL(baseUrl).origin;
    return origin === baseUrl ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** `path` is what the URL parser would make of it behind a bare origin: no dot segment, nothing it encodes. */
export function isPlainPath(path: string): boolean {
  if (!PLAIN_PATH.test(path) || path.endsWith('?')) return false;
  const query = path.indexOf('?');
  const pathname = query < 0 ? path : path.slice(0, query);
  // a segment starting with a dot may be a dot segment: left to the parser (as is `%2e`)
  return !pathname.includes('/.') && !ENCODED_DOT.test(pathname);
}

/** The target of `path` on the ledger at `baseUrl`, the way undici's `request(url)` would read it. */
export function ledgerTarget(baseUrl: string, origin: string | undefined, path: string): LedgerTarget {
  if (origin !== undefined && isPlainPath(path)) return { origin, path };
  const url = new URL(`${baseUrl}${path}`);
  return { origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
}
