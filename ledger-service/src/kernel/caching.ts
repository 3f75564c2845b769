import { createHash } from 'node:crypto';
import type { Context } from 'koa';

/** Clients are told to keep rarely changing lists (chart, taxes) for an hour, per user. */
export const CACHE_CONTROL = 'private, max-age=3600';

/** Strong ETag: a hash of the exact response content. */
export function etagOf(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}"`;
}

/** If-None-Match matches when it lists the tag (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function noneMatchHits(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .includes(etag);
}

/**
 * Sets ETag and Cache-Control; answers 304 without a body when the client's copy is
 * current (returns undefined), otherwise returns the body to send.
 */
export function conditional<T>(ctx: Context, body: T): T | undefined {
  const etag = etagOf(body);
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', CACHE_CONTROL);
  if (noneMatchHits(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
    return undefined;
  }
  return body;
}
