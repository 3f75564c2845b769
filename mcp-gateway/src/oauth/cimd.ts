/**
 * Client ID Metadata Documents (MCP authorization, draft-ietf-oauth-client-id-metadata-document):
 * the client_id is an https URL whose document describes the client. The fetch is made
 * safe against SSRF: only addresses outside every special-purpose range (the guard shared with
 * the ledger's webhook targets, shared/src/network/specialAddresses.ts; checked after DNS
 * resolution, on the address actually connected to; a refusal never names the address), no
 * redirects to another host, a time limit and a size cap. Documents are cached as their
 * Cache-Control allows, at most 12 hours.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '@ledger/shared/network/specialAddresses';
import { LRUCache } from 'lru-cache';
import { Agent, request, type Dispatcher } from 'undici';
import type { Logger } from '../logger.ts';
import { redirectUriProblem } from './redirectUris.ts';

export const CIMD_LIMITS = {
  maxBytes: 64 * 1024,
  timeoutMs: 5_000,
  maxRedirects: 3,
  maxRedirectUris: 20,
  maxCacheSeconds: 12 * 60 * 60,
  /** when the response gives no freshness information */
  defaultCacheSeconds: 60 * 60,
};

export class ClientMetadataError extends Error {}

export interface ClientMetadataDocument {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  client_uri?: string;
  logo_uri?: string;
}

/** Is this client_id meant as a metadata-document URL? (Registered client ids never start with https://.) */
export function isMetadataUrl(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** The URL rules for a metadata-document client_id; a reason, or undefined when acceptable. */
export function clientIdUrlProblem(clientId: string): string | undefined {
  if (clientId.length > 2000) return 'the client_id URL is too long';
  let u: URL;
  try {
    u = new URL(clientId);
  } catch {
    return 'the client_id is not a valid URL';
  }
  if (u.protocol !== 'https:') return 'a client_id URL must use https';
  if (u.username || u.password) return 'a client_id URL must not contain credentials';
  if (clientId.includes('#')) return 'a client_id URL must not contain a fragment';
  if (u.pathname === '/' || u.pathname === '') return 'a client_id URL must contain a path';
  const rawPath = clientId.slice(clientId.indexOf('/', 'https://'.length)).split('?')[0]!;
  if (rawPath.split('/').some((seg) => /^(\.|%2e){1,2}$/i.test(seg)))
    return 'a client_id URL must not contain . or .. path segments';
  if (u.href !== clientId) return 'the client_id URL is not in normalized form';
  return undefined;
}

function safeLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return (callback as (e: Error | null) => void)(err);
      if (addresses.length === 0 || (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address)))) {
        const e = new ClientMetadataError(`${hostname} resolves to an address that may not be fetched`);
        return (callback as (e: Error | null) => void)(e);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

interface Cached {
  doc: ClientMetadataDocument;
  /** epoch ms on the fetcher's clock after which the document is fetched again */
  expiresAt: number;
}

export interface CimdFetcherOptions {
  /** TEST ONLY: allow loopback and private addresses */
  allowPrivate?: boolean;
  /** TEST ONLY: extra CA (PEM) for the TLS connection */
  ca?: string;
  /** TEST ONLY: a shorter time limit than CIMD_LIMITS.timeoutMs */
  timeoutMs?: number;
  /** where failed fetches are noted (info: anyone can cause them) */
  log?: Pick<Logger, 'info'>;
  /** the clock the cache lifetime is measured on (the gateway's, so tests can move it) */
  now?: () => number;
}

export class CimdFetcher {
  private readonly agent: Dispatcher;
  // bounded by count; freshness is checked on read against `now` (below), not with the LRU's
  // own ttl, whose clock (performance.now) the gateway's injected clock cannot move
  private readonly cache = new LRUCache<string, Cached>({ max: 5_000 });
  private readonly inflight = new Map<string, Promise<ClientMetadataDocument>>();
  private readonly allowPrivate: boolean;
  private readonly timeoutMs: number;
  private readonly log: Pick<Logger, 'info'> | undefined;
  private readonly now: () => number;

  constructor(opts: CimdFetcherOptions = {}) {
    this.allowPrivate = Boolean(opts.allowPrivate);
    this.now = opts.now ?? Date.now;
    this.timeoutMs = opts.timeoutMs ?? CIMD_LIMITS.timeoutMs;
    this.log = opts.log;
    this.agent = new Agent({
      connect: { lookup: safeLookup(this.allowPrivate), ...(opts.ca ? { ca: opts.ca } : {}), timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connections: 8,
    });
  }

  /** The validated document for this client_id, from the cache or fetched now. */
  async get(clientId: string): Promise<ClientMetadataDocument> {
    const cached = this.cache.get(clientId);
    if (cached && cached.expiresAt > this.now()) return cached.doc;
    if (cached) this.cache.delete(clientId);
    let pending = this.inflight.get(clientId);
    if (!pending) {
      pending = this.fetchAndValidate(clientId).finally(() => this.inflight.delete(clientId));
      this.inflight.set(clientId, pending);
    }
    return pending;
  }

  /**
   * Every way this can fail — a refused URL, DNS, TLS, a timeout before the headers or while
   * the body arrives, a dropped connection, an invalid document — is a ClientMetadataError,
   * i.e. the client cannot be identified (the 400 page), never an unhandled error: anyone can
   * point a client_id at a slow server. Noted at info level for the same reason.
   */
  private async fetchAndValidate(clientId: string): Promise<ClientMetadataDocument> {
    try {
      const problem = clientIdUrlProblem(clientId);
      if (problem) throw new ClientMetadataError(problem);
      const { body, cacheSeconds } = await this.fetchDocument(clientId);
      const doc = validateDocument(clientId, body);
      if (cacheSeconds > 0) this.cache.set(clientId, { doc, expiresAt: this.now() + cacheSeconds * 1000 });
      return doc;
    } catch (err) {
      const failure = this.asClientMetadataError(err);
      this.log?.info({ clientId, reason: failure.message }, 'client metadata document refused');
      throw failure;
    }
  }

  private asClientMetadataError(err: unknown): ClientMetadataError {
    if (err instanceof ClientMetadataError) return err;
    const cause = err instanceof Error ? err.cause : undefined;
    if (cause instanceof ClientMetadataError) return cause;
    return new ClientMetadataError(`the client metadata document could not be fetched: ${this.describe(err)}`);
  }

  private describe(err: unknown): string {
    if (!(err instanceof Error)) return String(err);
    const code = (err as { code?: unknown }).code;
    if (err.name === 'TimeoutError' || (typeof code === 'string' && code.endsWith('_TIMEOUT'))) {
      return `no complete answer within ${this.timeoutMs / 1000} s`;
    }
    return err.message;
  }

  private checkLiteralHost(u: URL): void {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.allowPrivate && !isPublicAddress(host)) {
      throw new ClientMetadataError(`${u.hostname} is not a public address`);
    }
  }

  private async fetchDocument(clientId: string): Promise<{ body: unknown; cacheSeconds: number }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const origin = new URL(clientId);
    let url = origin;
    for (let hop = 0; ; hop++) {
      this.checkLiteralHost(url);
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: 'GET',
          dispatcher: this.agent,
          signal,
          headers: { accept: 'application/json', 'user-agent': 'ledger-mcp-gateway (client metadata fetch)' },
        });
      } catch (err) {
        throw this.asClientMetadataError(err);
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        res.body.resume();
        const location = res.headers.location;
        if (typeof location !== 'string')
          throw new ClientMetadataError('the client metadata URL redirects without a location');
        if (hop >= CIMD_LIMITS.maxRedirects)
          throw new ClientMetadataError('the client metadata URL redirects too often');
        const next = new URL(location, url);
        if (next.protocol !== 'https:' || next.host !== origin.host) {
          throw new ClientMetadataError('the client metadata URL redirects to another host');
        }
        url = next;
        continue;
      }
      if (res.statusCode !== 200) {
        res.body.resume();
        throw new ClientMetadataError(`the client metadata URL answered HTTP ${res.statusCode}`);
      }
      const text = await readCapped(res, CIMD_LIMITS.maxBytes);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ClientMetadataError('the client metadata document is not JSON');
      }
      return { body, cacheSeconds: cacheSecondsOf(res.headers['cache-control']) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The body up to `max` bytes; on any failure (size, timeout, dropped connection) the body is let go. */
async function readCapped(res: Dispatcher.ResponseData, max: number): Promise<string> {
  const tooLarge = () => new ClientMetadataError(`the client metadata document is larger than ${max} bytes`);
  try {
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > max) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (err) {
    res.body.destroy();
    throw err;
  }
}

/** Seconds the document may be reused: max-age (or s-maxage), at most 12 h; 0 for no-store/no-cache. */
export function cacheSecondsOf(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return CIMD_LIMITS.defaultCacheSeconds;
  const directives = value
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^(?:s-)?max-age=(\d+)$/.exec(d)?.[1]).find((v) => v !== undefined);
  if (maxAge === undefined) return CIMD_LIMITS.defaultCacheSeconds;
  return Math.min(Number(maxAge), CIMD_LIMITS.maxCacheSeconds);
}

function validateDocument(clientId: string, body: unknown): ClientMetadataDocument {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ClientMetadataError('the client metadata document is not a JSON object');
  const d = body as Record<string, unknown>;
  if (d.client_id !== clientId) throw new ClientMetadataError("the document's client_id does not equal its URL");
  const name = d.client_name;
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 200) {
    throw new ClientMetadataError('the client metadata document needs a client_name of 1 to 200 characters');
  }
  const uris = d.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    throw new ClientMetadataError('the client metadata document needs redirect_uris');
  if (uris.length > CIMD_LIMITS.maxRedirectUris) {
    throw new ClientMetadataError(
      `the client metadata document lists more than ${CIMD_LIMITS.maxRedirectUris} redirect_uris`,
    );
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new ClientMetadataError(problem);
  }
  const method = d.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new ClientMetadataError('only public clients are supported: token_endpoint_auth_method must be "none"');
  }
  return {
    client_id: clientId,
    client_name: name.trim(),
    redirect_uris: uris as string[],
    ...(typeof d.client_uri === 'string' ? { client_uri: d.client_uri } : {}),
    ...(typeof d.logo_uri === 'string' ? { logo_uri: d.logo_uri } : {}),
  };
}
