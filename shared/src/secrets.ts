import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Hashing of high-entropy secrets (API keys, OAuth tokens and codes: 256 random bits each,
 * so a fast hash is enough) and constant-time comparison, for both services.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
