/**
 * Redirect-URI rules (docs/oauth.md "Client identification", RFC 8252, OAuth 2.1 §2.3.1):
 * https; http only on localhost, 127.0.0.1 or [::1]; custom app schemes. No fragments,
 * no credentials. Matching is exact, except that a loopback URI's port may differ.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** schemes that are not app callbacks and could run code or reach other resources */
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'about',
  'blob',
  'filesystem',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
  'view-source',
  'chrome',
  'intent',
]);
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Why the URI may not be registered, or undefined when it may. */
export function redirectUriProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return 'a redirect URI must be a non-empty string';
  if (raw.length > MAX_REDIRECT_URI_LENGTH)
    return `a redirect URI may have at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'a redirect URI must not contain whitespace or control characters';
  if (raw.includes('#')) return `redirect URI ${raw} must not contain a fragment`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `redirect URI ${raw} is not a valid absolute URI`;
  }
  if (u.username || u.password) return `redirect URI ${raw} must not contain credentials`;
  const scheme = u.protocol.slice(0, -1);
  if (scheme === 'https') return u.hostname ? undefined : `redirect URI ${raw} has no host`;
  if (scheme === 'http') {
    return LOOPBACK_HOSTS.has(u.hostname)
      ? undefined
      : `redirect URI ${raw}: http is only allowed on localhost, 127.0.0.1 or [::1]; use https`;
  }
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme) || FORBIDDEN_SCHEMES.has(scheme))
    return `redirect URI ${raw} uses a scheme that is not allowed`;
  return undefined;
}

export function isLoopbackHttp(u: URL): boolean {
  return u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname);
}

/** The registered URI the presented one matches, if any. */
export function matchRedirectUri(registered: readonly string[], presented: string): string | undefined {
  if (registered.includes(presented)) return presented;
  let p: URL;
  try {
    p = new URL(presented);
  } catch {
    return undefined;
  }
  if (!isLoopbackHttp(p) || presented.includes('#') || p.username || p.password) return undefined;
  return registered.find((r) => {
    let u: URL;
    try {
      u = new URL(r);
    } catch {
      return false;
    }
    return isLoopbackHttp(u) && u.hostname === p.hostname && u.pathname === p.pathname && u.search === p.search;
  });
}

/** The host under which a client is shown as "Verified domain": all redirect URIs https on one host. */
export function verifiedHostOf(uris: readonly string[]): string | undefined {
  const hosts = new Set<string>();
  for (const raw of uris) {
    const u = new URL(raw);
    if (u.protocol !== 'https:') return undefined;
    hosts.add(u.hostname);
  }
  return hosts.size === 1 ? [...hosts][0] : undefined;
}
