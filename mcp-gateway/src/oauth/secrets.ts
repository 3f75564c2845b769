/**
 * Opaque secrets (tokens, codes, session ids): 256 random bits, base64url, with a short
 * prefix naming the kind. Stored only as SHA-256 hashes (fast hashing is enough for
 * 256-bit random values); compared in constant time.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '@ledger/shared';

export const PREFIX = {
  access: 'mcpat_',
  refresh: 'mcprt_',
  code: 'mcpac_',
  session: 'gws_',
} as const;

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** True when `value` has the shape of a secret of this kind (checked before any lookup). */
export function looksLike(prefix: string, value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length === prefix.length + 43 &&
    value.startsWith(prefix) &&
    SECRET_CHARACTERS.test(value.slice(prefix.length))
  );
}

/** base64url, the alphabet of a secret after its prefix (one RegExp for every check: every MCP call makes one). */
const SECRET_CHARACTERS = /^[A-Za-z0-9_-]+$/;

export const hashSecret = sha256Hex;
export const sameString = constantTimeEqual;

export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
