/**
 * The error codes an endpoint can answer: its own (`Contract.errors`) plus those every endpoint or every body can
 * cause.
 */
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import type { Contract } from './contract.ts';

/** Any /client request: bad query or path, key missing or foreign, no such record, database unreachable. */
export const COMMON_ERRORS: readonly ErrorCode[] = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'unavailable',
];
/** Any request with a body: too large, or not JSON (multipart where files are accepted). */
export const BODY_ERRORS: readonly ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
/** Any POST: its Idempotency-Key was used for another request, or that request is still running. */
export const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = ['conflict'];

/** A write that posts, pays, sends or deletes: an AI connection's without the person's confirmation. */
export const CONFIRMATION_ERRORS: readonly ErrorCode[] = ['confirmation_required'];

type Declared = Pick<Contract, 'errors' | 'body'> & { method?: Contract['method']; effect?: Contract['effect'] };

export function errorCodesOf(c: Declared): ErrorCode[] {
  const all = new Set<ErrorCode>([
    ...COMMON_ERRORS,
    ...(c.body ? BODY_ERRORS : []),
    ...(c.method === 'POST' ? IDEMPOTENCY_ERRORS : []),
    ...(c.effect && c.effect !== 'none' ? CONFIRMATION_ERRORS : []),
    ...c.errors,
  ]);
  return [...all].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

/** The statuses of those codes, each with the codes it stands for: `{ 400: ['invalid_request', 'vc_not_found'] }`. */
export function errorStatusesOf(c: Declared): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(c)) {
    const status = ERROR_STATUS[code];
    out.set(status, [...(out.get(status) ?? []), code]);
  }
  return out;
}
