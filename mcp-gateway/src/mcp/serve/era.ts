/**
 * Which protocol era a request is served in: a 2025-era answer may start streaming before
 * the tool has run, so the paths that stream check the connection first.
 */
import type { IncomingMessage } from 'node:http';
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { bodylessRequest } from '../nodeBridge.ts';

/**
 * A single message carrying the per-request envelope claim (`_meta` key
 * `io.modelcontextprotocol/protocolVersion`): the SDK never serves it as a
 * 2025-era request (isLegacyRequest documents "true only for requests with no per-request
 * _meta envelope claim"), so its classification need not run twice. Anything else is
 * classified by the SDK itself.
 */
export function claimsModernEra(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const meta = (body as { params?: { _meta?: unknown } }).params?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/** The SDK serves this request as a 2025-era one (`request`: its web form, if already built). */
export async function servedAsLegacy(
  req: IncomingMessage,
  body: unknown,
  maxBodyBytes: number,
  request?: Request,
): Promise<boolean> {
  if (claimsModernEra(body)) return false;
  const probe = request ?? bodylessRequest(req, new AbortController().signal);
  return isLegacyRequest(probe, body, { maxRequestBodySize: maxBodyBytes });
}
